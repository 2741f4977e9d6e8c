// Tests of emulation/simulation/engine: region measurement against hand-computed errors and counts, and runs of
// a small test-only workload (shared ground truth, threads, cancellation, failures).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/rounding.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

/// metric -> value of the rows of one policy and region (region_index -1: the "run" rows).
std::map<std::string, double> metrics_of(const std::vector<ReportRow>& rows, const std::string& policy,
                                         const std::string& kind, int index) {
    std::map<std::string, double> out;
    for (const ReportRow& r : rows)
        if (r.policy == policy && r.region_kind == kind && r.region_index == index) out[r.metric] = r.value;
    return out;
}

TruthRegion truth_of(const std::vector<double>& values) {
    TruthRegion t{"layer", 0, "layer 0", to_truth(values, 256), {}};
    return t;
}

/// A computation of n steps whose exact results are (k + 1) / 3, k = 0..n-1; each policy delivers them
/// rounded (from the nearest double) to its output format. `fail` selects one of the failures.
class StepsWorkload : public Workload {
public:
    std::string name() const override { return "steps"; }
    std::string summary() const override { return "(k + 1) / 3 for k < n"; }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"n", ParameterType::Integer, "3", 1, 8, {}, "steps"},
            {"fail",
             ParameterType::Choice,
             "none",
             0,
             0,
             {"none", "policy", "truth", "mismatch", "missing"},
             "failure"},
        };
        return schema;
    }
    void check(const Parameters& p) const override {
        if (p.integer("n") == 7) throw Error("n = 7 is refused by check");
    }
    void run(const Parameters& p, const PrecisionPolicy& policy, Trace& trace, RunControl& control) const override {
        const int n = static_cast<int>(p.integer("n"));
        for (int k = 0; k < n; ++k) {
            control.checkpoint(static_cast<double>(k) / n, "step " + std::to_string(k));
            if (p.text("fail") == "policy") throw Error("the steps workload failed");
            const core::FormatSpec& format = policy.at(Role::Output, k, n).format;
            TraceRegion& region = trace.add_region("step", k, "step " + std::to_string(k), format);
            const core::Rounded r = core::round_to_format(format, (k + 1) / 3.0);
            region.values = {r.value};
            region.counters.record(r);
            region.metrics.push_back({"k", static_cast<double>(k)});
        }
    }
    void run_ground_truth(const Parameters& p, int precision, TruthTrace& truth, RunControl& control) const override {
        ++truth_calls;
        threads_seen = truth_threads();
        const int n = static_cast<int>(p.integer("n"));
        if (p.text("fail") == "truth") throw Error("the steps ground truth failed");
        for (int k = 0; k < n; ++k) {
            control.checkpoint(static_cast<double>(k) / n, "truth step " + std::to_string(k));
            if (p.text("fail") == "missing" && k == n - 1) break;
            TruthRegion& region = truth.add_region("step", k, "step " + std::to_string(k));
            if (k > 0 && !truth.regions()[static_cast<std::size_t>(k - 1)].values.empty()) earlier_region_kept = true;
            TruthNumber x;
            mpfr_set_prec(x.backend().data(), precision);
            mpfr_set_ui(x.backend().data(), static_cast<unsigned long>(k + 1), MPFR_RNDN);
            mpfr_div_ui(x.backend().data(), x.backend().data(), 3, MPFR_RNDN);
            region.values = {x};
            if (p.text("fail") == "mismatch") region.values.push_back(x);
            region.metrics.push_back({"truth_k", static_cast<double>(k)});
        }
    }
    mutable std::atomic<int> truth_calls{0};
    mutable std::atomic<int> threads_seen{0};  ///< the exact kernels' threads in the last ground truth
    mutable std::atomic<bool> earlier_region_kept{false};  ///< a truth region held values past the next one
};

RunRequest request(const StepsWorkload& w, std::vector<std::string> set = {},
                   std::vector<const char*> policies = {"fp64", "fp32", "bf16"}) {
    RunRequest r;
    r.workload = &w;
    r.parameters = Parameters::parse(w.parameters(), set);
    for (const char* p : policies) r.policies.push_back(parse_policy(p));
    return r;
}

