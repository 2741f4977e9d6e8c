// Engine: the runs of a request (ground truth and policies) as jobs on threads; each emulated region
// is measured against its ground truth by region_measures.
#include "emulation/simulation/engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format_properties.hpp"
#include "core/memory_budget.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/simulation/concurrent_progress.hpp"
#include "emulation/simulation/control_divergence.hpp"
#include "emulation/simulation/job_work.hpp"
#include "emulation/simulation/memory_admission.hpp"
#include "emulation/simulation/memory_estimate.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/region_measures.hpp"
#include "emulation/simulation/result_regions.hpp"
#include "emulation/simulation/truth_precision.hpp"

#ifndef FLOATSCOPE_VERSION
#error "FLOATSCOPE_VERSION is defined by emulation/CMakeLists.txt from the project version"
#endif

namespace floatscope::emu {

namespace {

constexpr const char* truth_policy = "ground-truth";
constexpr int min_mpfr_precision = 53;  // to_truth holds doubles exactly only from 53 bits on
constexpr int max_mpfr_precision = 1 << 16;

// ---- jobs ----------------------------------------------------------------------------------

/// A policy's run kept until its ground truth has measured it: the regions, and the rows each
/// region gets when the truth's region of the same kind and index is made.
struct PolicyRun {
    Trace trace;
    double seconds = 0;
    std::map<std::pair<std::string, int>, std::size_t> position;  ///< (kind, index) -> trace region
    std::vector<std::vector<ReportRow>> region_rows;
    std::vector<bool> measured;
    std::vector<bool> measures;  ///< per region: measured in full (false: a results-only run's other regions)
    /// Its control-flow decisions against the truth's (ONNX's If and Loop), as the truth hands them on.
    ControlDivergence divergence;
};

/// One request of a batch while it runs. With a ground truth, its policies run first and keep their
/// traces; the truth, queued after them, measures each of their regions as it makes the region
/// and drops both: the truth holds the region in progress, never every region of the run.
struct RunState {
    const RunRequest* request = nullptr;
    bool with_truth = false;
    /// What each policy job and the ground truth hold while they live, as the checks state it.
    std::uint64_t policy_bytes = 0;
    std::uint64_t truth_bytes = 0;
    std::vector<ReportRow> truth_rows;
    std::vector<std::vector<ReportRow>> policy_rows;
    std::vector<PolicyRun> policy_runs;  ///< with a truth: each policy's, until measured
    double measuring_seconds = 0;  ///< spent measuring the policies while the truth ran
    std::atomic<std::size_t> policies_left{0};  ///< without a truth: the run is done at 0
    /// Policy jobs finished (or failed): the truth starts when all have.
    std::mutex policies_mutex;
    std::condition_variable policies_changed;
    std::size_t policies_finished = 0;

    void policy_finished() {
        {
            const std::lock_guard<std::mutex> lock(policies_mutex);
            ++policies_finished;
        }
        policies_changed.notify_all();
    }
    void wait_for_policies() {
        std::unique_lock<std::mutex> lock(policies_mutex);
        policies_changed.wait(lock, [&] { return policies_finished == request->policies.size(); });
    }

    /// The truth's rows, then each policy's: the run's part of the report.
    std::vector<ReportRow> take_rows() {
        std::vector<ReportRow> rows = std::move(truth_rows);
        for (std::vector<ReportRow>& p : policy_rows) {
            rows.insert(rows.end(), std::make_move_iterator(p.begin()), std::make_move_iterator(p.end()));
            std::vector<ReportRow>().swap(p);
        }
        return rows;
    }
};

/// Hands finished runs' rows on in request order (run_all's stream).
class RowHandOver {
public:
    RowHandOver(const std::vector<std::unique_ptr<RunState>>& states, const ReportStream* stream)
        : states_(states), stream_(stream), finished_(states.size()) {}

