// correctly_rounded_exp (emulation/arithmetic/table_exp) against mpfr_exp, bit for bit: the truth's exp.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include <gmp.h>

#include "emulation/arithmetic/table_exp.hpp"

using floatscope::emu::correctly_rounded_exp;

namespace {

/// An MPFR number of `bits` bits owned by the test.
struct Number {
    explicit Number(mpfr_prec_t bits) { mpfr_init2(value, bits); }
    Number(const Number&) = delete;
    Number& operator=(const Number&) = delete;
    ~Number() { mpfr_clear(value); }
    mpfr_t value;
};

/// Whether correctly_rounded_exp gives mpfr_exp's number (and sign, and NaN) for x at `precision`.
bool matches(mpfr_srcptr x, mpfr_prec_t precision) {
    Number got(precision), want(precision);
    correctly_rounded_exp(got.value, x);
    mpfr_exp(want.value, x, MPFR_RNDN);
    if (mpfr_nan_p(want.value)) return mpfr_nan_p(got.value) != 0;
    return mpfr_equal_p(got.value, want.value) && mpfr_signbit(got.value) == mpfr_signbit(want.value);
}

struct RandomState {
    RandomState() {
        gmp_randinit_default(state);
        gmp_randseed_ui(state, 47);
    }
    RandomState(const RandomState&) = delete;
    RandomState& operator=(const RandomState&) = delete;
    ~RandomState() { gmp_randclear(state); }
    gmp_randstate_t state;
};

}  // namespace

TEST_CASE("correctly_rounded_exp equals mpfr_exp on random arguments at the truth's precisions") {
    RandomState random;
    std::size_t compared = 0;
    for (mpfr_prec_t precision : {24, 53, 113, 256, 300, 512}) {
        for (mpfr_prec_t x_bits : {53, 256, 600}) {
            Number x(x_bits);
            for (int i = 0; i < 2000; ++i) {
                // A Softmax's arguments (x - max in [-60, 0]), GELU's and Sigmoid's, up to the fast path's
                // edge at 2^11 and beyond, and tiny ones down to 2^-300.
                const int kind = i % 5;
                const double scale = kind == 0 ? -60 : kind == 1 ? 8 : kind == 2 ? 2100 : kind == 3 ? 1e5
                                                                                              : std::ldexp(1.0, -(i % 300));
                mpfr_urandomb(x.value, random.state);
                if (kind != 0) mpfr_sub_d(x.value, x.value, 0.5, MPFR_RNDN);
                mpfr_mul_d(x.value, x.value, scale, MPFR_RNDN);
                INFO("precision " << precision << ", x of " << x_bits << " bits: " << mpfr_get_d(x.value, MPFR_RNDN));
                REQUIRE(matches(x.value, precision));
                ++compared;
            }
        }
    }
    CHECK(compared == 6 * 3 * 2000);
}

TEST_CASE("correctly_rounded_exp at the table's edges, the reduction's, and special arguments") {
    Number x(256);
    std::size_t compared = 0;
    // Multiples of 2^-24 (the last table's step) and of 2^-8, each one bit either side, over [-1, 1].
    for (long j = -300; j <= 300; ++j)
        for (int shift : {8, 16, 24})
            for (int side : {-1, 0, 1}) {
                mpfr_set_si_2exp(x.value, j * 37, -shift, MPFR_RNDN);
                if (side < 0) mpfr_nextbelow(x.value);
                if (side > 0) mpfr_nextabove(x.value);
                REQUIRE(matches(x.value, 256));
                ++compared;
            }
    // Near multiples of ln 2 (r near 0 and near +-ln 2 / 2, where k changes).
    for (long k = -2900; k <= 2900; k += 97)
        for (double offset : {0.0, 0.3465735902799726, -0.3465735902799726, 1e-30}) {
            mpfr_const_log2(x.value, MPFR_RNDN);
            mpfr_mul_si(x.value, x.value, k, MPFR_RNDN);
            mpfr_add_d(x.value, x.value, offset, MPFR_RNDN);
            REQUIRE(matches(x.value, 256));
            REQUIRE(matches(x.value, 113));
            ++compared;
        }
    // Specials, the fast path's limit 2^11, overflowing and underflowing arguments: mpfr_exp's answers.
    for (double v : {0.0, -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN(), 2048.0, -2048.0, 2047.999, 1e300, -1e300}) {
        mpfr_set_d(x.value, v, MPFR_RNDN);
        REQUIRE(matches(x.value, 256));
        ++compared;
    }
    // The result written over its argument.
    mpfr_set_d(x.value, -1.25, MPFR_RNDN);
    Number want(256);
    mpfr_exp(want.value, x.value, MPFR_RNDN);
    correctly_rounded_exp(x.value, x.value);
    CHECK(mpfr_equal_p(x.value, want.value));
    CHECK(compared > 5000);
}