/// The rows without their timings, which differ from run to run.
std::vector<ReportRow> untimed(std::vector<ReportRow> rows) {
    for (ReportRow& r : rows)
        if (r.region_kind == "run") r.value = 0;
    return rows;
}

/// |v - (k+1)/3| / ((k+1)/3), in MPFR at 256 bits: the reference relative error of a delivered value.
double reference_rel_error(double v, int k) {
    mpfr_t exact, diff;
    mpfr_inits2(256, exact, diff, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_ui(exact, static_cast<unsigned long>(k + 1), MPFR_RNDN);
    mpfr_div_ui(exact, exact, 3, MPFR_RNDN);
    mpfr_sub_d(diff, exact, v, MPFR_RNDN);
    mpfr_div(diff, diff, exact, MPFR_RNDN);
    const double rel = std::abs(mpfr_get_d(diff, MPFR_RNDN));
    mpfr_clears(exact, diff, static_cast<mpfr_ptr>(nullptr));
    return rel;
}

}  // namespace

TEST_CASE("region_rows: errors, counts, range and histogram of an fp16 region, by hand") {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    TraceRegion region{"layer", 0, "layer 0", core::parse_format("fp16"), {}, {}, {}};
    // fp16 (IEEE 754 binary16): max 65504, min normal 2^-14, min subnormal 2^-24, 10 fraction bits.
    region.values = {1.0, 1.5, inf, 0.0, std::ldexp(1.0, -20), nan, 65504.0};
    const TruthRegion truth =
        truth_of({1.0, 1.25, 70000.0, std::ldexp(1.0, -26), std::ldexp(1.0, -20) + std::ldexp(1.0, -30), 1.0, 1e5});
    region.counters.operations = 10;
    region.counters.inexact = 4;
    region.counters.overflow = 1;
    region.metrics.push_back({"loss", 3.5});
    const std::vector<ReportRow> rows = region_rows("1", "w", "fp16", region, &truth);
    for (const ReportRow& row : rows) CHECK(is_measured_metric(row.metric) == (row.metric != "loss"));
    const auto m = metrics_of(rows, "fp16", "layer", 0);

    // Compared: every value with a non-NaN truth. 0: exact; 1: |1.5-1.25| = 0.25, rel 0.2, ulp(1.25) = 2^-10;
    // 2: inf for 70000 and 5: NaN for 1: unbounded errors (inf), 0 bits correct (an exact value has
    // all of fp16's 11);
    // 3: 2^-26 flushed to 0, rel 1, ulp below 2^-14 is 2^-24; 4: 2^-30 off, rel 1/1025, ulp 2^-24;
    // 6: 65504 for 1e5, 34496 off, rel 0.34496, ulp at 2^16 <= 1e5 < 2^17 is 2^6.
    const double unbounded = std::numeric_limits<double>::infinity();
    CHECK(m.at("value_count") == 7);
    CHECK(m.at("compared_count") == 7);
    CHECK(m.at("abs_error_max") == unbounded);
    CHECK(m.at("abs_error_mean") == unbounded);
    CHECK(m.at("abs_error_median") == 0.25);  // of 0, 2^-30, 2^-26, 0.25, 34496, inf, inf
    CHECK(m.at("rel_error_max") == unbounded);
    CHECK(m.at("rel_error_median") == Approx(0.34496));  // of 0, 1/1025, 0.2, 0.34496, 1, inf, inf
    CHECK(m.at("ulp_error_max") == unbounded);
    CHECK(m.at("bits_correct_min") == 0);
    CHECK(m.at("bits_correct_mean") == Approx((11 + std::log2(5.0) + 0 + std::log2(1025.0) - std::log2(0.34496)) / 7));
    // Overflow: inf for 70000 and 65504 for 1e5 (both at or beyond 65520, where fp16 rounds to inf);
    // underflow: the truths 2^-26 (flushed to 0) and 2^-20 + 2^-30 (subnormal 2^-20), both below 2^-14.
    CHECK(m.at("overflow_count") == 2);
    CHECK(m.at("overflow_fraction") == Approx(2.0 / 7));
    CHECK(m.at("underflow_count") == 2);
    CHECK(m.at("flushed_to_zero_count") == 1);
    CHECK(m.at("subnormal_result_count") == 1);
    CHECK(m.at("zeroed_count") == 0);
    // An inf and a NaN result: the normwise error is unbounded.
    CHECK(m.at("normwise_rel_error") == unbounded);
    CHECK(m.at("normwise_bits_correct") == 0);
    CHECK(m.at("exact") == 0);
    CHECK(m.at("subnormal_count") == 1);
    CHECK(m.at("nan_count") == 1);
    CHECK(m.at("inf_count") == 1);
    CHECK(m.at("inf_fraction") == Approx(1.0 / 7));
    CHECK(m.at("op_count") == 10);
    CHECK(m.at("op_inexact") == 4);
    CHECK(m.at("op_inexact_fraction") == 0.4);
    CHECK(m.at("op_overflow_flags") == 1);
    CHECK(m.at("op_nan") == 0);
    CHECK(m.at("min_abs") == std::ldexp(1.0, -20));
    CHECK(m.at("max_abs") == 65504);
    CHECK(m.at("format_max") == 65504);
    CHECK(m.at("format_min_normal") == std::ldexp(1.0, -14));
    CHECK(m.at("format_min_subnormal") == std::ldexp(1.0, -24));
    // floor(log2 |x|): 1 and 1.5 -> 0, 2^-20 -> -20, 65504 -> 15.
    CHECK(m.at("log2_hist_0") == 2);
    CHECK(m.at("log2_hist_-20") == 1);
    CHECK(m.at("log2_hist_15") == 1);
    CHECK(m.at("loss") == 3.5);
    std::size_t histogram_rows = 0;
    for (const auto& [name, value] : m) histogram_rows += name.rfind("log2_hist_", 0) == 0;
    CHECK(histogram_rows == 3);
}

