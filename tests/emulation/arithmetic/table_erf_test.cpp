// correctly_rounded_erf (emulation/arithmetic/table_erf) against mpfr_erf, bit for bit: the truth's erf.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include <gmp.h>

#include "core/mpfr_number.hpp"
#include "emulation/arithmetic/table_erf.hpp"
#include "tests/emulation/arithmetic/correctly_rounded_test_support.hpp"

using floatscope::core::MpfrNumber;
using floatscope::emu::correctly_rounded_erf;
using floatscope::emu::erf_approximation;

namespace {

/// Whether correctly_rounded_erf gives mpfr_erf's number (and sign, and NaN) for x at `precision`.
bool matches(mpfr_srcptr x, mpfr_prec_t precision) {
    return floatscope::emu::testing::matches_mpfr(correctly_rounded_erf, mpfr_erf, x, precision);
}

}  // namespace

TEST_CASE("correctly_rounded_erf equals mpfr_erf on random arguments at the truth's precisions") {
    floatscope::emu::testing::RandomState random(52);
    std::size_t compared = 0;
    for (mpfr_prec_t precision : {24, 53, 113, 256, 300, 512}) {
        for (mpfr_prec_t x_bits : {53, 256, 600}) {
            MpfrNumber number(x_bits);
            mpfr_ptr x = number.get();
            for (int i = 0; i < 500; ++i) {
                // GELU's arguments (x / sqrt 2 for x in [-10, 10]), the tables' whole range and beyond (where
                // erf rounds to +-1), and tiny ones down to 2^-300 (the series around 0, scaled).
                const int kind = i % 4;
                const double scale = kind == 0 ? 14.2 : kind == 1 ? 44 : kind == 2 ? 2.5 : std::ldexp(1.0, -(i % 300));
                mpfr_urandomb(x, random.state);
                mpfr_sub_d(x, x, 0.5, MPFR_RNDN);
                mpfr_mul_d(x, x, scale, MPFR_RNDN);
                INFO("precision " << precision << ", x of " << x_bits << " bits: " << mpfr_get_d(x, MPFR_RNDN));
                REQUIRE(matches(x, precision));
                ++compared;
            }
        }
    }
    CHECK(compared == 6 * 3 * 500);
}

TEST_CASE("correctly_rounded_erf at the table points and the edges of every fallback") {
    MpfrNumber number(256);
    mpfr_ptr x = number.get();
    std::size_t compared = 0;
    // Table points j / 2^7 over GELU's range, each exactly and one bit either side (h = 0 and h just
    // below 2^-7, where the Horner sum is longest), at the truth's precision and at 53 and 512 bits.
    for (long j = -1000; j <= 1000; ++j)
        for (int side : {-1, 0, 1}) {
            mpfr_set_si_2exp(x, j, -7, MPFR_RNDN);
            if (side < 0) mpfr_nextbelow(x);
            if (side > 0) mpfr_nextabove(x);
            REQUIRE(matches(x, 256));
            if (j % 7 == 0) REQUIRE(matches(x, 53));
            if (j % 13 == 0) REQUIRE(matches(x, 512));
            ++compared;
        }
    // Where erf starts to round to +-1 at each precision (found by bisection on mpfr_erf), and from there
    // over 2.2 more (past the last table point of every precision's fixed point), on table points and one
    // bit above them.
    for (mpfr_prec_t precision : {24, 53, 113, 256, 300, 512}) {
        MpfrNumber erf(precision);
        double below_one = 1, one = 30;
        while (one - below_one > 1e-6) {
            mpfr_set_d(x, (below_one + one) / 2, MPFR_RNDN);
            mpfr_erf(erf.get(), x, MPFR_RNDN);
            (mpfr_cmp_ui(erf.get(), 1) == 0 ? one : below_one) = (below_one + one) / 2;
        }
        for (double at = std::floor(one * 32) / 32 - 1.0 / 16; at < one + 2.2; at += 1.0 / 32)
            for (int side : {-1, 1}) {
                mpfr_set_d(x, side * at, MPFR_RNDN);
                REQUIRE(matches(x, precision));
                mpfr_nextabove(x);
                REQUIRE(matches(x, precision));
                ++compared;
            }
    }
    // Tiny arguments (erf(x) = 2 x / sqrt(pi) to y's precision), down past double's range, both signs.
    for (long e = -2; e >= -5000; e = e * 5 / 4 - 1)
        for (int sign : {-1, 1}) {
            mpfr_set_si_2exp(x, sign * 3, e, MPFR_RNDN);
            REQUIRE(matches(x, 256));
            REQUIRE(matches(x, 24));
            ++compared;
        }
    // Specials and huge arguments: mpfr_erf's answers (+-0 with their signs, +-1, NaN).
    for (double v : {0.0, -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN(), 1e300, -1e300, 40.0, -27.0}) {
        mpfr_set_d(x, v, MPFR_RNDN);
        REQUIRE(matches(x, 256));
        ++compared;
    }
    // The result written over its argument, on the series around 0 and around a point.
    for (double v : {-0.003, 1.7}) {
        mpfr_set_d(x, v, MPFR_RNDN);
        MpfrNumber want(256);
        mpfr_erf(want.get(), x, MPFR_RNDN);
        correctly_rounded_erf(x, x);
        CHECK(mpfr_equal_p(x, want.get()));
    }
    CHECK(compared > 6500);
}

TEST_CASE("correctly_rounded_erf's approximation lies within the error bound it claims") {
    // The bound is what makes Ziv's test right: an approximation outside it would round wrongly only where
    // erf(x) lies that close to a rounding boundary, too rarely for the comparisons above to see.
    floatscope::emu::testing::RandomState random(52);
    std::size_t held = 0;
    for (mpfr_prec_t precision : {24, 113, 256, 512}) {
        MpfrNumber number(precision), exact(precision + 200), difference(precision + 200), bound(2);
        mpfr_ptr x = number.get();
        for (int i = 0; i < 400; ++i) {
            const double scale = i % 3 == 0 ? std::ldexp(1.0, -7 - i % 40) : i % 3 == 1 ? 8.0 : 1.0 / 64;
            mpfr_urandomb(x, random.state);
            mpfr_sub_d(x, x, 0.5, MPFR_RNDN);
            mpfr_mul_d(x, x, scale, MPFR_RNDN);
            if (mpfr_zero_p(x)) continue;
            const auto approximation = erf_approximation(x, precision);
            REQUIRE(approximation.value);
            mpfr_abs(exact.get(), x, MPFR_RNDN);
            mpfr_erf(exact.get(), exact.get(), MPFR_RNDN);
            mpfr_sub(difference.get(), approximation.value, exact.get(), MPFR_RNDN);
            mpfr_set_ui_2exp(bound.get(), 1, approximation.error_exponent, MPFR_RNDN);
            INFO("precision " << precision << ", x " << mpfr_get_d(x, MPFR_RNDN) << ": error 2^"
                              << std::log2(std::fabs(mpfr_get_d(difference.get(), MPFR_RNDN))) << ", bound 2^"
                              << approximation.error_exponent);
            REQUIRE(mpfr_cmpabs(difference.get(), bound.get()) <= 0);
            ++held;
        }
    }
    CHECK(held > 1500);
}
