// to_long_double against mpfr_get_ld(x, MPFR_RNDN), the conversion it replaces: the same long double,
// bit for bit, on random numbers of several precisions and on the hard cases (ties and carries at
// 64 bits, the edges of a long double's normal range, its subnormals, overflow, zeros, specials).
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <optional>
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

namespace {

using floatscope::emu::quotient_to_double;

/// What region_measures divided before: d / t rounded to 64 bits, then to a double, in MPFR.
double divided_in_mpfr(mpfr_srcptr d, mpfr_srcptr t) {
    Number q(long_double_significand_bits);
    mpfr_div(q.value, d, t, MPFR_RNDN);
    return mpfr_get_d(q.value, MPFR_RNDN);
}

/// quotient_to_double(d, to_long_double(t)) is MPFR's double wherever it gives one; counts them.
struct QuotientCheck {
    std::size_t answered = 0, checked = 0;
    void operator()(mpfr_srcptr d, mpfr_srcptr t) {
        Number rounded(long_double_significand_bits);
        const long double t_rounded = to_long_double(t, rounded.value);
        const std::optional<double> got = quotient_to_double(mpfr_get_ld(d, MPFR_RNDN), t_rounded);
        ++checked;
        if (!got) return;
        ++answered;
        const double expected = divided_in_mpfr(d, t);
        INFO("d = " << mpfr_get_d(d, MPFR_RNDN) << ", t = " << mpfr_get_d(t, MPFR_RNDN) << " (precision "
                    << mpfr_get_prec(t) << ")");
        REQUIRE(std::memcmp(&*got, &expected, sizeof expected) == 0);
    }
};

/// x = a random significand of x's precision times 2^e, e in [-spread, spread], either sign.
void set_random(mpfr_ptr x, std::mt19937_64& random, int spread) {
    mpz_t bits;
    mpz_init(bits);
    const auto precision = static_cast<int>(mpfr_get_prec(x));
    for (int drawn = 0; drawn < precision; drawn += 64) {
        mpz_mul_2exp(bits, bits, 64);
        mpz_add_ui(bits, bits, static_cast<unsigned long>(random()));
    }
    mpfr_set_z_2exp(x, bits, -static_cast<long>(mpz_sizeinbase(bits, 2)), MPFR_RNDN);  // [1/2, 1), rounded
    mpfr_mul_2si(x, x, std::uniform_int_distribution<int>(-spread, spread)(random), MPFR_RNDN);
    if (random() & 1) mpfr_neg(x, x, MPFR_RNDN);
    mpz_clear(bits);
}

}  // namespace

TEST_CASE("quotient_to_double gives MPFR's twice-rounded quotient or leaves it to MPFR") {
    std::mt19937_64 random(37);
    QuotientCheck check;
    Number d(long_double_significand_bits);
    // Random differences and truths of the precisions a run may ask for: nearly every quotient answered.
    for (mpfr_prec_t bits : {53, 80, 256, 600}) {
        Number t(bits);
        for (int i = 0; i < 20000; ++i) {
            set_random(d.value, random, 60);
            set_random(t.value, random, 60);
            check(d.value, t.value);
        }
    }
    CHECK(check.answered > check.checked * 9 / 10);
    // Quotients at a midpoint between doubles, or at a double, give or take a few units of the 64th
    // bit and of t's bits below it: t = d / y for such y, at 256 bits, so that t's lower bits decide.
    Number t(256), y(256), nudge(256);
    for (int i = 0; i < 20000; ++i) {
        set_random(d.value, random, 20);
        const double base = std::ldexp(std::uniform_real_distribution<double>(1, 2)(random), i % 40 - 20);
        mpfr_set_d(y.value, base, MPFR_RNDN);
        if (i % 2 == 0) mpfr_add_d(y.value, y.value, std::ldexp(base, -53), MPFR_RNDN);  // the midpoint above
        if (i % 3 == 0) mpfr_set_d(y.value, std::ldexp(1.0, i % 40 - 20), MPFR_RNDN);  // a binade's end
        // +- a few units of the 64th bit, and below it
        mpfr_set_si_2exp(nudge.value, std::uniform_int_distribution<int>(-40, 40)(random),
                         mpfr_get_exp(y.value) - 64 - (i % 5 == 0 ? 70 : 0), MPFR_RNDN);
        mpfr_add(y.value, y.value, nudge.value, MPFR_RNDN);
        mpfr_div(t.value, d.value, y.value, MPFR_RNDN);
        check(d.value, t.value);
    }
    // Range edges: long double subnormals and the edges of a double's range are left to MPFR.
    Number tiny(64), one(64);
    mpfr_set_ui(one.value, 1, MPFR_RNDN);
    mpfr_set_ui_2exp(tiny.value, 1, -16440, MPFR_RNDN);  // a long double subnormal
    check(tiny.value, one.value);
    check(one.value, tiny.value);
    mpfr_set_ui_2exp(tiny.value, 3, -1075, MPFR_RNDN);  // a double subnormal quotient
    check(tiny.value, one.value);
    mpfr_set_ui_2exp(tiny.value, 1, 1100, MPFR_RNDN);  // beyond a double
    check(tiny.value, one.value);
    CHECK_FALSE(quotient_to_double(0.0L, 1.0L).has_value());
    CHECK_FALSE(quotient_to_double(1.0L, LDBL_TRUE_MIN).has_value());
    CHECK(quotient_to_double(-3.0L, 2.0L) == std::optional<double>(-1.5));
}