TEST_CASE("region_rows without truth: the value-based rows only") {
    TraceRegion region{"layer", 2, "layer 2", core::parse_format("bf16"), {0.0, -3.0, 0.5}, {}, {}};
    const auto m = metrics_of(region_rows("1", "w", "bf16", region, nullptr), "bf16", "layer", 2);
    CHECK(m.count("rel_error_max") == 0);
    CHECK(m.count("overflow_count") == 0);
    CHECK(m.count("underflow_count") == 0);
    CHECK(m.count("normwise_rel_error") == 0);
    CHECK(m.count("op_count") == 0);  // no counted operations
    CHECK(m.at("value_count") == 3);
    CHECK(m.at("nan_count") == 0);
    CHECK(m.at("min_abs") == 0.5);
    CHECK(m.at("max_abs") == 3);
    CHECK(m.at("log2_hist_1") == 1);
    CHECK(m.at("log2_hist_-1") == 1);
    // bf16: max (2 - 2^-7) 2^127, min normal 2^-126, min subnormal 2^-133.
    CHECK(m.at("format_max") == std::ldexp(2 - std::ldexp(1.0, -7), 127));
    CHECK(m.at("format_min_subnormal") == std::ldexp(1.0, -133));
}

TEST_CASE("region_rows: a region of metrics only, and a truth of another length") {
    TraceRegion metrics_only{"epoch", 0, "epoch 0", core::parse_format("fp32"), {}, {}, {{"loss", 0.5}}};
    const std::vector<ReportRow> rows = region_rows("1", "w", "p", metrics_only, nullptr);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0] == ReportRow{"1", "w", "p", "epoch", 0, "epoch 0", "loss", 0.5});

    TraceRegion region{"layer", 0, "layer 0", core::parse_format("fp16"), {1.0, 2.0}, {}, {}};
    const TruthRegion truth = truth_of({1.0});
    CHECK_THROWS_WITH(region_rows("1", "w", "fp16", region, &truth),
                      "workload 'w', region layer 0 ('layer 0'): policy 'fp16' recorded 2 values, the ground truth 1");
}

