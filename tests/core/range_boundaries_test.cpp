// Overflow and underflow thresholds (core/range_boundaries.hpp) against MPFR rounding with an
// unbounded exponent: a value overflows when MPFR's rounding to the format's precision exceeds max.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/format_properties.hpp"
#include "core/range_boundaries.hpp"

using namespace floatscope;
using core::RoundingMode;

namespace {

mpfr_rnd_t mpfr_mode(RoundingMode mode) {
    switch (mode) {
        case RoundingMode::TowardZero: return MPFR_RNDZ;
        case RoundingMode::Upward: return MPFR_RNDU;
        case RoundingMode::Downward: return MPFR_RNDD;
        default: return MPFR_RNDN;
    }
}

/// x rounded by MPFR to the format's precision (hidden bit included), exponent unbounded.
double reference_round(const core::FormatSpec& spec, double x, RoundingMode mode) {
    mpfr_t r;
    mpfr_init2(r, spec.mantissa_bits + 1);
    mpfr_set_d(r, x, mpfr_mode(mode));
    const double out = mpfr_get_d(r, MPFR_RNDN);
    mpfr_clear(r);
    return out;
}

/// x / q rounded by MPFR to an integer: zero where x rounds to zero in a format whose smallest
/// positive value (its subnormal quantum) is q.
bool mpfr_rounds_to_zero(double x, double q, RoundingMode mode) {
    mpfr_t r;
    mpfr_init2(r, 64);
    mpfr_set_d(r, x / q, MPFR_RNDN);  // exact: q is a power of two
    mpfr_rint(r, r, mpfr_mode(mode));
    const bool zero = mpfr_zero_p(r) != 0;
    mpfr_clear(r);
    return zero;
}

const RoundingMode mpfr_modes[] = {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward,
                                   RoundingMode::Downward};
const char* binary_formats[] = {"fp16", "bf16", "fp8_e5m2", "fp8_e4m3", "e4m3", "e3m4", "fp6_e2m3", "fp4_e2m1"};

}  // namespace

TEST_CASE("fp16 under rne: 65520 overflows to inf, values from 65504 up to 65520 round to 65504 (MPFR)") {
    const core::FormatSpec fp16 = core::parse_format("fp16");
    REQUIRE(reference_round(fp16, 65520.0, RoundingMode::NearestEven) > 65504);
    REQUIRE(reference_round(fp16, std::nextafter(65520.0, 0.0), RoundingMode::NearestEven) == 65504);
    const auto b = core::overflow_boundary(fp16, RoundingMode::NearestEven);
    REQUIRE(b);
    CHECK(b->at == 65520.0);
    CHECK(b->included);
    CHECK(b->within == 65504.0);
    CHECK(std::isinf(b->beyond.value));
}

TEST_CASE("overflow thresholds split the values where MPFR's rounding passes max finite") {
    for (const char* name : binary_formats)
        for (RoundingMode mode : mpfr_modes) {
            const core::FormatSpec spec = core::parse_format(name);
            const double max = core::format_properties(spec).max_finite;
            auto overflows = [&](double x) { return reference_round(spec, x, mode) > max; };
            INFO(name << " " << core::to_string(mode));
            const auto b = core::overflow_boundary(spec, mode);
            REQUIRE(b);
            CHECK(b->within == max);
            if (b->included) {
                CHECK(overflows(b->at));
                CHECK_FALSE(overflows(std::nextafter(b->at, 0.0)));
            } else {
                CHECK_FALSE(overflows(b->at));
                CHECK(overflows(std::nextafter(b->at, INFINITY)));
            }
        }
}

TEST_CASE("what overflow gives follows the format: inf, NaN (e4m3fn), or max (saturating fp4)") {
    // OCP FP8: E5M2 overflows to inf, E4M3 has no inf and its overflow is NaN; OCP MX FP4 saturates.
    CHECK(std::isinf(core::overflow_boundary(core::parse_format("fp8_e5m2"), RoundingMode::NearestEven)->beyond.value));
    CHECK(std::isnan(core::overflow_boundary(core::parse_format("fp8_e4m3"), RoundingMode::NearestEven)->beyond.value));
    CHECK(core::overflow_boundary(core::parse_format("fp4_e2m1"), RoundingMode::NearestEven)->beyond.value == 6.0);
    // Toward zero never leaves the finite range, but past the next binade overflow is raised.
    const auto rtz = core::overflow_boundary(core::parse_format("fp16"), RoundingMode::TowardZero);
    CHECK(rtz->beyond.value == 65504.0);
    CHECK(core::overflow_boundary(core::parse_format("fp16"), RoundingMode::Stochastic) == std::nullopt);
}

TEST_CASE("underflow thresholds split the values where MPFR rounds to zero on the subnormal grid") {
    for (const char* name : binary_formats)
        for (RoundingMode mode : mpfr_modes) {
            const core::FormatSpec spec = core::parse_format(name);
            const double q = std::ldexp(1.0, 1 - spec.bias - spec.mantissa_bits);
            INFO(name << " " << core::to_string(mode));
            const auto b = core::underflow_boundary(spec, mode);
            REQUIRE(b);
            CHECK(b->within == 0);
            CHECK(b->beyond.value == q);
            if (b->at == 0) {
                CHECK_FALSE(mpfr_rounds_to_zero(std::nextafter(0.0, 1.0), q, mode));
            } else if (b->included) {
                CHECK_FALSE(mpfr_rounds_to_zero(b->at, q, mode));
                CHECK(mpfr_rounds_to_zero(std::nextafter(b->at, 0.0), q, mode));
            } else {
                CHECK(mpfr_rounds_to_zero(b->at, q, mode));
                CHECK_FALSE(mpfr_rounds_to_zero(std::nextafter(b->at, INFINITY), q, mode));
            }
        }
}

TEST_CASE("fp16 under rne: half the smallest subnormal ties to zero (MPFR)") {
    const core::FormatSpec fp16 = core::parse_format("fp16");
    REQUIRE(mpfr_rounds_to_zero(std::ldexp(1.0, -25), std::ldexp(1.0, -24), RoundingMode::NearestEven));
    const auto b = core::underflow_boundary(fp16, RoundingMode::NearestEven);
    REQUIRE(b);
    CHECK(b->at == std::ldexp(1.0, -25));
    CHECK_FALSE(b->included);
}
