// A priori error bounds (emulation/accumulation/error_bounds): Higham's gamma_n and Higham and
// Mary's lambda sqrt(n) u from their formulas, the rounding depth of each order, and a dot
// product's bound as the product of its (1 + delta) factors, worked out by hand.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/catalog.hpp"
#include "emulation/accumulation/error_bounds.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

core::FormatRounding rounding(const char* format, core::RoundingMode mode = core::RoundingMode::NearestEven) {
    return {core::parse_format(format), mode};
}

AccumulationModel sequential(const char* input, const char* accumulator, const char* output) {
    AccumulationModel m;
    m.x.rounding = m.y.rounding = rounding(input);
    m.accumulator = rounding(accumulator);
    m.output = rounding(output);
    return m;
}

}  // namespace

TEST_CASE("unit roundoff: 2^-p to nearest, 2^(1-p) for directed and stochastic rounding", "[bounds]") {
    CHECK(unit_roundoff(rounding("fp16")) == std::ldexp(1.0, -11));
    CHECK(unit_roundoff(rounding("bf16", core::RoundingMode::NearestAway)) == std::ldexp(1.0, -8));
    CHECK(unit_roundoff(rounding("fp16", core::RoundingMode::TowardZero)) == std::ldexp(1.0, -10));
    CHECK(unit_roundoff(rounding("fp32", core::RoundingMode::Stochastic)) == std::ldexp(1.0, -23));
    CHECK(std::isnan(unit_roundoff(rounding("int8"))));
}

TEST_CASE("gamma_n = n u / (1 - n u), none once n u reaches 1, lambda sqrt(n) u", "[bounds]") {
    const double u = std::ldexp(1.0, -11);
    CHECK(gamma_bound(16, u) == Approx(16.0 / 2032.0).epsilon(1e-15));  // 16 u / (1 - 16 u), u = 1/2048
    CHECK(gamma_bound(2048, u) == INFINITY);
    CHECK(probabilistic_bound(1024, u) == Approx(32 * u * probabilistic_lambda).epsilon(1e-15));
}

TEST_CASE("rounding depth of each accumulation order", "[bounds]") {
    auto depth = [](AccumulationOrder order, int block_size, bool compensated, double n,
                    AccumulationOrder block_order = AccumulationOrder::Sequential) {
        AccumulationModel m;
        m.order = order;
        m.block_size = block_size;
        m.compensated = compensated;
        m.block_order = block_order;
        return accumulation_depth(m, n);
    };
    CHECK(depth(AccumulationOrder::Sequential, 0, false, 100) == 100);
    CHECK(depth(AccumulationOrder::Pairwise, 0, false, 100) == 7);  // ceil(log2 100)
    CHECK(depth(AccumulationOrder::Blocked, 32, false, 100) == 36);  // 32 + ceil(100 / 32)
    CHECK(depth(AccumulationOrder::Blocked, 4, false, 16, AccumulationOrder::Pairwise) == 6);  // 2 + 16 / 4
    CHECK(depth(AccumulationOrder::BlockFma, 4, false, 16) == 4);
    CHECK(depth(AccumulationOrder::TwoStageBlockFma, 8, false, 16) == 4);  // 2 per block
    CHECK(depth(AccumulationOrder::Sequential, 0, true, 1e6) == 2);  // Kahan: 2u to first order
}

TEST_CASE("a format holds another's values when its precision and range cover them", "[bounds]") {
    const auto f = [](const char* name) { return core::parse_format(name); };
    CHECK(holds_values_of(f("fp32"), f("bf16")));
    CHECK(holds_values_of(f("fp32"), f("fp16")));
    CHECK(holds_values_of(f("fp64"), f("fp32")));
    CHECK_FALSE(holds_values_of(f("bf16"), f("fp16")));  // fewer significand bits
    CHECK_FALSE(holds_values_of(f("fp16"), f("bf16")));  // smaller range
    CHECK_FALSE(holds_values_of(f("fp16"), f("fp32")));
}

TEST_CASE("a dot product's bound is the product of its roundings' (1 + delta) factors", "[bounds]") {
    const double u16 = std::ldexp(1.0, -11), u32 = std::ldexp(1.0, -24);
    // fp16 inputs from fp16 storage (held: no second rounding), fp16 accumulation and output.
    const ErrorBounds fp16 = dot_error_bounds(sequential("fp16", "fp16", "fp16"), 64, core::parse_format("fp16"), u16);
    CHECK(fp16.deterministic == Approx((1 + u16) * (1 + u16) * (1 + 64 * u16 / (1 - 64 * u16)) - 1).epsilon(1e-14));
    CHECK(fp16.probabilistic == Approx((1 + u16) * (1 + u16) * (1 + 8 * u16) - 1).epsilon(1e-14));
    // bf16 inputs from exact (binary64) data, fp32 accumulation, bf16 output: every rounding counts.
    const double u8 = std::ldexp(1.0, -8);
    const ErrorBounds mixed = dot_error_bounds(sequential("bf16", "fp32", "bf16"), 256, core::parse_format("fp64"), 0);
    CHECK(mixed.deterministic == Approx((1 + u8) * (1 + u8) * (1 + u8) * (1 + 256 * u32 / (1 - 256 * u32)) - 1));
}