TEST_CASE("run: one shared ground truth, errors against it, metadata and timings") {
    StepsWorkload w;
    RunRequest r = request(w);
    r.threads = 3;
    RunControl control;
    const Report report = run(r, control);
    CHECK(w.truth_calls == 1);
    CHECK(report.floatscope_version == "0.1.0");
    REQUIRE(report.runs.size() == 1);
    const RunInfo expected_info{
        "1", "steps", {{"n", "3"}, {"fail", "none"}}, {{"fp64", "fp64"}, {"fp32", "fp32"}, {"bf16", "bf16"}}, 256};
    CHECK(report.runs[0] == expected_info);

    // fp64: 1/3 is d = 6004799503160661 2^-54 = (1 - 2^-54) / 3, 2^-54 / 3 below: relative error
    // 2^-54 (1 - 2^-54), a third of an ulp (2^-54 at 1/3); 3/3 is exact.
    const auto step0 = metrics_of(report.rows, "fp64", "step", 0);
    CHECK(step0.at("rel_error_max") == Approx(std::ldexp(1.0, -54)).epsilon(1e-15));
    CHECK(step0.at("ulp_error_max") == Approx(1.0 / 3.0).epsilon(1e-15));
    CHECK(step0.at("bits_correct_min") == 53);  // -log2 of 2^-54 is 54, clamped to binary64's 53 bits
    CHECK(step0.at("k") == 0);
    CHECK(step0.at("op_count") == 1);
    CHECK(step0.at("op_inexact") == 0);  // the double is an fp64 value
    CHECK(metrics_of(report.rows, "fp32", "step", 0).at("op_inexact") == 1);
    CHECK(metrics_of(report.rows, "fp64", "step", 2).at("bits_correct_min") == 53);  // exact: all 53 bits
    CHECK(metrics_of(report.rows, "fp64", "step", 2).at("normwise_bits_correct") == 53);
    CHECK(metrics_of(report.rows, "fp64", "step", 2).at("exact") == 1);
    CHECK(metrics_of(report.rows, "fp64", "step", 2).at("rel_error_max") == 0);

    // fp32: the hardware's conversion of the double, against (k+1)/3 in MPFR.
    for (int k = 0; k < 3; ++k) {
        const double f = static_cast<float>((k + 1) / 3.0);
        CHECK(metrics_of(report.rows, "fp32", "step", k).at("rel_error_max") ==
              Approx(reference_rel_error(f, k)).epsilon(1e-12));
    }
    CHECK(metrics_of(report.rows, "ground-truth", "step", 1).at("truth_k") == 1);
    for (const char* policy : {"fp64", "fp32", "bf16"})
        CHECK(metrics_of(report.rows, policy, "run", 0).count("seconds") == 1);
    CHECK(metrics_of(report.rows, "ground-truth", "run", 0).count("ground_truth_seconds") == 1);
    // Row order: the ground truth, then the policies in request order.
    CHECK(report.rows.front().policy == "ground-truth");
    CHECK(report.rows.back().policy == "bf16");
}

TEST_CASE("run: a workload's work counts become whole-run rows and read back") {
    const floatscope::emu::Workload& gemm = floatscope::emu::find_workload("gemm");
    RunRequest r;
    r.workload = &gemm;
    r.parameters = Parameters::parse(gemm.parameters(), {"m=8", "n=4", "k=16,32"});
    r.policies = {floatscope::emu::parse_policy("bf16; accumulate=fp32; output=fp32")};
    r.ground_truth = false;
    RunControl control;
    const Report report = run(r, control);
    const auto counted = metrics_of(report.rows, r.policies[0].name, "run", 0);
    // 2 m n k per product, in bf16 (the operands' format); A and B in bf16 (2 bytes), C in fp32.
    CHECK(counted.at("work_operations_bf16") == 2 * 8 * 4 * (16 + 32));
    CHECK(counted.at("work_dram_bytes") == (8 * 16 + 16 * 4) * 2 + 8 * 4 * 4 + (8 * 32 + 32 * 4) * 2 + 8 * 4 * 4);
    CHECK(counted.at("work_resident_bytes") == (8 * 32 + 32 * 4) * 2 + 8 * 4 * 4);
    const auto work = floatscope::emu::read_work(report, "1", r.policies[0].name);
    REQUIRE(work.has_value());
    CHECK(work->operations.at("bf16") == 2 * 8 * 4 * (16 + 32));
    CHECK(work->dram_bytes == counted.at("work_dram_bytes"));
    CHECK_FALSE(floatscope::emu::read_work(report, "1", "no-such-policy").has_value());
}

