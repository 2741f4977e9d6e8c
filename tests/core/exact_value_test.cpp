// ExactValue (core/exact_value.hpp): 64 leading bits and a sticky bit, checked against MPFR and GMP integers.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <gmp.h>

#include "core/error.hpp"
#include "core/exact_value.hpp"
#include "mpfr_reference.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

namespace {

/// The 64 leading bits of |x|, its binade and whether bits are left below, from GMP integers.
struct Leading {
    std::int64_t exponent;
    std::uint64_t significand;
    bool sticky;
};

Leading leading_bits(mpfr_srcptr x) {
    mpz_t m;
    mpz_init(m);
    const mpfr_exp_t scale = mpfr_get_z_2exp(m, x);  // x = m * 2^scale exactly
    mpz_abs(m, m);
    const auto bits = static_cast<std::int64_t>(mpz_sizeinbase(m, 2));
    Leading l{scale + bits - 1, 0, false};
    if (bits > 64) {
        mpz_t rest;
        mpz_init(rest);
        mpz_tdiv_r_2exp(rest, m, static_cast<mp_bitcnt_t>(bits - 64));
        l.sticky = mpz_sgn(rest) != 0;
        mpz_tdiv_q_2exp(m, m, static_cast<mp_bitcnt_t>(bits - 64));
        mpz_clear(rest);
    } else {
        mpz_mul_2exp(m, m, static_cast<mp_bitcnt_t>(64 - bits));
    }
    l.significand = (static_cast<std::uint64_t>(mpz_getlimbn(m, 0)));
    mpz_clear(m);
    return l;
}

/// A random number of `bits` significant bits around 2^exponent.
void random_mpfr(mpfr_ptr out, std::mt19937_64& rng, int bits, long exponent) {
    mpz_t m;
    mpz_init(m);
    for (int i = 0; i < bits; i += 64) {
        mpz_mul_2exp(m, m, 64);
        mpz_add_ui(m, m, static_cast<unsigned long>(rng()));
    }
    mpz_setbit(m, static_cast<mp_bitcnt_t>(bits - 1));
    mpz_tdiv_r_2exp(m, m, static_cast<mp_bitcnt_t>(bits));
    mpz_setbit(m, static_cast<mp_bitcnt_t>(bits - 1));
    mpfr_set_z_2exp(out, m, exponent - bits + 1, MPFR_RNDN);
    if (rng() & 1) mpfr_neg(out, out, MPFR_RNDN);
    mpz_clear(m);
}

}  // namespace

TEST_CASE("from_double keeps the double exactly", "[exact_value]") {
    std::mt19937_64 rng(5);
    for (int i = 0; i < 20000; ++i) {
        double x = std::bit_cast<double>(rng());
        if (i % 10 == 0) x = std::bit_cast<double>(rng() & 0x800FFFFFFFFFFFFFULL);  // subnormals
        if (!std::isfinite(x) || x == 0) continue;
        const ExactValue v = ExactValue::from_double(x);
        RefNumber m(64);
        mpfr_set_d(m.get(), x, MPFR_RNDN);
        const Leading want = leading_bits(m.get());
        REQUIRE(v.kind == ExactValue::Kind::Finite);
        CHECK(v.negative == std::signbit(x));
        CHECK(v.exponent == want.exponent);
        CHECK(v.exponent == std::ilogb(x));
        CHECK(v.significand == want.significand);
        CHECK_FALSE(v.sticky);
        CHECK(v.to_double() == x);
        RefNumber back(64);
        v.to_mpfr(back.get());
        CHECK(mpfr_cmp_d(back.get(), x) == 0);
    }
    CHECK(ExactValue::from_double(0.0).kind == ExactValue::Kind::Zero);
    CHECK(ExactValue::from_double(-0.0).negative);
    CHECK(ExactValue::from_double(-std::numeric_limits<double>::infinity()).kind == ExactValue::Kind::Infinite);
    CHECK(ExactValue::from_double(-std::numeric_limits<double>::infinity()).negative);
    const ExactValue quiet = ExactValue::from_double(std::numeric_limits<double>::quiet_NaN());
    CHECK(quiet.kind == ExactValue::Kind::NaN);
    CHECK_FALSE(quiet.signaling);
    const ExactValue signaling = ExactValue::from_double(std::bit_cast<double>(0x7FF0000000000001ULL));
    CHECK(signaling.signaling);
    CHECK(signaling.nan_payload != 0);
    CHECK(std::signbit(ExactValue::from_double(-0.0).to_double()));
}