    /// Run `index` is done: it and the done runs after it go out, once those before it have.
    void done(std::size_t index) {
        if (stream_ == nullptr) return;
        const std::lock_guard<std::mutex> lock(mutex_);
        finished_[index] = true;
        for (; next_ < states_.size() && finished_[next_]; ++next_) stream_->rows(states_[next_]->take_rows());
    }

private:
    const std::vector<std::unique_ptr<RunState>>& states_;
    const ReportStream* stream_;
    std::mutex mutex_;
    std::vector<bool> finished_;
    std::size_t next_ = 0;
};

struct Job {
    RunState* state = nullptr;
    std::size_t run = 0;  ///< the index of its request
    std::optional<std::size_t> policy;  ///< nullopt: the ground truth
};

ReportRow run_row(const RunState& s, const std::string& policy) {
    return {s.request->run_id, s.request->workload->name(), policy, metric::whole_run_kind, 0, "", "", 0};
}

/// A policy's closing rows: its time and its work.
void append_policy_totals(const RunState& s, const PrecisionPolicy& policy, double seconds,
                          std::vector<ReportRow>& rows) {
    const RunRequest& r = *s.request;
    rows.push_back(with_metric(run_row(s, policy.name), metric::seconds, seconds));
    if (const std::optional<core::WorkloadCounts> work = r.workload->work(r.parameters, policy)) {
        const std::vector<ReportRow> counted = work_rows(run_row(s, policy.name), *work);
        rows.insert(rows.end(), counted.begin(), counted.end());
    }
}

/// The result regions (result_regions) among a trace's regions.
std::set<RegionKey> trace_results(const RunRequest& r, const Trace& trace) {
    std::vector<RegionKey> regions;
    for (const TraceRegion& region : trace.regions())
        if (region.kind != metric::whole_run_kind && region.kind != metric::branch_kind)
            regions.emplace_back(region.kind, region.index);
    return result_regions(regions, r.workload->regions_are_results());
}

/// Per region of `trace`: whether it is measured in full (all are, but in a results-only run).
std::vector<bool> regions_measured(const RunRequest& r, const Trace& trace) {
    if (!r.results_only) return std::vector<bool>(trace.regions().size(), true);
    const std::set<RegionKey> results = trace_results(r, trace);
    std::vector<bool> measures;
    for (const TraceRegion& region : trace.regions()) measures.push_back(results.contains({region.kind, region.index}));
    return measures;
}

/// Measures every policy's region of the truth region's kind and index against it, and drops the
/// values of both. The truth's threads share the policies where there are as many, else each large
/// region's values (region_rows).
void measure_against(RunState& s, TruthRegion& truth) {
    const RunRequest& r = *s.request;
    const auto start = std::chrono::steady_clock::now();
    // Small regions are measured on this thread: starting threads would cost more than it saves.
    constexpr std::size_t worth_threads = 1 << 13;
    const bool share_policies = truth.numbers().size() * s.policy_runs.size() >= worth_threads &&
                                s.policy_runs.size() >= static_cast<std::size_t>(truth_threads());
    const auto measure = [&] {
        return [&](std::size_t begin, std::size_t end) {
            for (std::size_t p = begin; p < end; ++p) {
                PolicyRun& run = s.policy_runs[p];
                const auto found = run.position.find({truth.kind, truth.index});
                if (found == run.position.end()) continue;
                TraceRegion& region = run.trace.regions()[found->second];
                const ReportRow base{
                    r.run_id, r.workload->name(), r.policies[p].name, region.kind, region.index, region.label, "", 0};
                // Where the policy's control flow left the truth's, what the decision governs has no truth.
                run.region_rows[found->second] =
                    !run.measures[found->second]
                        ? unmeasured_region_rows(r.run_id, r.workload->name(), r.policies[p].name, region)
                    : region.kind == metric::branch_kind
                        ? run.divergence.branch_rows(base, region, truth)
                        : region_rows(r.run_id, r.workload->name(), r.policies[p].name, region,
                                      run.divergence.without_truth(region, &truth) ? nullptr : &truth);
                run.measured[found->second] = true;
                std::vector<double>().swap(region.values);
                std::vector<TruthNumber>().swap(region.wide_values);
            }
        };
    };
    if (share_policies)
        truth_parallel_rows(s.policy_runs.size(), measure);
    else
        measure()(0, s.policy_runs.size());
    std::vector<TruthNumber>().swap(truth.values);
    s.measuring_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The regions a kept truth keeps: the results among the regions of the run's first policy.
std::set<RegionKey> regions_to_keep(const RunState& s) {
    if (s.policy_runs.empty()) return {};
    return trace_results(*s.request, s.policy_runs.front().trace);
}

/// The ground truth, once its run's policies have run: each region measured as it is made (or as a
/// kept truth holds it).
void run_truth(RunState& s, RunControl& control) {
    const RunRequest& r = *s.request;
    const auto start = std::chrono::steady_clock::now();
    KeptTruth* kept = r.kept_truth.get();
    const bool replayed = kept != nullptr && kept->filled;
    std::vector<ReportRow> metric_rows;
    if (replayed) {
        for (const TruthRegion& region : kept->regions) {
            TruthRegion copy = region;  // measuring drops the values
            measure_against(s, copy);
        }
        metric_rows = kept->rows;
    } else {
        std::set<RegionKey> keep;
        if (kept != nullptr) {
            keep = regions_to_keep(s);
            kept->regions.clear();
        }
        TruthTrace truth;
        truth.hand_regions_to([&](TruthRegion& region) {
            if (keep.contains({region.kind, region.index})) {
                // A region that borrows its values is kept with a copy: the workload's lives on only briefly.
                TruthRegion& copy = kept->regions.emplace_back(region);
                if (copy.values.empty()) copy.values.assign(region.borrowed.begin(), region.borrowed.end());
                copy.borrowed = {};
            }
            measure_against(s, region);
        });
        r.workload->run_ground_truth(r.parameters, r.mpfr_precision, truth, control);
        truth.finish();
        for (const TruthRegion& region : truth.regions())
            for (const RegionMetric& m : region.metrics)
                metric_rows.push_back(
                    {r.run_id, r.workload->name(), truth_policy, region.kind, region.index, region.label, m.name, m.value});
        if (kept != nullptr) {
            kept->rows = metric_rows;
            kept->filled = !keep.empty();
        }
    }
    // The truth's own time: the policies' measures, made meanwhile, are not the truth's cost.
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    for (ReportRow& row : metric_rows) {
        row.run = r.run_id;
        s.truth_rows.push_back(std::move(row));
    }
    ReportRow timing = run_row(s, truth_policy);
    s.truth_rows.push_back(with_metric(timing, metric::ground_truth_seconds, seconds.count() - s.measuring_seconds));
    for (std::size_t p = 0; p < s.policy_runs.size(); ++p) {
        PolicyRun& run = s.policy_runs[p];
        std::vector<ReportRow>& rows = s.policy_rows[p];
        for (std::size_t i = 0; i < run.region_rows.size(); ++i) {
            const TraceRegion& region = run.trace.regions()[i];
            // A region the truth lacks is a workload's mistake, unless the policy's control flow went
            // where the truth's did not (the other branch of an If), or the truth is a kept one that
            // holds only the results: then it is measured alone.
            if (!run.measured[i] && run.measures[i] && !replayed && !run.divergence.any())
                throw Error(
                    fmt::format("workload '{}': policy '{}' recorded region {} {} ('{}'), which its ground "
                                "truth does not have",
                                r.workload->name(), r.policies[p].name, region.kind, region.index, region.label));
            if (!run.measured[i]) {
                const ReportRow base{
                    r.run_id, r.workload->name(), r.policies[p].name, region.kind, region.index, region.label, "", 0};
                run.region_rows[i] =
                    !run.measures[i] ? unmeasured_region_rows(r.run_id, r.workload->name(), r.policies[p].name, region)
                    : region.kind == metric::branch_kind
                        ? ControlDivergence::branch_rows_alone(base, region)
                        : region_rows(r.run_id, r.workload->name(), r.policies[p].name, region, nullptr);
            }
            rows.insert(rows.end(), std::make_move_iterator(run.region_rows[i].begin()),
                        std::make_move_iterator(run.region_rows[i].end()));
        }
        if (run.divergence.compared())
            rows.push_back(
                with_metric(run_row(s, r.policies[p].name), metric::branch_divergence, run.divergence.total()));
        append_policy_totals(s, r.policies[p], run.seconds, rows);
        run = PolicyRun{};
    }
}

/// Runs policy `index`: measured at once without a truth, kept for the truth's measures with one.
void run_policy(RunState& s, std::size_t index, RunControl& control) {
    const RunRequest& r = *s.request;
    const PrecisionPolicy& policy = r.policies[index];
    const auto start = std::chrono::steady_clock::now();
    Trace trace;
    r.workload->run(r.parameters, policy, trace, control);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    const std::vector<bool> measures = regions_measured(r, trace);
    if (s.with_truth) {
        PolicyRun& run = s.policy_runs[index];
        const std::size_t regions = trace.regions().size();
        for (std::size_t i = 0; i < regions; ++i)
            run.position.emplace(std::pair{trace.regions()[i].kind, trace.regions()[i].index}, i);
        run.region_rows.resize(regions);
        run.measured.assign(regions, false);
        run.measures = measures;
        run.trace = std::move(trace);
        run.seconds = seconds.count();
        return;
    }
    std::vector<ReportRow>& rows = s.policy_rows[index];
    for (std::size_t i = 0; i < trace.regions().size(); ++i) {
        const TraceRegion& region = trace.regions()[i];
        const ReportRow base{r.run_id, r.workload->name(), policy.name, region.kind, region.index, region.label, "", 0};
        std::vector<ReportRow> measured = !measures[i] ? unmeasured_region_rows(r.run_id, r.workload->name(), policy.name, region)
                                          : region.kind == metric::branch_kind
                                              ? ControlDivergence::branch_rows_alone(base, region)
                                              : region_rows(r.run_id, r.workload->name(), policy.name, region, nullptr);
        rows.insert(rows.end(), measured.begin(), measured.end());
    }
    append_policy_totals(s, policy, seconds.count(), rows);
}

}  // namespace

std::optional<std::string> policy_refusal(const Workload& workload, const PrecisionPolicy& policy) {
    // A clause the workload would ignore must not pass silently.
    if (policy.has_graph_clauses() && !workload.reads_graph_policy())
        return fmt::format(
            "ops, nodes, autocast and weights clauses select the nodes of a graph; workload '{}' has "
            "none (they apply to onnx)",
            workload.name());
    return std::nullopt;
}

namespace {

void check_request(const RunRequest& r) {
    if (r.workload == nullptr) throw Error("no workload given");
    if (r.policies.empty()) throw Error("workload '" + r.workload->name() + "': no precision policy given");
    std::map<std::string, int> names;
    for (const PrecisionPolicy& p : r.policies) {
        if (++names[p.name] == 2)
            throw Error("two policies are named '" + p.name + "'; give one another name (name=... in the policy)");
        if (const std::optional<std::string> refusal = policy_refusal(*r.workload, p))
            throw Error(fmt::format("policy '{}': {}", p.name, *refusal));
    }
    if (r.ground_truth && r.workload->has_ground_truth() && r.mpfr_precision != 0 &&
        (r.mpfr_precision < min_mpfr_precision || r.mpfr_precision > max_mpfr_precision))
        throw Error(fmt::format("MPFR precision {} bits: valid {}..{}", r.mpfr_precision, min_mpfr_precision,
                                max_mpfr_precision));
}

}  // namespace

RunInfo run_info(const RunRequest& r) {
    RunInfo info{r.run_id, r.workload->name(), r.parameters.values(), {}, 0};  // 0: no truth is run
    if (r.ground_truth && r.workload->has_ground_truth())
        info.mpfr_precision = chosen_truth_precision(r.mpfr_precision, r.policies);
    for (const PrecisionPolicy& p : r.policies) info.policies.emplace_back(p.name, p.describe());
    return info;
}

std::vector<ReportRow> work_rows(const ReportRow& base, const core::WorkloadCounts& work) {
    std::vector<ReportRow> rows;
    for (const auto& [format, operations] : work.operations)
        rows.push_back(with_metric(base, metric::work_operations_prefix + format, operations));
    rows.push_back(with_metric(base, metric::work_dram_bytes, work.dram_bytes));
    rows.push_back(with_metric(base, metric::work_resident_bytes, work.resident_bytes));
    return rows;
}

std::optional<core::WorkloadCounts> read_work(const Report& report, const std::string& run, const std::string& policy) {
    std::optional<core::WorkloadCounts> work;
    for (const ReportRow& row : report.rows) {
        if (row.run != run || row.policy != policy || row.region_kind != metric::whole_run_kind) continue;
        const std::string_view name = row.metric;
        if (!name.starts_with(metric::work_prefix)) continue;
        if (!work) work.emplace();
        if (const std::string_view prefix = metric::work_operations_prefix; name.starts_with(prefix))
            work->operations[std::string(name.substr(prefix.size()))] = row.value;
        else if (name == metric::work_dram_bytes)
            work->dram_bytes = row.value;
        else if (name == metric::work_resident_bytes)
            work->resident_bytes = row.value;
    }
    return work;
}

bool is_measured_metric(const std::string& name) {
    const metric::MetricDefinition* definition = metric::find_definition(name);
    return definition != nullptr && definition->source == metric::MetricSource::Engine;
}

Report run_all(const std::vector<RunRequest>& asked, int threads, RunControl& control, const ReportStream* stream) {
    if (threads < 1) throw Error(fmt::format("threads {}: give at least 1", threads));
    // The requests with their truths' precisions chosen (truth_precision.hpp).
    std::vector<RunRequest> requests(asked);
    for (RunRequest& r : requests) {
        check_request(r);
        if (r.ground_truth && r.workload->has_ground_truth())
            r.mpfr_precision = chosen_truth_precision(r.mpfr_precision, r.policies);
    }

    Report report;
    report.floatscope_version = FLOATSCOPE_VERSION;
    report.created = iso_utc_now();
    std::vector<std::unique_ptr<RunState>> states;
    std::vector<Job> jobs;
    int precision = 0;
    for (const RunRequest& r : requests) {
        auto s = std::make_unique<RunState>();
        s->request = &r;
        report.runs.push_back(run_info(r));
        s->with_truth = report.runs.back().mpfr_precision > 0;
        const MemoryEstimate stated = memory_estimate(r);
        s->policy_bytes = static_cast<std::uint64_t>(stated.policy);
        if (s->with_truth) s->truth_bytes = static_cast<std::uint64_t>(stated.truth);
        s->policy_rows.resize(r.policies.size());
        s->policy_runs.resize(s->with_truth ? r.policies.size() : 0);
        s->policies_left = r.policies.size();
        for (std::size_t p = 0; p < r.policies.size(); ++p) jobs.push_back({s.get(), states.size(), p});
        // The truth comes after its policies in the queue: it waits for them, and they for nothing.
        if (s->with_truth) {
            jobs.push_back({s.get(), states.size(), std::nullopt});
            precision = std::max(precision, r.mpfr_precision);
        }
        states.push_back(std::move(s));
    }

    if (stream != nullptr) stream->begin(report);
    RowHandOver hand_over(states, stream);

    // Boost keeps one process-wide default precision: set before any thread creates a TruthNumber.
    std::optional<TruthPrecisionScope> precision_scope;
    if (precision > 0) precision_scope.emplace(precision);

    RunControl batch(control, 0, 1, "");
    // Jobs run at once on the threads: one fraction over them all, which never goes back. Each job's
    // share is the work it declares (job_work.hpp): a truth costs several times its policies.
    std::vector<double> shares;
    for (const Job& job : jobs) {
        const RunRequest& r = *job.state->request;
        shares.push_back(job.policy ? policy_work(r, r.policies[*job.policy])
                                    : truth_work(r, r.workload->truth_time_ratio()));
    }
    ConcurrentProgress progress(batch, std::move(shares));
    // One limit for the process: jobs on several threads wait rather than hold more together.
    MemoryAdmission admission(core::memory_limit());
    std::atomic<std::size_t> next_job{0};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    const bool several_runs = requests.size() > 1;
    const std::size_t thread_count = std::min<std::size_t>(static_cast<std::size_t>(threads), jobs.size());
    // A run's truth starts once its policies (quick beside it) are done: with few truths in the
    // batch, each spreads its big kernels and its measures over the threads, so that the threads
    // asked for are used; with many, the jobs alone fill them.
    const std::size_t truths =
        static_cast<std::size_t>(std::count_if(jobs.begin(), jobs.end(), [](const Job& job) { return !job.policy; }));
    const int threads_per_truth =
        static_cast<int>(std::max<std::size_t>(1, thread_count / std::max<std::size_t>(truths, 1)));
    auto worker = [&] {
        const ThreadCacheRelease release;  // a truth on a pool thread leaves MPFR's caches on it
        for (std::size_t j; (j = next_job.fetch_add(1)) < jobs.size();) {
            RunState& s = *jobs[j].state;
            const std::size_t run = jobs[j].run;
            // Every ticket is admitted once, in order, before anything here can throw.
            admission.admit(j, jobs[j].policy ? s.policy_bytes : s.truth_bytes, run);
            const std::string what = jobs[j].policy ? s.request->policies[*jobs[j].policy].name : "ground truth";
            const std::string label = several_runs ? "run " + s.request->run_id + ", " + what : what;
            RunControl job_control(batch, [&progress, j, label](double fraction, const std::string& message) {
                progress.report(j, fraction, label + ": " + message);
            });
            try {
                if (jobs[j].policy && s.with_truth) {
                    // The truth waits for this job: every way out of here must count it finished.
                    try {
                        job_control.check_cancelled();
                        run_policy(s, *jobs[j].policy, job_control);
                    } catch (...) {
                        s.policy_finished();
                        throw;
                    }
                    admission.park(s.policy_bytes, run);  // its trace, until the truth has measured it
                    s.policy_finished();
                } else if (jobs[j].policy) {
                    job_control.check_cancelled();
                    run_policy(s, *jobs[j].policy, job_control);
                    admission.release(s.policy_bytes, run);
                    if (--s.policies_left == 0) hand_over.done(run);
                } else {
                    s.wait_for_policies();
                    job_control.check_cancelled();  // a policy failed: the batch is cancelled
                    {
                        const TruthThreadsScope spread(threads_per_truth);
                        run_truth(s, job_control);
                    }
                    admission.release(s.truth_bytes + s.policy_bytes * s.request->policies.size(), run);
                    hand_over.done(run);
                }
                // Its whole share, whatever its last checkpoint said (a workload reports before each step).
                progress.report(j, 1, label + ": done");
            } catch (...) {
                {
                    const std::lock_guard<std::mutex> lock(failure_mutex);
                    if (!failure) failure = std::current_exception();
                }
                batch.request_cancel();  // the others stop at their next checkpoint
                admission.open();  // and must not wait for memory to get there
            }
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < thread_count; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);

    if (stream != nullptr) return report;
    for (const auto& s : states) {
        std::vector<ReportRow> rows = s->take_rows();
        report.rows.insert(report.rows.end(), std::make_move_iterator(rows.begin()),
                           std::make_move_iterator(rows.end()));
    }
    return report;
}

Report run(const RunRequest& request, RunControl& control) { return run_all({request}, request.threads, control); }

}  // namespace floatscope::emu
