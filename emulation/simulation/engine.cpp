// Engine: the runs of a request (ground truth and policies) as jobs on threads, and the measurement
// of every emulated region against its ground truth.
#include "emulation/simulation/engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format_properties.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"

#ifndef FLOATSCOPE_VERSION
#error "FLOATSCOPE_VERSION is defined by emulation/CMakeLists.txt from the project version"
#endif

namespace floatscope::emu {

namespace {

constexpr const char* truth_policy = "ground-truth";
/// Bits correct of an exact result: more than any supported format holds, so "exact" reads as such.
constexpr double exact_bits = 64;
constexpr int min_mpfr_precision = 53;  // to_truth holds doubles exactly only from 53 bits on
constexpr int max_mpfr_precision = 1 << 16;

/// max, mean and median of a list of non-negative errors.
struct Statistics {
    std::vector<double> values;

    double max() const { return *std::max_element(values.begin(), values.end()); }
    double min() const { return *std::min_element(values.begin(), values.end()); }
    double mean() const {
        double sum = 0;
        for (double v : values) sum += v;
        return sum / static_cast<double>(values.size());
    }
    double median() {
        const std::size_t n = values.size(), half = n / 2;
        std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half), values.end());
        const double upper = values[half];
        if (n % 2 == 1) return upper;
        const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half));
        return lower / 2 + upper / 2;
    }
};

/// A TruthNumber of `bits` bits (operations on it round to that precision).
TruthNumber scratch(int bits) {
    TruthNumber x;
    mpfr_set_prec(x.backend().data(), bits);
    return x;
}

/// The spacing of `format`'s values at the real number `t` (a finite MPFR value): 2^(max(e, emin) - M)
/// for binary and scale formats with e = floor(log2 |t|) (unbounded above, so that a value beyond
/// max still has a spacing), 1 for integers, the gap between the table codes around t for tables.
double ulp_at(const core::FormatSpec& format, mpfr_srcptr t) {
    switch (format.kind) {
        case core::FormatKind::Binary:
        case core::FormatKind::ExponentScale: {
            const core::BinaryGeometry g = core::binary_geometry(format);
            // MPFR's exponent: |t| = m 2^exp with 1/2 <= m < 1, so floor(log2 |t|) = exp - 1.
            const long e = mpfr_zero_p(t) ? g.emin : std::max<long>(mpfr_get_exp(t) - 1, g.emin);
            return std::ldexp(1.0, static_cast<int>(e - (g.precision - 1)));
        }
        case core::FormatKind::Integer: return 1;
        case core::FormatKind::Lookup: {
            const std::vector<double>& codes = format.code_values;
            if (codes.size() < 2) return NAN;
            const double x = mpfr_get_d(t, MPFR_RNDN);
            const std::size_t above =
                static_cast<std::size_t>(std::upper_bound(codes.begin(), codes.end(), x) - codes.begin());
            const std::size_t i = std::clamp<std::size_t>(above, 1, codes.size() - 1);
            return codes[i] - codes[i - 1];
        }
    }
    return NAN;
}

void add_row(std::vector<ReportRow>& rows, const ReportRow& base, const std::string& name, double value) {
    ReportRow row = base;
    row.metric = name;
    row.value = value;
    rows.push_back(std::move(row));
}

/// The rows of a counted quantity: its count and, over `total`, its fraction.
void add_count(std::vector<ReportRow>& rows, const ReportRow& base, const char* count_metric,
               const char* fraction_metric, std::uint64_t count, std::uint64_t total) {
    add_row(rows, base, count_metric, static_cast<double>(count));
    add_row(rows, base, fraction_metric, static_cast<double>(count) / static_cast<double>(total));
}

void add_counter_rows(std::vector<ReportRow>& rows, const ReportRow& base, const OperationCounters& c) {
    if (c == OperationCounters{}) return;
    add_row(rows, base, metric::op_count, static_cast<double>(c.operations));
    add_row(rows, base, metric::op_inexact, static_cast<double>(c.inexact));
    if (c.operations > 0)
        add_row(rows, base, metric::op_inexact_fraction,
                static_cast<double>(c.inexact) / static_cast<double>(c.operations));
    add_row(rows, base, metric::op_overflow, static_cast<double>(c.overflow));
    add_row(rows, base, metric::op_underflow, static_cast<double>(c.underflow));
    add_row(rows, base, metric::op_divide_by_zero, static_cast<double>(c.divide_by_zero));
    add_row(rows, base, metric::op_invalid, static_cast<double>(c.invalid));
    add_row(rows, base, metric::op_nan, static_cast<double>(c.nan_results));
    add_row(rows, base, metric::op_inf, static_cast<double>(c.infinite_results));
    add_row(rows, base, metric::op_zero, static_cast<double>(c.zero_results));
}

