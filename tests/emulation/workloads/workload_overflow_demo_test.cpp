// The overflow-demo workload: fp16 overflow at 65520, inf - inf and 0 x inf, NaN spreading, and the
// same chain in bf16, OCP E4M3 (NaN, or 448 saturating) and fp32, against hand facts and MPFR.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/core/mpfr_reference.hpp"

namespace {

using floatscope::core::parse_format;
using floatscope::core::RoundingMode;
using floatscope::emu::find_workload;
using floatscope::emu::Parameters;
using floatscope::emu::parse_policy;
using floatscope::emu::RunControl;
using floatscope::emu::Trace;
using floatscope::emu::TraceRegion;
using floatscope::emu::TruthTrace;
using floatscope::test::ref_round;
using floatscope::test::RefNumber;

// Region indices of the chain: a, b, p = a * b, p - p, 0 * p, h = (p - p) + 0 * p, the layers, the output.
constexpr int step_a = 0, step_b = 1, step_product = 2, step_difference = 3, step_zero_times = 4, step_h = 5;

Trace run_demo(const std::string& policy, const std::vector<std::string>& assignments = {}) {
    const auto& workload = find_workload("overflow-demo");
    Trace trace;
    RunControl control;
    workload.run(Parameters::parse(workload.parameters(), assignments), parse_policy(policy), trace, control);
    return trace;
}

double value(const Trace& trace, int step) { return trace.regions().at(static_cast<std::size_t>(step)).values.at(0); }

}  // namespace

TEST_CASE("fp16: 10^4 x 10^4 overflows to inf, inf - inf and 0 x inf are NaN, and NaN spreads",
          "[workload][overflow]") {
    const Trace trace = run_demo("fp16");
    const auto& regions = trace.regions();
    REQUIRE(regions.size() == 6 + 4 + 1);  // the default 4 layers
    for (std::size_t i = 0; i < regions.size(); ++i) {
        CHECK(regions[i].kind == "operation");
        CHECK(regions[i].index == static_cast<int>(i));
        CHECK(regions[i].format == parse_format("fp16"));
    }
    CHECK(regions[step_product].label == "p = 10000 * 10000");
    CHECK(value(trace, step_a) == 10000);  // 10000 = 1.220703125 x 2^13 fits fp16's 11 bits
    CHECK(value(trace, step_product) == INFINITY);
    CHECK(regions[step_product].counters.overflow == 1);
    CHECK(regions[step_product].counters.infinite_results == 1);
    // IEEE 754-2019 7.2: inf - inf and 0 x inf are invalid operations with a NaN result.
    CHECK(std::isnan(value(trace, step_difference)));
    CHECK(regions[step_difference].counters.invalid == 1);
    CHECK(std::isnan(value(trace, step_zero_times)));
    CHECK(regions[step_zero_times].counters.invalid == 1);
    for (std::size_t i = step_h; i < regions.size(); ++i) {
        INFO(regions[i].label);
        CHECK(std::isnan(regions[i].values[0]));
    }
    CHECK(regions.back().label == "output h");
}

TEST_CASE("the ground truth of the chain is exact: 10^8, 0, 0, then 2 - 2^(1-i)", "[workload][overflow]") {
    const auto& workload = find_workload("overflow-demo");
    const floatscope::emu::TruthPrecisionScope scope(256);
    TruthTrace truth;
    RunControl control;
    workload.run_ground_truth(Parameters::parse(workload.parameters(), {"steps=3"}), 256, truth, control);
    std::vector<double> values;
    for (const auto& region : truth.regions()) values.push_back(region.values.at(0).convert_to<double>());
    CHECK(values == std::vector<double>{1e4, 1e4, 1e8, 0, 0, 0, 1, 1.5, 1.75, 1.75});
    // fp32 holds every value of the chain: the emulated run is the truth.
    const Trace fp32 = run_demo("fp32", {"steps=3"});
    REQUIRE(fp32.regions().size() == values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        CHECK(fp32.regions()[i].values[0] == values[i]);
        CHECK(fp32.regions()[i].label == truth.regions()[i].label);
    }
}