TEST_CASE("from_mpfr keeps 64 leading bits and folds the rest into sticky", "[exact_value]") {
    std::mt19937_64 rng(6);
    for (int i = 0; i < 20000; ++i) {
        const int bits = 1 + static_cast<int>(rng() % 200);
        RefNumber x(bits);
        random_mpfr(x.get(), rng, bits, static_cast<long>(rng() % 4000) - 2000);
        const ExactValue v = ExactValue::from_mpfr(x.get());
        const Leading want = leading_bits(x.get());
        INFO("bits " << bits);
        CHECK(v.negative == (mpfr_sgn(x.get()) < 0));
        CHECK(v.exponent == want.exponent);
        CHECK(v.significand == want.significand);
        CHECK(v.sticky == want.sticky);
        CHECK((v.significand >> 63) == 1);
        // to_mpfr: exact when nothing was folded, strictly inside the 64-bit gap otherwise.
        RefNumber back(80), truncated(64);
        v.to_mpfr(back.get());
        mpfr_set(truncated.get(), x.get(), MPFR_RNDZ);
        if (!want.sticky) {
            CHECK(mpfr_equal_p(back.get(), x.get()));
        } else {
            RefNumber next(64);
            mpfr_set(next.get(), truncated.get(), MPFR_RNDN);
            if (mpfr_sgn(x.get()) > 0)
                mpfr_nextabove(next.get());
            else
                mpfr_nextbelow(next.get());
            CHECK(mpfr_cmpabs(back.get(), truncated.get()) > 0);
            CHECK(mpfr_cmpabs(back.get(), next.get()) < 0);
        }
        // to_double rounds to nearest, once, from the exact value.
        if (mpfr_get_exp(x.get()) > -1070 && mpfr_get_exp(x.get()) < 1020)
            CHECK(v.to_double() == mpfr_get_d(x.get(), MPFR_RNDN));
    }
    RefNumber special(53);
    mpfr_set_zero(special.get(), -1);
    CHECK(ExactValue::from_mpfr(special.get()).kind == ExactValue::Kind::Zero);
    CHECK(ExactValue::from_mpfr(special.get()).negative);
    mpfr_set_inf(special.get(), 1);
    CHECK(ExactValue::from_mpfr(special.get()).kind == ExactValue::Kind::Infinite);
    mpfr_set_nan(special.get());
    CHECK(ExactValue::from_mpfr(special.get()).kind == ExactValue::Kind::NaN);
}

TEST_CASE("to_double rounds ties and subnormals as MPFR", "[exact_value]") {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 20000; ++i) {
        // Doubles' midpoints plus or minus far-away bits, across the subnormal range too.
        RefNumber x(140);
        const double d = std::bit_cast<double>(rng() & 0x7FFFFFFFFFFFFFFFULL);
        if (!std::isfinite(d) || d == 0) continue;
        mpfr_set_d(x.get(), d, MPFR_RNDN);
        RefNumber half_ulp(140);
        mpfr_set_d(half_ulp.get(), (std::nextafter(d, 1e308) - d) / 2, MPFR_RNDN);
        mpfr_add(x.get(), x.get(), half_ulp.get(), MPFR_RNDN);
        if (i % 3 == 1) mpfr_nextabove(x.get());
        if (i % 3 == 2) mpfr_nextbelow(x.get());
        const ExactValue v = ExactValue::from_mpfr(x.get());
        CHECK(v.to_double() == mpfr_get_d(x.get(), MPFR_RNDN));
    }
}