TEST_CASE("run: the rows do not depend on the number of threads") {
    StepsWorkload w;
    RunRequest one = request(w, {"n=5"}, {"fp64", "fp32", "bf16", "fp16", "fp8_e4m3", "fp32; output=bf16"});
    RunRequest many = one;
    many.threads = 4;
    RunControl control;
    CHECK(untimed(run(one, control).rows) == untimed(run(many, control).rows));
}

TEST_CASE("run: the ground truth keeps no region past its measure") {
    // The truth runs after its policies and measures each of their regions as it makes its own,
    // then drops the values: it holds one region at a time, not the run's.
    StepsWorkload w;
    RunControl control;
    for (int threads : {1, 3}) {
        RunRequest r = request(w, {"n=6"});
        r.threads = threads;
        const Report report = run(r, control);
        CHECK_FALSE(w.earlier_region_kept);
        CHECK(metrics_of(report.rows, "bf16", "step", 5).count("rel_error_max") == 1);
    }
}

TEST_CASE("run: a kept ground truth runs once, and later runs measure their results against its copy") {
    StepsWorkload w;
    RunControl control;
    auto kept = std::make_shared<floatscope::emu::KeptTruth>();
    RunRequest first = request(w, {"n=4"}, {"fp64", "bf16"});
    first.kept_truth = kept;
    run(first, control);
    CHECK(w.truth_calls == 1);
    REQUIRE(kept->filled);
    REQUIRE(kept->regions.size() == 1);  // the result: the last step
    CHECK(kept->regions[0].index == 3);

    RunRequest later = request(w, {"n=4"}, {"fp32", "fp16", "fp8_e4m3"});
    later.kept_truth = kept;
    later.run_id = "2";
    const Report replayed = run(later, control);
    CHECK(w.truth_calls == 1);
    RunRequest plain = request(w, {"n=4"}, {"fp32", "fp16", "fp8_e4m3"});
    const Report computed = run(plain, control);
    CHECK(w.truth_calls == 2);
    for (const char* policy : {"fp32", "fp16", "fp8_e4m3"}) {
        // The result's every measure as against the truth computed afresh.
        CHECK(metrics_of(replayed.rows, policy, "step", 3) == metrics_of(computed.rows, policy, "step", 3));
        CHECK(metrics_of(replayed.rows, policy, "step", 3).count("rel_error_max") == 1);
        // The other regions: their values' rows, no error.
        const auto step1 = metrics_of(replayed.rows, policy, "step", 1);
        CHECK(step1.count("rel_error_max") == 0);
        CHECK(step1.at("k") == 1);
    }
    // The truth's own rows come again, under the later run's id.
    for (int k = 0; k < 4; ++k) CHECK(metrics_of(replayed.rows, "ground-truth", "step", k).at("truth_k") == k);
    CHECK(std::all_of(replayed.rows.begin(), replayed.rows.end(), [](const ReportRow& row) { return row.run == "2"; }));
}

TEST_CASE("run: results only, the result regions measured in full and the others counted") {
    StepsWorkload w;
    RunControl control;
    for (bool truth : {true, false}) {
        RunRequest full = request(w, {"n=4"});
        full.ground_truth = truth;
        RunRequest brief = full;
        brief.results_only = true;
        const Report all = run(full, control);
        const Report results = run(brief, control);
        for (const char* policy : {"fp64", "fp32", "bf16"}) {
            CHECK(metrics_of(results.rows, policy, "step", 3) == metrics_of(all.rows, policy, "step", 3));
            const std::map<std::string, double> counted = {{"value_count", 1}, {"k", 1}};
            CHECK(metrics_of(results.rows, policy, "step", 1) == counted);
        }
    }
}

TEST_CASE("run: a lone ground truth gets the threads, several share them") {
    StepsWorkload w;
    RunRequest r = request(w);
    RunControl control;
    for (int threads : {1, 2, 3}) {
        r.threads = threads;
        run(r, control);
        CHECK(w.threads_seen == threads);
    }
    r.threads = 8;  // more threads than jobs (a truth and three policies): the jobs' count
    run(r, control);
    CHECK(w.threads_seen == 4);
    const std::vector<RunRequest> three(3, request(w));
    run_all(three, 3, control);
    CHECK(w.threads_seen == 1);
    run_all(std::vector<RunRequest>(2, request(w)), 5, control);
    CHECK(w.threads_seen == 2);
}

