// to_long_double against mpfr_get_ld(x, MPFR_RNDN), the conversion it replaces: the same long double,
// bit for bit, on random numbers of several precisions and on the hard cases (ties and carries at
// 64 bits, the edges of a long double's normal range, its subnormals, overflow, zeros, specials).
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "emulation/arithmetic/mpfr_long_double.hpp"

namespace {

using floatscope::emu::long_double_significand_bits;
using floatscope::emu::to_long_double;

/// An MPFR number that frees itself.
struct Number {
    explicit Number(mpfr_prec_t bits) { mpfr_init2(value, bits); }
    Number(const Number&) = delete;
    Number& operator=(const Number&) = delete;
    ~Number() { mpfr_clear(value); }
    mpfr_t value;
};

/// The 80 bits a long double's value occupies (its padding left out), for a bitwise comparison.
bool same_bits(long double a, long double b) {
    if (std::isnan(a) && std::isnan(b)) return true;
    return std::memcmp(&a, &b, 10) == 0;
}

void check(mpfr_srcptr x, mpfr_ptr rounded) {
    const long double expected = mpfr_get_ld(x, MPFR_RNDN);
    const long double got = to_long_double(x, rounded);
    INFO("x = " << mpfr_get_d(x, MPFR_RNDN) << " (2^" << (mpfr_regular_p(x) ? mpfr_get_exp(x) : 0) << "), precision "
                << mpfr_get_prec(x));
    CHECK(same_bits(got, expected));
}

/// 1 + 2^-64 * `ulps` + 2^-(64 + extra) (a tie at 64 bits for extra = 1), times 2^exponent, signed.
void set_near_tie(mpfr_ptr x, long ulps, long extra, long exponent, bool negative) {
    mpfr_set_ui(x, 1, MPFR_RNDN);
    Number step(long_double_significand_bits);
    mpfr_set_si_2exp(step.value, ulps, -63, MPFR_RNDN);
    mpfr_add(x, x, step.value, MPFR_RNDN);
    mpfr_set_ui_2exp(step.value, 1, -63 - extra, MPFR_RNDN);
    mpfr_add(x, x, step.value, MPFR_RNDN);
    mpfr_mul_2si(x, x, exponent, MPFR_RNDN);
    if (negative) mpfr_neg(x, x, MPFR_RNDN);
}

}  // namespace

TEST_CASE("to_long_double rounds as mpfr_get_ld does, bit for bit") {
    Number rounded(long_double_significand_bits);
    std::mt19937_64 random(37);
    // Exponents across and beyond a long double's range, its normal/subnormal edge above all.
    const std::vector<long> exponents = {
        0,      1,      -1,      63,     -64,          1000,         -1000,           16383,
        16384,  16385,  -16380,  -16381, -16382,       -16383,       -16440,          -16445,
        -16446, -16500, -100000, 100000, LDBL_MIN_EXP, LDBL_MAX_EXP, LDBL_MIN_EXP - 1};
    for (const mpfr_prec_t precision : {53, 63, 64, 65, 113, 256, 504}) {
        Number x(precision);
        gmp_randstate_t state;
        gmp_randinit_mt(state);
        gmp_randseed_ui(state, static_cast<unsigned long>(precision));
        for (int i = 0; i < 2000; ++i) {  // random significands at every exponent above
            mpfr_urandomb(x.value, state);
            if (mpfr_zero_p(x.value)) continue;
            const long exponent = exponents[static_cast<std::size_t>(random() % exponents.size())];
            mpfr_mul_2si(x.value, x.value, exponent + static_cast<long>(random() % 5) - 2, MPFR_RNDN);
            if (random() % 2) mpfr_neg(x.value, x.value, MPFR_RNDN);
            check(x.value, rounded.value);
        }
        gmp_randclear(state);
        if (precision < 66) continue;  // the ties and near ties need bits below the 64th
        for (const long exponent : exponents)
            for (const long ulps : {0L, 1L, 2L, 3L, -1L, (1L << 62)})
                for (const long extra : {1L, 2L, 40L})
                    for (const bool negative : {false, true}) {
                        set_near_tie(x.value, ulps, extra, exponent, negative);
                        check(x.value, rounded.value);
                    }
    }
    SECTION("zeros, infinities, NaN, the largest and smallest long doubles and their neighbours") {
        Number x(256);
        for (const int sign : {1, -1}) {
            mpfr_set_zero(x.value, sign);
            check(x.value, rounded.value);
            mpfr_set_inf(x.value, sign);
            check(x.value, rounded.value);
            for (const long double edge : {LDBL_MAX, LDBL_MIN, LDBL_TRUE_MIN, LDBL_MIN / 2}) {
                mpfr_set_ld(x.value, sign * edge, MPFR_RNDN);
                check(x.value, rounded.value);
                mpfr_nextabove(x.value);
                check(x.value, rounded.value);
                mpfr_set_ld(x.value, sign * edge, MPFR_RNDN);
                mpfr_nextbelow(x.value);
                check(x.value, rounded.value);
            }
        }
        mpfr_set_nan(x.value);
        check(x.value, rounded.value);
    }
}