TEST_CASE("from_scaled_integer is magnitude times a power of two", "[exact_value]") {
    std::mt19937_64 rng(8);
    for (int i = 0; i < 5000; ++i) {
        const std::uint64_t magnitude = rng() >> (rng() % 64);
        const std::int64_t scale = static_cast<std::int64_t>(rng() % 3000) - 1500;
        const bool negative = (rng() & 1) != 0;
        const ExactValue v = ExactValue::from_scaled_integer(negative, magnitude, scale);
        if (magnitude == 0) {
            CHECK(v.kind == ExactValue::Kind::Zero);
            continue;
        }
        RefNumber want(64);
        mpfr_set_uj_2exp(want.get(), magnitude, static_cast<intmax_t>(scale), MPFR_RNDN);
        if (negative) mpfr_neg(want.get(), want.get(), MPFR_RNDN);
        RefNumber got(66);
        v.to_mpfr(got.get());
        CHECK(mpfr_equal_p(got.get(), want.get()));
        CHECK_FALSE(v.sticky);
    }
}

TEST_CASE("compare orders exact values as MPFR does", "[exact_value]") {
    std::mt19937_64 rng(9);
    auto check_pair = [](mpfr_srcptr a, mpfr_srcptr b) {
        const ExactValue x = ExactValue::from_mpfr(a), y = ExactValue::from_mpfr(b);
        // Values that share their 64 leading bits and both have bits below are not told apart.
        if (x.exponent == y.exponent && x.significand == y.significand && x.sticky && y.sticky &&
            x.negative == y.negative && x.kind == y.kind)
            return;
        const int want = mpfr_cmp(a, b);
        CHECK(compare(x, y) == (want > 0) - (want < 0));
        CHECK(compare(y, x) == (want < 0) - (want > 0));
    };
    for (int i = 0; i < 20000; ++i) {
        RefNumber a(100), b(100);
        random_mpfr(a.get(), rng, 100, static_cast<long>(rng() % 20) - 10);
        switch (i % 4) {
            case 0: random_mpfr(b.get(), rng, 100, static_cast<long>(rng() % 20) - 10); break;
            case 1: mpfr_set(b.get(), a.get(), MPFR_RNDN); break;
            case 2:  // the same 64 leading bits, one with and one without bits below
                mpfr_prec_round(b.get(), 64, MPFR_RNDZ);
                mpfr_set(b.get(), a.get(), MPFR_RNDZ);
                mpfr_prec_round(b.get(), 100, MPFR_RNDN);
                break;
            default:
                mpfr_set(b.get(), a.get(), MPFR_RNDN);
                mpfr_nextabove(b.get());
                mpfr_prec_round(b.get(), 64, MPFR_RNDU);
                mpfr_prec_round(b.get(), 100, MPFR_RNDN);
                break;
        }
        check_pair(a.get(), b.get());
    }
    const ExactValue nan = ExactValue::quiet_nan();
    CHECK(compare(nan, ExactValue::from_double(1.0)) == 2);
    CHECK(compare(ExactValue::zero(true), ExactValue::zero(false)) == 0);
    CHECK(compare(ExactValue::infinity(true), ExactValue::from_double(-1e308)) == -1);
    CHECK(compare(ExactValue::infinity(false), ExactValue::infinity(false)) == 0);
    CHECK(compare(ExactValue::from_double(-1e-300), ExactValue::zero()) == -1);
}