// ---- jobs ----------------------------------------------------------------------------------

/// One request of a batch while it runs: its ground truth (shared by its policies, released when the
/// last of them is measured) and the rows of each policy.
struct RunState {
    const RunRequest* request = nullptr;
    bool with_truth = false;
    std::optional<TruthTrace> truth;
    std::promise<void> truth_promise;
    std::shared_future<void> truth_ready = truth_promise.get_future().share();
    std::vector<ReportRow> truth_rows;
    std::vector<std::vector<ReportRow>> policy_rows;
    std::atomic<std::size_t> policies_left{0};
};

struct Job {
    RunState* state = nullptr;
    std::optional<std::size_t> policy;  ///< nullopt: the ground truth
};

ReportRow run_row(const RunState& s, const std::string& policy) {
    return {s.request->run_id, s.request->workload->name(), policy, metric::whole_run_kind, 0, "", "", 0};
}

void run_truth(RunState& s, RunControl& control) {
    const RunRequest& r = *s.request;
    const auto start = std::chrono::steady_clock::now();
    s.truth.emplace();
    r.workload->run_ground_truth(r.parameters, r.mpfr_precision, *s.truth, control);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    for (const TruthRegion& region : s.truth->regions())
        for (const RegionMetric& m : region.metrics)
            s.truth_rows.push_back(
                {r.run_id, r.workload->name(), truth_policy, region.kind, region.index, region.label, m.name, m.value});
    ReportRow timing = run_row(s, truth_policy);
    add_row(s.truth_rows, timing, metric::ground_truth_seconds, seconds.count());
}

void run_policy(RunState& s, std::size_t index, RunControl& control) {
    const RunRequest& r = *s.request;
    const PrecisionPolicy& policy = r.policies[index];
    const auto start = std::chrono::steady_clock::now();
    Trace trace;
    r.workload->run(r.parameters, policy, trace, control);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    s.truth_ready.get();  // rethrows the ground truth's failure
    std::vector<ReportRow>& rows = s.policy_rows[index];
    for (const TraceRegion& region : trace.regions()) {
        const TruthRegion* truth = nullptr;
        if (s.with_truth) {
            truth = s.truth->find(region.kind, region.index);
            if (truth == nullptr)
                throw Error(
                    fmt::format("workload '{}': policy '{}' recorded region {} {} ('{}'), which its ground "
                                "truth does not have",
                                r.workload->name(), policy.name, region.kind, region.index, region.label));
        }
        std::vector<ReportRow> measured = region_rows(r.run_id, r.workload->name(), policy.name, region, truth);
        rows.insert(rows.end(), measured.begin(), measured.end());
    }
    add_row(rows, run_row(s, policy.name), metric::seconds, seconds.count());
    if (const std::optional<core::WorkloadCounts> work = r.workload->work(r.parameters, policy)) {
        const std::vector<ReportRow> counted = work_rows(run_row(s, policy.name), *work);
        rows.insert(rows.end(), counted.begin(), counted.end());
    }
}

void check_request(const RunRequest& r) {
    if (r.workload == nullptr) throw Error("no workload given");
    if (r.policies.empty()) throw Error("workload '" + r.workload->name() + "': no precision policy given");
    std::map<std::string, int> names;
    for (const PrecisionPolicy& p : r.policies)
        if (++names[p.name] == 2)
            throw Error("two policies are named '" + p.name + "'; give one another name (name=... in the policy)");
    if (r.ground_truth && r.workload->has_ground_truth() &&
        (r.mpfr_precision < min_mpfr_precision || r.mpfr_precision > max_mpfr_precision))
        throw Error(fmt::format("MPFR precision {} bits: valid {}..{}", r.mpfr_precision, min_mpfr_precision,
                                max_mpfr_precision));
    r.workload->check(r.parameters);
}

RunInfo run_info(const RunRequest& r, bool with_truth) {
    RunInfo info{r.run_id, r.workload->name(), r.parameters.values(), {}, with_truth ? r.mpfr_precision : 0};
    for (const PrecisionPolicy& p : r.policies) info.policies.emplace_back(p.name, p.describe());
    return info;
}

}  // namespace

