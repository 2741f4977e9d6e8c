// The fpcore workload: an FPCore program run through the engine like any workload, with the policy's
// format and rounding, against MPFR-rounded references and the `fpcore` runner's own outcomes.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/fpcore/runner.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"

namespace {

using floatscope::Error;
using floatscope::emu::Cancelled;
using floatscope::emu::find_workload;
using floatscope::emu::Parameters;
using floatscope::emu::parse_policy;
using floatscope::emu::RunControl;
using floatscope::emu::Trace;
using floatscope::emu::TraceRegion;

const floatscope::emu::Workload& workload() { return find_workload("fpcore"); }

Parameters parameters(const std::vector<std::string>& assignments) {
    return Parameters::parse(workload().parameters(), assignments);
}

Trace run_fpcore(const std::string& policy, const std::vector<std::string>& assignments) {
    Trace trace;
    RunControl control;
    workload().run(parameters(assignments), parse_policy(policy), trace, control);
    return trace;
}

const TraceRegion& region(const Trace& trace, const std::string& kind, int index) {
    for (const TraceRegion& r : trace.regions())
        if (r.kind == kind && r.index == index) return r;
    FAIL("no region " << kind << " " << index);
    return trace.regions().front();
}

double metric(const TraceRegion& r, const std::string& name) {
    for (const auto& m : r.metrics)
        if (m.name == name) return m.value;
    FAIL("region " << r.label << " has no metric " << name);
    return 0;
}

/// Herbie's bits of error of 1/3 rounded upward to p bits, against 1/3 rounded to nearest: both
/// lie in [1/4, 1/2), where the spacing is 2^(-2-(p-1)).
double one_third_upward_bits(int p) {
    mpfr_t up, nearest, ulps;
    mpfr_inits2(p, up, nearest, static_cast<mpfr_ptr>(nullptr));
    mpfr_init2(ulps, 64);
    mpfr_set_ui(up, 1, MPFR_RNDN);
    mpfr_div_ui(up, up, 3, MPFR_RNDU);
    mpfr_set_ui(nearest, 1, MPFR_RNDN);
    mpfr_div_ui(nearest, nearest, 3, MPFR_RNDN);
    mpfr_sub(ulps, up, nearest, MPFR_RNDN);
    mpfr_mul_2si(ulps, ulps, 2 + (p - 1), MPFR_RNDN);
    const double bits = std::log2(1 + mpfr_get_d(ulps, MPFR_RNDN));
    mpfr_clears(up, nearest, ulps, static_cast<mpfr_ptr>(nullptr));
    return bits;
}

}  // namespace

TEST_CASE("fpcore workload: the policy's rounding mode applies to the program's operations") {
    const std::vector<std::string> program = {"program=(FPCore () :name \"third\" (/ 1 3))"};
    // 1/3 = 0.010101...b: the 12th significant bit is 0, so nearest and toward zero agree in fp16 and
    // upward is one unit away; in bf16 (8 bits) the 9th bit is 1, so toward zero is the one away.
    CHECK(metric(region(run_fpcore("fp16", program), "output", 0), "bits_error_max") == 0);
    CHECK(metric(region(run_fpcore("fp16@rtz", program), "output", 0), "bits_error_max") == 0);
    CHECK(metric(region(run_fpcore("fp16@rup", program), "output", 0), "bits_error_max") ==
          Approx(one_third_upward_bits(11)));
    CHECK(metric(region(run_fpcore("bf16@rup", program), "output", 0), "bits_error_max") == 0);
    CHECK(metric(region(run_fpcore("bf16@rtz", program), "output", 0), "bits_error_max") == 1);
    CHECK_THROWS_WITH(run_fpcore("fp16@sr", program), Catch::Contains("rne, rna, rtz, rup, rdn or rto"));
}

TEST_CASE("fpcore workload: let bindings and loop iterations become regions") {
    const Trace trace = run_fpcore("bf16", {"samples=40",
                                            "program=(FPCore (x) :pre (<= 1 x 2) (let ([y (* x x)]) "
                                            "(while (< i 3) ([i 0 (+ i 1)] [s y (+ s (/ s 3))]) s)))"});
    CHECK(metric(region(trace, "output", 0), "samples") == 40);
    CHECK(region(trace, "binding", 0).label == "y");
    CHECK(metric(region(trace, "binding", 0), "samples") == 40);
    for (const TraceRegion& r : trace.regions()) CHECK(r.format.name == "bf16");
    int iterations = 0;
    for (const TraceRegion& r : trace.regions()) iterations += r.kind == "iteration" ? 1 : 0;
    CHECK(iterations == 3);
}