TEST_CASE("fp16 overflows from 65520 on: 65519.99 rounds to 65504, 65520 to inf", "[workload][overflow]") {
    // IEEE 754-2019 7.4: overflow when the result rounded with an unbounded exponent exceeds the
    // largest finite number 65504 = (2 - 2^-10) 2^15; the midpoint to the next would-be number is
    // (2 - 2^-11) 2^15 = 65520, which rounds to even, that is up, to inf.
    const auto fp16 = parse_format("fp16");
    REQUIRE(ref_round(fp16, 65519.99, RoundingMode::NearestEven).value == 65504);
    REQUIRE(ref_round(fp16, 65520.0, RoundingMode::NearestEven).value == INFINITY);
    // The factors are stored in fp32, the product is computed in fp16.
    const Trace below = run_demo("fp32; compute=fp16", {"a=65519.99", "b=1"});
    CHECK(value(below, step_product) == 65504);
    CHECK(below.regions()[step_product].counters.overflow == 0);
    const Trace at = run_demo("fp32; compute=fp16", {"a=65520", "b=1"});
    CHECK(value(at, step_product) == INFINITY);
    // The conversion of the fp32 operand to fp16 is where it overflows.
    CHECK(at.regions()[step_product].counters.overflow == 1);
    CHECK(std::isnan(value(at, step_difference)));
}

/// x rounded to `bits` significant bits by MPFR (bf16 has 8; 10^8 and its neighbours lie far
/// inside its exponent range).
double rounded_to_bits(double x, int bits) {
    RefNumber r(bits);
    mpfr_set_d(r.get(), x, MPFR_RNDN);
    return mpfr_get_d(r.get(), MPFR_RNDN);
}

TEST_CASE("bf16 stays finite: 10^4 is stored as 9984, 9984^2 rounds to 99614720, 10^8 to 100139008",
          "[workload][overflow]") {
    // 10^4 = 2^13 + 2^10 + 2^9 + 2^8 + 2^4 needs 10 bits; bf16 keeps 8 and drops 2^4 (below half
    // of 2^6): 9984. 9984^2 = 99680256 = 190.125 x 2^19 rounds to 190 x 2^19 = 99614720.
    REQUIRE(rounded_to_bits(1e4, 8) == 9984);
    REQUIRE(rounded_to_bits(9984.0 * 9984.0, 8) == 99614720);
    const Trace trace = run_demo("bf16");
    CHECK(value(trace, step_a) == 9984);
    CHECK(value(trace, step_product) == 99614720);
    CHECK(value(trace, step_difference) == 0);
    CHECK(value(trace, step_zero_times) == 0);
    CHECK(trace.regions().back().values[0] == 1.875);  // 4 layers from 0: 2 - 2^-3, exact in bf16
    // 10^8 itself, as a factor of 1 with fp32 storage, rounds once: 190.73 x 2^19 gives 191 x 2^19.
    REQUIRE(rounded_to_bits(1e8, 8) == 100139008);
    CHECK(value(run_demo("fp32; compute=bf16", {"a=1e8", "b=1"}), step_product) == 100139008);
}

TEST_CASE("OCP E4M3 turns 10^4 into NaN at once, saturating E4M3 into 448", "[workload][overflow]") {
    // OCP 8-bit floating point specification (2023): E4M3 has no infinity, its largest finite
    // number is 448 = 1.75 x 2^8, and an overflow without saturation gives NaN.
    const Trace fn = run_demo("fp8_e4m3");
    CHECK(std::isnan(value(fn, step_a)));
    CHECK(fn.regions()[step_a].counters.overflow == 1);
    CHECK(std::isnan(value(fn, step_product)));
    CHECK(std::isnan(fn.regions().back().values[0]));
    const Trace saturating = run_demo("fp8_e4m3:sat");
    CHECK(value(saturating, step_a) == 448);
    CHECK(value(saturating, step_product) == 448);
    CHECK(value(saturating, step_difference) == 0);
    CHECK(saturating.regions()[step_product].counters.overflow == 1);
}

TEST_CASE("step i follows layer i of the policy", "[workload][overflow]") {
    // The product in fp32 (layer 2) is 10^8; p - p then converts it to fp16 again, where it overflows.
    const Trace trace = run_demo("fp16; layers 2 = fp32");
    CHECK(trace.regions()[step_product].format == parse_format("fp32"));
    CHECK(value(trace, step_product) == 1e8);
    CHECK(trace.regions()[step_difference].format == parse_format("fp16"));
    CHECK(std::isnan(value(trace, step_difference)));
    CHECK(trace.regions()[step_difference].counters.overflow == 1);
    // The output role: the last step.
    const Trace output = run_demo("fp32; output=bf16", {"steps=0", "a=3", "b=0.1"});
    CHECK(output.regions().back().format == parse_format("bf16"));
    CHECK(output.regions().back().values[0] == ref_round(parse_format("bf16"), 0.0, RoundingMode::NearestEven).value);
    CHECK(value(output, step_product) ==
          ref_round(parse_format("fp32"), 3 * static_cast<double>(0.1f), RoundingMode::NearestEven).value);
}