TEST_CASE("run: mlp-forward's ground truth and errors are the same on 1, 2 and 3 threads") {
    // Its truth spreads each layer's exact GEMM over the threads; every number must stay the same.
    RunRequest r;
    r.workload = &find_workload("mlp-forward");
    r.parameters = Parameters::parse(r.workload->parameters(), {"depth=3", "width=24", "batch=7", "activation=gelu"});
    for (const char* p : {"bf16", "fp16"}) r.policies.push_back(parse_policy(p));
    RunControl control;
    const std::vector<ReportRow> serial = untimed(run(r, control).rows);
    for (int threads : {2, 3}) {
        r.threads = threads;
        CHECK(untimed(run(r, control).rows) == serial);
    }
}

TEST_CASE("run: the progress of policies and truth on several threads is one fraction that never goes back") {
    // mlp-forward, 3 policies and the truth on 2 threads: the jobs report at once. Each job's slice
    // of the whole made the fraction jump back whenever a job behind another reported (issue 38:
    // 25% -> 4% when the truth started).
    RunRequest r;
    r.workload = &find_workload("mlp-forward");
    r.parameters = Parameters::parse(r.workload->parameters(), {"depth=8", "width=128", "batch=64"});
    for (const char* p : {"bf16", "fp16", "fp8_e4m3"}) r.policies.push_back(parse_policy(p));
    r.threads = 2;
    std::mutex mutex;
    std::vector<double> fractions;
    RunControl control([&](double fraction, const std::string&) {
        const std::lock_guard<std::mutex> lock(mutex);
        fractions.push_back(fraction);
    });
    run(r, control);
    REQUIRE(fractions.size() >= 8);
    for (std::size_t i = 1; i < fractions.size(); ++i) {
        INFO(i);
        CHECK(fractions[i] >= fractions[i - 1]);
    }
    CHECK(fractions.back() == Approx(1));
    CHECK(fractions.front() <= 0.25);
}

TEST_CASE("run: each job's share of the progress is the work it declares, the truth a multiple of its policies'") {
    // fp64 declares 300 operations, bf16 100, and the truth takes 2 x the costlier: shares 300, 100
    // and 600 of 1000. On one thread the jobs run in turn, so the bar stands at 0.3 when fp64 is
    // done and 0.4 when bf16 is; with an equal share each (issue 38) it stood at 1/3 and 2/3, and
    // the truth, the longest by far, had the last third.
    class DeclaredSteps : public StepsWorkload {
    public:
        std::optional<core::WorkloadCounts> work(const Parameters&, const PrecisionPolicy& policy) const override {
            core::WorkloadCounts counts;
            counts.operations["fp32"] = policy.name == "fp64" ? 200 : 100;
            if (policy.name == "fp64") counts.operations["fp64"] = 100;  // formats add up
            return counts;
        }
        double truth_time_ratio() const override { return 2; }
    } w;
    RunRequest r = request(w, {"n=4"}, {"fp64", "bf16"});
    std::map<std::string, double> done;  // job -> the fraction when it said it was done
    RunControl control([&](double fraction, const std::string& message) {
        if (message.ends_with(": done")) done[message.substr(0, message.find(':'))] = fraction;
    });
    run(r, control);
    CHECK(done.at("fp64") == Approx(0.3));
    CHECK(done.at("bf16") == Approx(0.4));
    CHECK(done.at("ground truth") == Approx(1));
}

TEST_CASE("run without ground truth: value rows only, precision 0") {
    StepsWorkload w;
    RunRequest r = request(w);
    r.ground_truth = false;
    RunControl control;
    const Report report = run(r, control);
    CHECK(w.truth_calls == 0);
    CHECK(report.runs[0].mpfr_precision == 0);
    for (const ReportRow& row : report.rows) {
        CHECK(row.policy != "ground-truth");
        CHECK(row.metric.find("error") == std::string::npos);
    }
}

