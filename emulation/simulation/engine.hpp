// Engine: runs a workload under each policy and once in MPFR, and measures every region of every
// policy against the ground truth into a Report.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emulation/simulation/parameters.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/simulation/region_measures.hpp"
#include "emulation/simulation/report.hpp"
#include "emulation/simulation/run_control.hpp"
#include "emulation/simulation/trace.hpp"
#include "emulation/simulation/workload.hpp"

namespace floatscope::emu {

/// A ground truth kept for later runs of the same workload, parameters and precision (the advisor's
/// rounds, each of which would otherwise compute it again). The first run given an empty one runs
/// its truth and keeps the regions that are the run's results (result_regions) with the truth's own
/// rows; a later run measures its policies' result regions against those, runs no truth, and
/// measures its other regions without one. Only the first policy's regions decide what is kept, so
/// every run sharing it must record the same results. One run at a time may hold it.
struct KeptTruth {
    bool filled = false;
    std::vector<TruthRegion> regions;
    std::vector<ReportRow> rows;  ///< the truth's metric rows, as the run that made it reported them
};

struct RunRequest {
    const Workload* workload = nullptr;
    Parameters parameters;
    std::vector<PrecisionPolicy> policies;
    bool ground_truth = true;  ///< ignored for workloads without one
    /// Bits of the ground truth; 0: chosen, 256 or more where the policies' widest format needs it
    /// (chosen_truth_precision); a precision below that need is refused. The report's RunInfo says
    /// which it used.
    int mpfr_precision = 0;
    int threads = 1;  ///< policies and the ground truth run concurrently on this many threads
    std::string run_id = "1";
    std::shared_ptr<KeptTruth> kept_truth;  ///< nullptr: the truth is run, and dropped as it is measured
    /// Measure only each policy's result regions (result_regions); its other regions report their
    /// value count and the workload's own metrics (unmeasured_region_rows). The advisor's rounds.
    bool results_only = false;
};

/// Where run_all hands on a report as it is made (see run_all).
struct ReportStream {
    std::function<void(const Report& metadata)> begin;
    std::function<void(std::vector<ReportRow>&& rows)> rows;
};

/// Runs the request; the ground truth is computed once and shared by all policies. Rows per
/// policy and region: errors (abs, rel, ULP, bits correct), classification counts, value range,
/// the region's counters and metrics; rows of region_kind "run": seconds per policy and for the
/// ground truth; the workload's work counts where it gives them (work_rows). Throws floatscope::Error for bad requests,
/// Cancelled when cancelled.
Report run(const RunRequest& request, RunControl& control);

/// Several runs (a sweep's grid points) as one report: each ground truth and each (run, policy) is a
/// job for `threads` threads (RunRequest::threads is not used here); a run's ground truth is released
/// once its policies are measured. Runs and rows in request order, each run's ground-truth rows
/// before its policies' rows, whatever order the jobs finish in. The progress callback of `control`
/// is called from the worker threads and must be thread-safe.
/// A batch with fewer ground truths than threads gives each truth threads / truths of them for its
/// exact GEMMs (TruthThreadsScope), with the same results on any count.
/// With a `stream`, the report is handed on as it is made and the returned report has no rows:
/// stream->begin gets the report without rows once the requests are checked, stream->rows each
/// run's rows in request order as soon as that run and those before it are done (called from a
/// worker thread, one call at a time); so that a long sweep holds only the rows of unfinished runs.
Report run_all(const std::vector<RunRequest>& requests, int threads, RunControl& control,
               const ReportStream* stream = nullptr);

/// Why `workload` cannot run `policy`, known before it runs (clauses that select a graph's nodes,
/// for a workload without a graph); nullopt when nothing is known against it.
std::optional<std::string> policy_refusal(const Workload& workload, const PrecisionPolicy& policy);

/// What a report says of the run `request` asks for (its RunInfo), before it runs.
RunInfo run_info(const RunRequest& request);

/// Rows of a policy's whole run (region_kind "run") that hold its Workload::work counts:
/// work_operations_<datasheet format>, work_dram_bytes, work_resident_bytes.
std::vector<ReportRow> work_rows(const ReportRow& base, const core::WorkloadCounts& work);
/// The counts back from a report's rows of one (run, policy); nullopt when it has none.
std::optional<core::WorkloadCounts> read_work(const Report& report, const std::string& run, const std::string& policy);

/// Whether `metric` is one the engine derives (errors, counts, value range, histogram, operation
/// counters, timings) rather than one a workload reported itself (loss, accuracy).
bool is_measured_metric(const std::string& metric);

}  // namespace floatscope::emu
