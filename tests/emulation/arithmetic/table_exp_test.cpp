// correctly_rounded_exp (emulation/arithmetic/table_exp) against mpfr_exp, bit for bit: the truth's exp.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include <gmp.h>

#include "core/mpfr_number.hpp"
#include "emulation/arithmetic/table_exp.hpp"
#include "tests/emulation/arithmetic/correctly_rounded_test_support.hpp"

using floatscope::core::MpfrNumber;
using floatscope::emu::correctly_rounded_exp;

namespace {

/// Whether correctly_rounded_exp gives mpfr_exp's number (and sign, and NaN) for x at `precision`.
bool matches(mpfr_srcptr x, mpfr_prec_t precision) {
    return floatscope::emu::testing::matches_mpfr(correctly_rounded_exp, mpfr_exp, x, precision);
}

}  // namespace

TEST_CASE("correctly_rounded_exp equals mpfr_exp on random arguments at the truth's precisions") {
    floatscope::emu::testing::RandomState random(47);
    std::size_t compared = 0;
    for (mpfr_prec_t precision : {24, 53, 113, 256, 300, 512}) {
        for (mpfr_prec_t x_bits : {53, 256, 600}) {
            MpfrNumber number(x_bits);
            mpfr_ptr x = number.get();
            for (int i = 0; i < 2000; ++i) {
                // A Softmax's arguments (x - max in [-60, 0]), GELU's and Sigmoid's, up to the fast path's
                // edge at 2^11 and beyond, and tiny ones down to 2^-300.
                const int kind = i % 5;
                const double scale = kind == 0 ? -60 : kind == 1 ? 8 : kind == 2 ? 2100 : kind == 3 ? 1e5
                                                                                              : std::ldexp(1.0, -(i % 300));
                mpfr_urandomb(x, random.state);
                if (kind != 0) mpfr_sub_d(x, x, 0.5, MPFR_RNDN);
                mpfr_mul_d(x, x, scale, MPFR_RNDN);
                INFO("precision " << precision << ", x of " << x_bits << " bits: " << mpfr_get_d(x, MPFR_RNDN));
                REQUIRE(matches(x, precision));
                ++compared;
            }
        }
    }
    CHECK(compared == 6 * 3 * 2000);
}

TEST_CASE("correctly_rounded_exp at the table's edges, the reduction's, and special arguments") {
    MpfrNumber number(256);
    mpfr_ptr x = number.get();
    std::size_t compared = 0;
    // Multiples of 2^-24 (the last table's step) and of 2^-8, each one bit either side, over [-1, 1].
    for (long j = -300; j <= 300; ++j)
        for (int shift : {8, 16, 24})
            for (int side : {-1, 0, 1}) {
                mpfr_set_si_2exp(x, j * 37, -shift, MPFR_RNDN);
                if (side < 0) mpfr_nextbelow(x);
                if (side > 0) mpfr_nextabove(x);
                REQUIRE(matches(x, 256));
                ++compared;
            }
    // Near multiples of ln 2 (r near 0 and near +-ln 2 / 2, where k changes).
    for (long k = -2900; k <= 2900; k += 97)
        for (double offset : {0.0, 0.3465735902799726, -0.3465735902799726, 1e-30}) {
            mpfr_const_log2(x, MPFR_RNDN);
            mpfr_mul_si(x, x, k, MPFR_RNDN);
            mpfr_add_d(x, x, offset, MPFR_RNDN);
            REQUIRE(matches(x, 256));
            REQUIRE(matches(x, 113));
            ++compared;
        }
    // Specials, the fast path's limit 2^11, overflowing and underflowing arguments: mpfr_exp's answers.
    for (double v : {0.0, -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN(), 2048.0, -2048.0, 2047.999, 1e300, -1e300}) {
        mpfr_set_d(x, v, MPFR_RNDN);
        REQUIRE(matches(x, 256));
        ++compared;
    }
    // The result written over its argument.
    mpfr_set_d(x, -1.25, MPFR_RNDN);
    MpfrNumber want(256);
    mpfr_exp(want.get(), x, MPFR_RNDN);
    correctly_rounded_exp(x, x);
    CHECK(mpfr_equal_p(x, want.get()));
    CHECK(compared > 5000);
}