TEST_CASE("run_all: several runs, one report in request order") {
    StepsWorkload w;
    std::vector<RunRequest> requests = {request(w, {"n=2"}), request(w, {"n=4"})};
    requests[1].run_id = "2";
    RunControl control;
    const Report report = run_all(requests, 4, control);
    CHECK(w.truth_calls == 2);
    REQUIRE(report.runs.size() == 2);
    CHECK(report.runs[1].parameters[0].second == "4");
    CHECK(report.rows.front().run == "1");
    CHECK(report.rows.back().run == "2");
    std::map<std::string, int> steps;
    for (const ReportRow& row : report.rows) steps[row.run] += row.policy == "fp64" && row.metric == "k";
    CHECK(steps["1"] == 2);
    CHECK(steps["2"] == 4);
}

TEST_CASE("run_all with a stream: the metadata first, then each run's rows in request order") {
    StepsWorkload w;
    std::vector<RunRequest> requests;
    for (const char* n : {"n=3", "n=1", "n=5", "n=2"}) {
        requests.push_back(request(w, {n}));
        requests.back().run_id = std::to_string(requests.size());
    }
    RunControl control;
    const Report whole = run_all(requests, 3, control);
    Report streamed;
    std::vector<std::string> order;
    const ReportStream stream{[&](const Report& metadata) { streamed = metadata; },
                              [&](std::vector<ReportRow>&& rows) {
                                  REQUIRE(!rows.empty());
                                  order.push_back(rows.front().run);
                                  for (ReportRow& row : rows) streamed.rows.push_back(std::move(row));
                              }};
    const Report returned = run_all(requests, 3, control, &stream);
    CHECK(returned.rows.empty());
    CHECK(returned.runs == whole.runs);
    CHECK(order == std::vector<std::string>{"1", "2", "3", "4"});
    CHECK(streamed.runs == whole.runs);
    CHECK(untimed(streamed.rows) == untimed(whole.rows));
}

TEST_CASE("run: cancellation and failures propagate") {
    StepsWorkload w;
    {
        std::atomic<int> calls{0};
        RunControl counting([&](double, const std::string&) { ++calls; });
        RunControl cancelling([&cancelling](double, const std::string&) { cancelling.request_cancel(); });
        RunRequest r = request(w);
        r.threads = 2;
        CHECK_THROWS_AS(run(r, cancelling), Cancelled);
        run(r, counting);
        CHECK(calls > 0);
    }
    {
        RunControl control;
        RunRequest r = request(w, {"fail=policy"});
        r.threads = 3;
        CHECK_THROWS_WITH(run(r, control), "the steps workload failed");
        CHECK_THROWS_WITH(run(request(w, {"fail=truth"}), control), "the steps ground truth failed");
        CHECK_THROWS_WITH(run(request(w, {"fail=mismatch"}), control),
                          Catch::Contains("recorded 1 values, the ground truth 2"));
        CHECK_THROWS_WITH(run(request(w, {"fail=missing"}), control),
                          Catch::Contains("recorded region step 2 ('step 2'), which its ground truth does not have"));
    }
}

TEST_CASE("run: bad requests") {
    StepsWorkload w;
    RunControl control;
    CHECK_THROWS_WITH(run(request(w, {}, {"fp16", "fp16"}), control), Catch::Contains("two policies are named 'fp16'"));
    CHECK_THROWS_WITH(run(request(w, {}, {}), control), Catch::Contains("no precision policy"));
    CHECK_THROWS_WITH(run(request(w, {"n=7"}), control), "n = 7 is refused by check");
    RunRequest r = request(w);
    r.mpfr_precision = 20;
    CHECK_THROWS_WITH(run(r, control), "MPFR precision 20 bits: valid 53..65536");
    r.mpfr_precision = 256;
    r.threads = 0;
    CHECK_THROWS_AS(run(r, control), Error);
    r.workload = nullptr;
    CHECK_THROWS_AS(run(r, control), Error);
}

TEST_CASE("run: a policy's graph clauses are refused by a workload without a graph") {
    StepsWorkload w;
    for (const char* policy : {"fp32; ops MatMul = bf16", "autocast = fp16", "fp32; weights = nf4"}) {
        INFO(policy);
        RunRequest r = request(w, {}, {policy});
        RunControl control;
        CHECK_THROWS_WITH(run(r, control), Catch::Contains("select the nodes of a graph; workload 'steps' has none"));
        CHECK(w.truth_calls == 0);
    }
}