TEST_CASE("fpcore workload: a file's benchmark gives the points and errors the fpcore command gives") {
    const std::string file = FLOATSCOPE_TEST_DATA "/fpcore/accuracy.fpcore";
    namespace fpcore = floatscope::emu::fpcore;
    const std::vector<std::vector<fpcore::FPCore>> files = {fpcore::read_fpcore_file(file)};
    fpcore::RunOptions options;
    options.formats = {floatscope::core::parse_format("fp32"), floatscope::core::parse_format("bf16")};
    options.samples = 64;
    options.seed = 7;
    const std::vector<fpcore::Outcome> outcomes = fpcore::run_benchmarks(fpcore::list_benchmarks(files), options);
    // By name and by number; the bf16 policy draws the points the command drew for bf16 beside fp32.
    for (const std::string& which : {std::string("benchmark=difference of square roots"), std::string("benchmark=1")}) {
        const Trace trace = run_fpcore("bf16", {"file=" + file, which, "samples=64", "seed=7"});
        const fpcore::Outcome& expected = outcomes[1];
        REQUIRE(expected.workload == "difference of square roots");
        REQUIRE(expected.format == "bf16");
        CHECK(metric(region(trace, "output", 0), "bits_error_avg") == expected.bits_error_avg);
        CHECK(metric(region(trace, "output", 0), "rel_error_max") == expected.rel_error_max);
    }
}

TEST_CASE("fpcore workload: runs through the engine with one row set per policy") {
    floatscope::emu::RunRequest request;
    request.workload = &workload();
    request.parameters = parameters({"samples=32"});
    request.policies = {parse_policy("fp64"), parse_policy("fp32")};
    RunControl control;
    const floatscope::emu::Report report = floatscope::emu::run(request, control);
    int bits_rows = 0;
    for (const auto& row : report.rows)
        if (row.metric == "bits_error_avg" && row.region_kind == "output") {
            ++bits_rows;
            // sqrt(x + 1) - sqrt(x) for x up to 1e15 cancels: a handful of bits lost in binary64,
            // most of binary32's 24 (x + 1 is x itself beyond 2^24).
            if (row.policy == "fp64") CHECK(row.value < 30);
            if (row.policy == "fp32") CHECK(row.value > 10);
        }
    CHECK(bits_rows == 2);
}

TEST_CASE("fpcore workload: bad programs, files, benchmarks and cancellation give clear errors") {
    const auto& w = workload();
    CHECK_THROWS_WITH(w.check(parameters({"program=(FPCore (x) (+ x"})), Catch::Contains("1:"));
    CHECK_THROWS_WITH(w.check(parameters({"program=; nothing"})), Catch::Contains("holds no FPCore form"));
    CHECK_THROWS_WITH(w.check(parameters({"file=/nonexistent/x.fpcore"})), Catch::Contains("/nonexistent/x.fpcore"));
    CHECK_THROWS_WITH(w.check(parameters({"file=" FLOATSCOPE_TEST_DATA "/fpcore/accuracy.fpcore", "benchmark=99"})),
                      Catch::Contains("1 'difference of square roots'"));
    Trace trace;
    RunControl control;
    control.request_cancel();
    CHECK_THROWS_AS(w.run(parameters({"samples=16"}), parse_policy("fp32"), trace, control), Cancelled);
}

namespace {

/// The value of `metric` in the output region of `trace`.
double output_metric(const Trace& trace, const std::string& metric) {
    for (const TraceRegion& region : trace.regions())
        if (region.kind == "output")
            for (const auto& m : region.metrics)
                if (m.name == metric) return m.value;
    FAIL("no " << metric);
    return NAN;
}

}  // namespace

TEST_CASE("fpcore: `layers N` gives the benchmark's operation N its own format", "[fpcore]") {
    // Operation 0 is the subtraction, 1 the addition: (1 + 0.001) - 1 = 0.001 (to double precision).
    const std::vector<std::string> program = {"program=(FPCore () (- (+ 1 0.001) 1))"};
    const auto units = workload().policy_units(parameters(program), "operation");
    REQUIRE(units.size() == 2);
    CHECK(units[0].name == "op 0: (- (+ 1 0.001) 1)");
    CHECK(units[1].name == "op 1: (+ 1 0.001)");
    // In fp64 the difference keeps about 40 bits of 0.001.
    CHECK(output_metric(run_fpcore("fp64", program), "rel_error_max") < 1e-12);
    // The addition in bf16 (8 bits) rounds 1.001 to 1: the difference is 0, all of 0.001 is lost.
    CHECK(output_metric(run_fpcore("fp64; layers 1 = bf16", program), "rel_error_max") == 1);
    CHECK(output_metric(run_fpcore("fp64; layers 1 = bf16", program), "bits_correct_mean") == 0);
    // The subtraction in bf16: 0.001 to bf16's 8 bits, 2^-10 * 1.0234375 = 0.0009994506..., an error of
    // 5.49e-4 relative, measured in fp64 (the benchmark's precision), not in bf16.
    const double bf16_of_difference = std::ldexp(1.0234375, -10);
    const double expected = std::fabs(bf16_of_difference - 0.001) / 0.001;
    CHECK(output_metric(run_fpcore("fp64; layers 0 = bf16", program), "rel_error_max") ==
          Approx(expected).epsilon(1e-9));
}