std::vector<ReportRow> work_rows(const ReportRow& base, const core::WorkloadCounts& work) {
    std::vector<ReportRow> rows;
    for (const auto& [format, operations] : work.operations)
        add_row(rows, base, metric::work_operations_prefix + format, operations);
    add_row(rows, base, metric::work_dram_bytes, work.dram_bytes);
    add_row(rows, base, metric::work_resident_bytes, work.resident_bytes);
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

std::vector<ReportRow> region_rows(const std::string& run_id, const std::string& workload, const std::string& policy,
                                   const TraceRegion& region, const TruthRegion* truth) {
    if (truth != nullptr && truth->values.size() != region.values.size())
        throw Error(fmt::format(
            "workload '{}', region {} {} ('{}'): policy '{}' recorded {} values, the ground truth {}", workload,
            region.kind, region.index, region.label, policy, region.values.size(), truth->values.size()));
    std::vector<ReportRow> rows;
    const ReportRow base{run_id, workload, policy, region.kind, region.index, region.label, "", 0};
    if (!region.values.empty()) {
        const core::FormatProperties format = core::format_properties(region.format);
        const bool has_subnormals = region.format.kind == core::FormatKind::Binary && format.has_subnormals;
        std::uint64_t nan = 0, inf = 0, subnormal = 0, overflow = 0, underflow = 0;
        double min_abs = INFINITY, max_abs = 0;
        std::map<int, std::uint64_t> histogram;
        Statistics abs_error, rel_error, ulp_error, bits_correct;
        TruthNumber format_max = scratch(min_mpfr_precision), difference = scratch(min_mpfr_precision),
                    relative = scratch(min_mpfr_precision);
        mpfr_set_d(format_max.backend().data(), format.max_finite, MPFR_RNDN);
        for (std::size_t i = 0; i < region.values.size(); ++i) {
            const double x = region.values[i];
            nan += std::isnan(x);
            inf += std::isinf(x);
            if (std::isfinite(x) && x != 0) {
                min_abs = std::min(min_abs, std::abs(x));
                max_abs = std::max(max_abs, std::abs(x));
                ++histogram[std::ilogb(x)];  // floor(log2 |x|), exact for every double
                subnormal += has_subnormals && std::abs(x) < format.min_normal;
            }
            if (truth == nullptr) continue;
            mpfr_srcptr t = truth->values[i].backend().data();
            if (mpfr_nan_p(t)) continue;
            const bool truth_beyond_max = mpfr_cmpabs(t, format_max.backend().data()) > 0;
            overflow += truth_beyond_max && (!std::isfinite(x) || std::abs(x) == format.max_finite);
            underflow += x == 0 && !mpfr_zero_p(t);
            if (!std::isfinite(x) || mpfr_inf_p(t)) {
                // Agreeing infinities are exact; any other non-finite pair (NaN or inf for a finite truth,
                // a finite result for an infinite truth) is an unbounded error, never a silent gap.
                const bool agree = std::isinf(x) && mpfr_inf_p(t) && (x > 0) == (mpfr_sgn(t) > 0);
                const double error = agree ? 0.0 : INFINITY;
                abs_error.values.push_back(error);
                ulp_error.values.push_back(error);
                rel_error.values.push_back(error);
                bits_correct.values.push_back(agree ? exact_bits : 0.0);
                continue;
            }
            // |x - t| rounded once to double precision; the ratios below round once more.
            mpfr_sub_d(difference.backend().data(), t, x, MPFR_RNDN);
            mpfr_abs(difference.backend().data(), difference.backend().data(), MPFR_RNDN);
            abs_error.values.push_back(mpfr_get_d(difference.backend().data(), MPFR_RNDN));
            ulp_error.values.push_back(abs_error.values.back() / ulp_at(region.format, t));
            if (mpfr_zero_p(t)) continue;
            mpfr_div(relative.backend().data(), difference.backend().data(), t, MPFR_RNDN);
            const double rel = std::abs(mpfr_get_d(relative.backend().data(), MPFR_RNDN));
            rel_error.values.push_back(rel);
            bits_correct.values.push_back(rel == 0 ? exact_bits : std::clamp(-std::log2(rel), 0.0, exact_bits));
        }
        const std::uint64_t n = region.values.size();
        add_row(rows, base, metric::value_count, static_cast<double>(n));
        if (truth != nullptr) {
            add_row(rows, base, metric::compared_count, static_cast<double>(abs_error.values.size()));
            if (!abs_error.values.empty()) {
                add_row(rows, base, metric::abs_error_max, abs_error.max());
                add_row(rows, base, metric::abs_error_mean, abs_error.mean());
                add_row(rows, base, metric::abs_error_median, abs_error.median());
            }
            if (!rel_error.values.empty()) {
                add_row(rows, base, metric::rel_error_max, rel_error.max());
                add_row(rows, base, metric::rel_error_mean, rel_error.mean());
                add_row(rows, base, metric::rel_error_median, rel_error.median());
            }
            if (!ulp_error.values.empty()) {
                add_row(rows, base, metric::ulp_error_max, ulp_error.max());
                add_row(rows, base, metric::ulp_error_mean, ulp_error.mean());
            }
            if (!bits_correct.values.empty()) {
                add_row(rows, base, metric::bits_correct_min, bits_correct.min());
                add_row(rows, base, metric::bits_correct_mean, bits_correct.mean());
            }
            add_count(rows, base, metric::overflow_count, metric::overflow_fraction, overflow, n);
            add_count(rows, base, metric::underflow_to_zero_count, metric::underflow_to_zero_fraction, underflow, n);
        }
        add_count(rows, base, metric::subnormal_count, metric::subnormal_fraction, subnormal, n);
        add_count(rows, base, metric::nan_count, metric::nan_fraction, nan, n);
        add_count(rows, base, metric::inf_count, metric::inf_fraction, inf, n);
        add_counter_rows(rows, base, region.counters);
        if (max_abs > 0) {
            add_row(rows, base, metric::min_abs, min_abs);
            add_row(rows, base, metric::max_abs, max_abs);
        }
        add_row(rows, base, metric::format_max, format.max_finite);
        add_row(rows, base, metric::format_min_normal, format.min_normal);
        add_row(rows, base, metric::format_min_subnormal, format.min_subnormal);
        for (const auto& [exponent, count] : histogram)
            add_row(rows, base, metric::log2_hist_prefix + std::to_string(exponent), static_cast<double>(count));
    } else {
        add_counter_rows(rows, base, region.counters);
    }
    for (const RegionMetric& m : region.metrics) add_row(rows, base, m.name, m.value);
    return rows;
}

Report run_all(const std::vector<RunRequest>& requests, int threads, RunControl& control) {
    if (threads < 1) throw Error(fmt::format("threads {}: give at least 1", threads));
    for (const RunRequest& r : requests) check_request(r);

    Report report;
    report.floatscope_version = FLOATSCOPE_VERSION;
    report.created = iso_utc_now();
    std::vector<std::unique_ptr<RunState>> states;
    std::vector<Job> jobs;
    int precision = 0;
    for (const RunRequest& r : requests) {
        auto s = std::make_unique<RunState>();
        s->request = &r;
        s->with_truth = r.ground_truth && r.workload->has_ground_truth();
        s->policy_rows.resize(r.policies.size());
        s->policies_left = r.policies.size();
        // The truth comes first in the queue, so a policy job waiting for it never waits for a job not started.
        if (s->with_truth) {
            jobs.push_back({s.get(), std::nullopt});
            precision = std::max(precision, r.mpfr_precision);
        } else {
            s->truth_promise.set_value();
        }
        for (std::size_t p = 0; p < r.policies.size(); ++p) jobs.push_back({s.get(), p});
        report.runs.push_back(run_info(r, s->with_truth));
        states.push_back(std::move(s));
    }

    // Boost keeps one process-wide default precision: set before any thread creates a TruthNumber.
    std::optional<TruthPrecisionScope> precision_scope;
    if (precision > 0) precision_scope.emplace(precision);

    RunControl batch(control, 0, 1, "");
    std::atomic<std::size_t> next_job{0};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    const bool several_runs = requests.size() > 1;
    auto worker = [&] {
        for (std::size_t j; (j = next_job.fetch_add(1)) < jobs.size();) {
            RunState& s = *jobs[j].state;
            const std::string what = jobs[j].policy ? s.request->policies[*jobs[j].policy].name : "ground truth";
            const std::string label = several_runs ? "run " + s.request->run_id + ", " + what : what;
            const double size = 1.0 / static_cast<double>(jobs.size());
            RunControl job_control(batch, static_cast<double>(j) * size, static_cast<double>(j + 1) * size, label);
            try {
                if (jobs[j].policy) {
                    job_control.check_cancelled();
                    run_policy(s, *jobs[j].policy, job_control);
                    if (--s.policies_left == 0) s.truth.reset();
                } else {
                    // Policy jobs wait on the promise: every way out of here must fulfil it.
                    try {
                        job_control.check_cancelled();
                        run_truth(s, job_control);
                    } catch (...) {
                        s.truth_promise.set_exception(std::current_exception());
                        throw;
                    }
                    s.truth_promise.set_value();
                }
            } catch (...) {
                {
                    const std::lock_guard<std::mutex> lock(failure_mutex);
                    if (!failure) failure = std::current_exception();
                }
                batch.request_cancel();  // the others stop at their next checkpoint
            }
        }
    };
    const std::size_t thread_count = std::min<std::size_t>(static_cast<std::size_t>(threads), jobs.size());
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < thread_count; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);

    for (const auto& s : states) {
        report.rows.insert(report.rows.end(), s->truth_rows.begin(), s->truth_rows.end());
        for (const std::vector<ReportRow>& rows : s->policy_rows)
            report.rows.insert(report.rows.end(), rows.begin(), rows.end());
    }
    return report;
}

Report run(const RunRequest& request, RunControl& control) { return run_all({request}, request.threads, control); }

}  // namespace floatscope::emu
