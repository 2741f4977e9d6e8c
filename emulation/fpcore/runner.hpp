// Runner: evaluates FPCore benchmarks under formats against the MPFR ground truth on sampled or
// given inputs, and measures the errors into Report rows.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/format.hpp"
#include "emulation/fpcore/context.hpp"
#include "emulation/fpcore/fpcore.hpp"
#include "emulation/fpcore/sampler.hpp"
#include "emulation/fpcore/value.hpp"
#include "emulation/simulation/report.hpp"

namespace floatscope::emu::fpcore {

/// One input point given by the user: argument name -> number text (decimal, rational, hex).
using InputPoint = std::vector<std::pair<std::string, std::string>>;

struct RunOptions {
    std::vector<core::FormatSpec> formats;  ///< binary formats; each is one policy
    int samples = 256;
    std::uint64_t seed = 1;
    /// Bits the ground truth starts with; 0: automatic, 2p + 30 of the widest format (256 at least,
    /// Real::max_precision at most). Below what a format needs it is refused (settled_truth.hpp).
    int mpfr_precision = 0;
    OverrideMode override_mode = OverrideMode::All;
    /// The rounding of the contexts in the formats (see ContextPolicy); nullopt: the program's :round.
    std::optional<core::RoundingMode> rounding;
    /// Formats of the benchmark's own operations (ContextPolicy::operation_formats).
    std::vector<std::optional<core::FormatRounding>> operation_formats;
    EvaluationLimits limits;  ///< per evaluation
    double seconds_per_benchmark = 60;  ///< CPU seconds per benchmark and format, all samples together
    /// Given points instead of sampling (each is rounded to its argument's format, as FPCore
    /// rounds program inputs; the ground truth runs on the same rounded values).
    std::vector<InputPoint> inputs;
    int threads = 1;
    /// Called after each evaluated point with the points done and wanted (for progress bars). It may
    /// throw floatscope::Error to stop: the benchmark then fails with that message.
    std::function<void(int done, int wanted)> on_point;
};

/// A benchmark to run: an FPCore and the FPCores of its file (the ones it may call).
struct Benchmark {
    const FPCore* core = nullptr;
    const std::vector<FPCore>* file_cores = nullptr;
    std::string workload;  ///< the name in reports: :name, made unique among the benchmarks run
};

/// The summary of one benchmark under one format (the table `fpcore` prints).
struct Outcome {
    std::string workload;
    std::string format;
    std::string error;  ///< why it could not be evaluated; empty when it was
    int samples = 0;  ///< evaluated points
    int rejected = 0;  ///< drawn points failing :pre, whose real result is NaN, or past the limits
    int budget_exceeded = 0;  ///< points where the emulated run exceeded the iteration budget
    double bits_error_avg = 0, bits_error_max = 0;
    double rel_error_avg = 0, rel_error_max = 0;
    double bits_correct_mean = 0, bits_correct_min = 0;  ///< -log2 of the relative error in [0, p], over the points
    int overflow = 0, underflow = 0, nan = 0, inf = 0;
    int truth_precision_max = 0;  ///< the most bits a point's ground truth took to settle
    int truth_unsettled = 0;  ///< points whose truth did not settle within Real::max_precision bits
    Spread spread = Spread::Ordinal;  ///< how the points were drawn
    std::vector<ReportRow> rows;
};

/// The outcome of a file that could not be read or parsed: workload = the file, format "-", and
/// per format the error row a benchmark that cannot be evaluated has, so that a corpus run reports
/// it and goes on.
Outcome unreadable_file(const std::string& file, const std::string& error, const RunOptions& options);

/// Names the benchmarks of the files: their :name, with " #2", " #3" added to repeated names.
std::vector<Benchmark> list_benchmarks(const std::vector<std::vector<FPCore>>& files);

/// Runs every benchmark under every format (on options.threads threads). Never throws for a
/// benchmark that cannot run: its Outcome says why. Throws floatscope::Error for bad options.
///
/// Per point: inputs are drawn per format (sampler.hpp; the points of a benchmark and format depend
/// on the seed and their names only, not on which other benchmarks and formats run) and rejected when :pre is false or
/// the ground truth is NaN (as Herbie discards them) or runs past the limits (the benchmark is unevaluable when such
/// points outnumber the valid ones by more than 2); the emulated run may iterate twice the exact program's iterations
/// and 1000 more, and running past that (or repeating a loop state) counts in budget_exceeded and leaves the point out
/// of the errors and the exception counts (NaN errors where no point ended).
/// A (while TRUE ...) loop runs EvaluationLimits::endless_loop_iterations times, in both.
/// Fewer than half the requested samples after 10x the draws (or past the time budget) is an error naming the ranges.
/// When every argument is fixed (by :example, see argument_ranges, or because there are none) the benchmark runs once
/// on that point.
///
/// Rows (run "1", workload, policy = format name): region "output"/"result" with metrics samples,
/// rejected_count, bits_error_avg, bits_error_max, rel_error_avg, rel_error_max, op_overflow_flags,
/// op_underflow_flags (points whose evaluation raised the IEEE flag), nan_count, inf_count,
/// budget_exceeded_count (counts are of points), truth_precision_max and truth_unsettled_count (the
/// bits the ground truth settled at, settled_truth.hpp; points where it did not),
/// uniform_in_value (1 when the points were drawn uniformly in value, see choose_spread); region
/// kind "binding" per let variable outside loops and kind "iteration" per iteration of the first
/// loop (its first variable), each with bits_error_avg, bits_error_max, samples. A benchmark that
/// cannot be evaluated has one row: region_kind "run", region = the reason, metric "error", value 1.
std::vector<Outcome> run_benchmarks(const std::vector<Benchmark>& benchmarks, const RunOptions& options);

/// The rows of the outcomes as a Report with one RunInfo (workload "fpcore", the options as
/// parameters, the formats as policies).
Report make_report(const std::vector<Outcome>& outcomes, const RunOptions& options,
                   const std::vector<std::string>& files);

}  // namespace floatscope::emu::fpcore