namespace {

/// Checks truth_and_difference(x, t) against MPFR: t by mpfr_get_ld, x - t by mpfr_d_sub into 64 bits and
/// then mpfr_get_ld, bit for bit, where it answers. Counts what it answers.
struct DifferenceCheck {
    std::size_t checked = 0, answered = 0;
    void operator()(double x, mpfr_srcptr t) {
        ++checked;
        const auto got = floatscope::emu::truth_and_difference(x, t);
        if (!got) return;
        ++answered;
        Number difference(long_double_significand_bits);
        mpfr_d_sub(difference.value, x, t, MPFR_RNDN);
        INFO("x = " << x << ", t = " << mpfr_get_d(t, MPFR_RNDN) << " of " << mpfr_get_prec(t) << " bits");
        REQUIRE(same_bits(got->truth, mpfr_get_ld(t, MPFR_RNDN)));
        REQUIRE(same_bits(got->difference, mpfr_get_ld(difference.value, MPFR_RNDN)));
    }
};

/// t rounded to a format of `bits` significant bits (to nearest), as a double: a policy's value of it.
double rounded_to(mpfr_srcptr t, mpfr_prec_t bits) {
    Number r(bits);
    mpfr_set(r.value, t, MPFR_RNDN);
    return mpfr_get_d(r.value, MPFR_RNDN);
}

}  // namespace

TEST_CASE("truth_and_difference gives MPFR's rounded truth and difference, or leaves them to MPFR") {
    std::mt19937_64 random(53);
    DifferenceCheck check;
    // Truths of many precisions; values rounded from them to a policy's formats, a few units of the
    // double either side, of the other sign, zero; exactly equal values.
    for (mpfr_prec_t bits : {2, 24, 53, 63, 64, 65, 113, 128, 256, 300, 512}) {
        Number t(bits);
        for (int i = 0; i < 3000; ++i) {
            set_random(t.value, random, i % 4 == 0 ? 1000 : 30);
            for (mpfr_prec_t format : {53, 24, 11, 8, 3}) {
                const double x = rounded_to(t.value, format);
                check(x, t.value);
                check(std::nextafter(x, 0.0), t.value);
                check(-x, t.value);
            }
            check(0.0, t.value);
            check(-0.0, t.value);
        }
    }
    CHECK(check.answered > check.checked * 95 / 100);
    const std::size_t answered_before = check.answered;
    // Differences at a tie between 64-bit numbers, or a unit of their 70th bit either side: t = x - D
    // exactly, D a 65-bit odd multiple of 2^e (a midpoint at 64 bits), e from just below x's last bit down.
    Number t(256), d(70);
    for (int i = 0; i < 20000; ++i) {
        const double x = std::ldexp(std::uniform_real_distribution<double>(-2, 2)(random), i % 60 - 30);
        mpfr_set_ui(d.value, random() | (std::uint64_t{1} << 63), MPFR_RNDN);  // 64 bits
        mpfr_mul_2ui(d.value, d.value, 1, MPFR_RNDN);
        mpfr_add_ui(d.value, d.value, 1, MPFR_RNDN);  // 65 bits, odd: a tie at 64
        mpfr_mul_2si(d.value, d.value, std::ilogb(x) - 60 - i % 100, MPFR_RNDN);
        if (i % 2 == 1) mpfr_neg(d.value, d.value, MPFR_RNDN);
        if (i % 3 != 0) mpfr_nextabove(d.value);
        if (i % 3 == 2) mpfr_nextbelow(d.value), mpfr_nextbelow(d.value);
        REQUIRE(mpfr_d_sub(t.value, x, d.value, MPFR_RNDN) == 0);  // exact at 256 bits
        check(x, t.value);
    }
    CHECK(check.answered - answered_before > 19000);
    // Truths at a tie at 64 bits (carrying into the next binade at its top), at the normal range's edges.
    for (long exponent : {-16370L, -16300L, 0L, 16300L, 16380L})
        for (long ulps : {0L, 1L, 2L, -1L})
            for (bool negative : {false, true}) {
                set_near_tie(t.value, ulps, 1, exponent, negative);
                check(rounded_to(t.value, 53), t.value);
                check(0.0, t.value);
            }
    // Exact zero differences, zero truths of either sign, values far from their truths either way,
    // and special values: answered where MPFR's result is an ordinary long double, else left.
    mpfr_set_d(t.value, 0.1, MPFR_RNDN);
    check(0.1, t.value);
    for (double x : {0.0, -0.0, 1.5, -1e-310}) {
        mpfr_set_zero(t.value, 1);
        check(x, t.value);
        mpfr_set_zero(t.value, -1);
        check(x, t.value);
    }
    mpfr_set_d(t.value, 3.0, MPFR_RNDN);
    for (double x :
         {std::ldexp(3.0, 64), std::ldexp(3.0, 65), std::ldexp(3.0, 70), std::ldexp(3.0, 125), std::ldexp(-3.0, 130),
          std::ldexp(3.0, 200), std::ldexp(3.0, -300), 5e-324, double{INFINITY}, double{NAN}})
        check(x, t.value);
    mpfr_set_inf(t.value, 1);
    check(1.0, t.value);
    mpfr_set_nan(t.value);
    check(1.0, t.value);
    CHECK_FALSE(floatscope::emu::truth_and_difference(1.0, t.value).has_value());
}