TEST_CASE("parse_exact_value is exact to the sticky bit", "[exact_value]") {
    std::mt19937_64 rng(10);
    for (int i = 0; i < 3000; ++i) {
        std::string text = (rng() & 1) ? "-" : "";
        const int digits = 1 + static_cast<int>(rng() % 45);
        for (int d = 0; d < digits; ++d) {
            text += static_cast<char>('0' + rng() % 10);
            if (d == 0 && rng() % 2 == 0) text += '.';
        }
        text.append("e").append(std::to_string(static_cast<int>(rng() % 700) - 350));
        RefNumber wide(20000);
        const int ternary = mpfr_strtofr(wide.get(), text.c_str(), nullptr, 10, MPFR_RNDZ);
        const ExactValue v = parse_exact_value(text);
        INFO("text " << text);
        if (mpfr_zero_p(wide.get())) {
            CHECK(v.kind == ExactValue::Kind::Zero);
            continue;
        }
        const Leading want = leading_bits(wide.get());
        CHECK(v.negative == (text[0] == '-'));
        CHECK(v.exponent == want.exponent);
        CHECK(v.significand == want.significand);
        CHECK(v.sticky == (want.sticky || ternary != 0));
    }
    const ExactValue hex = parse_exact_value("0x1.8p-3");
    CHECK(hex.to_double() == 0.1875);
    CHECK_FALSE(hex.sticky);
    CHECK(parse_exact_value("  -2.5e-3 ").to_double() == -2.5e-3);
    CHECK(parse_exact_value("+7").to_double() == 7);
    CHECK(parse_exact_value("0x10").to_double() == 16);
    CHECK(parse_exact_value("-0").kind == ExactValue::Kind::Zero);
    CHECK(parse_exact_value("-0").negative);
    CHECK(parse_exact_value("0e99").kind == ExactValue::Kind::Zero);
    CHECK(parse_exact_value("inf").kind == ExactValue::Kind::Infinite);
    CHECK(parse_exact_value("-Infinity").negative);
    CHECK(parse_exact_value("NaN").kind == ExactValue::Kind::NaN);
    CHECK(parse_exact_value("snan").signaling);
    CHECK_FALSE(parse_exact_value("nan").signaling);
    const ExactValue huge = parse_exact_value("1e99999999999999999999");
    CHECK(huge.kind == ExactValue::Kind::Finite);
    CHECK(huge.exponent > 100000);
    const ExactValue tiny = parse_exact_value("-1e-99999999999999999999");
    CHECK(tiny.kind == ExactValue::Kind::Finite);
    CHECK(tiny.negative);
    CHECK(tiny.exponent < -100000);
    // A 200-digit decimal: exact to the last digit.
    const std::string long_text = std::string("0.").append(199, '3').append("4");
    RefNumber wide(2000);
    const int ternary = mpfr_strtofr(wide.get(), long_text.c_str(), nullptr, 10, MPFR_RNDZ);
    const Leading want = leading_bits(wide.get());
    const ExactValue v = parse_exact_value(long_text);
    CHECK(v.significand == want.significand);
    CHECK(v.sticky == (want.sticky || ternary != 0));
}

TEST_CASE("parse_exact_value rejects malformed text and names it", "[exact_value]") {
    for (const char* bad : {"",      "   ",  "abc",   "1.2.3", "1e",  "--1", "+-1", "0x",   "0xg", "1,5", "nan(1)",
                            "@inf@", "1e5x", "0b101", "inf1",  "1 2", "e5",  ".",   "0x1p", "1e+", "- 1", "1_000"}) {
        INFO("text '" << bad << "'");
        try {
            parse_exact_value(bad);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(std::string(e.what()).find(std::string("'") + bad + "'") != std::string::npos);
        }
    }
}

TEST_CASE("parse_value_to_mpfr reads the text at the target's precision", "[exact_value]") {
    using floatscope::core::parse_value_to_mpfr;
    floatscope::test::RefNumber value(400), expected(400);
    parse_value_to_mpfr(" -0.1000000000000000055511151231257827021181583404541015626 ", value.get());
    mpfr_set_str(expected.get(), "-0.1000000000000000055511151231257827021181583404541015626", 10, MPFR_RNDN);
    CHECK(mpfr_equal_p(value.get(), expected.get()));
    parse_value_to_mpfr("0x1.8p-3", value.get());
    CHECK(mpfr_cmp_d(value.get(), 0.1875) == 0);
    parse_value_to_mpfr("-inf", value.get());
    CHECK((mpfr_inf_p(value.get()) && mpfr_signbit(value.get())));
    parse_value_to_mpfr("nan", value.get());
    CHECK(mpfr_nan_p(value.get()));
    CHECK_THROWS_AS(parse_value_to_mpfr("0.1.2", value.get()), floatscope::Error);
    CHECK_THROWS_AS(parse_value_to_mpfr("@inf@", value.get()), floatscope::Error);
}
