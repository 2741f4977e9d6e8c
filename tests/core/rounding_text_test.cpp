// Rounding from parsed text (decimal, hex, specials) against MPFR.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include <gmp.h>

#include "core/catalog.hpp"
#include "core/exact_value.hpp"
#include "core/exception_flags.hpp"
#include "core/rounding.hpp"
#include "core/rounding_mode.hpp"
#include "mpfr_reference.hpp"
#include "rounding_checks.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

// ---- (c) rounding from parsed text --------------------------------------------------------------

namespace {

/// Decimal text of s / 10^k with the given sign, in positional notation.
std::string positional(const mpz_t s, long k, bool negative) {
    char* raw = mpz_get_str(nullptr, 10, s);
    std::string digits(raw);
    void (*free_function)(void*, std::size_t) = nullptr;
    mp_get_memory_functions(nullptr, nullptr, &free_function);
    free_function(raw, std::strlen(raw) + 1);
    if (static_cast<long>(digits.size()) <= k) digits.insert(0, static_cast<std::size_t>(k) - digits.size() + 1, '0');
    const std::size_t point = digits.size() - static_cast<std::size_t>(k);
    std::string text = negative ? "-" : "";
    text.append(digits, 0, point);
    if (k > 0) text.append(".").append(digits, point, std::string::npos);
    return text;
}

/// The exact decimal of a finite double, then optionally padded to `min_fraction` fraction digits
/// and moved by `nudge` units of 10^-nudge_exponent (nudge_exponent <= min_fraction).
std::string exact_decimal_text(double x, long min_fraction = 0, int nudge = 0, long nudge_exponent = 0) {
    int e = 0;
    const double f = std::frexp(std::fabs(x), &e);
    const auto m = static_cast<unsigned long>(std::ldexp(f, 53));
    e -= 53;
    mpz_t s;
    mpz_init_set_ui(s, m);
    long k = 0;
    if (e >= 0) {
        mpz_mul_2exp(s, s, static_cast<mp_bitcnt_t>(e));
    } else {
        mpz_t five;
        mpz_init(five);
        mpz_ui_pow_ui(five, 5, static_cast<unsigned long>(-e));
        mpz_mul(s, s, five);
        mpz_clear(five);
        k = -e;
    }
    if (min_fraction > k) {
        mpz_t ten;
        mpz_init(ten);
        mpz_ui_pow_ui(ten, 10, static_cast<unsigned long>(min_fraction - k));
        mpz_mul(s, s, ten);
        mpz_clear(ten);
        k = min_fraction;
    }
    if (nudge != 0) {
        mpz_t unit;
        mpz_init(unit);
        mpz_ui_pow_ui(unit, 10, static_cast<unsigned long>(k - nudge_exponent));
        if (nudge > 0)
            mpz_add(s, s, unit);
        else
            mpz_sub(s, s, unit);
        mpz_clear(unit);
    }
    std::string text = positional(s, k, std::signbit(x));
    mpz_clear(s);
    return text;
}

void check_text(const FormatSpec& spec, const std::string& text, Agreement& agreement) {
    RefNumber exact(4096);
    mpfr_strtofr(exact.get(), text.c_str(), nullptr, 10, MPFR_RNDN);
    const ExactValue parsed = parse_exact_value(text);
    for (RoundingMode mode : ref_modes)
        agreement.check(spec, mode, Tininess::AfterRounding, text,
                        round_to_format(spec, parsed, {mode, Tininess::AfterRounding, nullptr}),
                        ref_round(spec, exact.get(), mode));
}

}  // namespace

TEST_CASE("long decimals halfway between values, and 1e-50 off it, round as MPFR", "[rounding][parse]") {
    for (const char* name : {"fp16", "fp32", "bf16", "fp8_e4m3", "e5m2fnuz", "fp4_e2m1", "fp16:ftz"}) {
        INFO("format " << name);
        const FormatSpec spec = parse_format(name);
        std::mt19937_64 rng(seed_of(name));
        const int magnitude_bits = spec.exponent_bits + spec.mantissa_bits;
        Agreement agreement;
        for (int i = 0; i < 400; ++i) {
            std::uint64_t pattern = rng() & ((std::uint64_t{1} << magnitude_bits) - 1);
            if (i % 4 == 0) pattern &= (std::uint64_t{1} << (spec.mantissa_bits + 2)) - 1;  // subnormals
            const double a = ref_decode(spec, pattern), b = ref_decode(spec, pattern + 1);
            if (!std::isfinite(a) || !std::isfinite(b) || !(a < b)) continue;
            for (double mid : {0.5 * a + 0.5 * b, -(0.5 * a + 0.5 * b)}) {
                check_text(spec, exact_decimal_text(mid, 60), agreement);  // exact, 60+ digits
                check_text(spec, exact_decimal_text(mid, 60, +1, 50), agreement);  // + 1e-50
                check_text(spec, exact_decimal_text(mid, 60, -1, 50), agreement);  // - 1e-50
            }
        }
        CHECK_AGREEMENT(agreement);
    }
}

TEST_CASE("the 1e-50 nudge decides a tie: above goes up, below goes down", "[rounding][parse]") {
    // 1 + 2^-11 is halfway between fp16's 1 and 1 + 2^-10; ties-to-even picks 1.
    CHECK(round_text("fp16", "1.00048828125").bits == 0x3C00);
    CHECK(round_text("fp16", "1.00048828125000000000000000000000000000000000000001").bits == 0x3C01);
    CHECK(round_text("fp16", "1.00048828124999999999999999999999999999999999999999").bits == 0x3C00);
    CHECK(round_text("fp16", "1.00048828125", RoundingMode::NearestAway).bits == 0x3C01);
    // 1 + 3*2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9: even is up.
    CHECK(round_text("fp16", "1.00146484375").bits == 0x3C02);
    CHECK(round_text("fp16", "1.00146484374999999999999999999999999999999999999999").bits == 0x3C01);
}

TEST_CASE("0.1 to fp32 is 0x3DCCCCCD", "[rounding][parse][published]") {
    const Rounded r = round_text("fp32", "0.1");
    CHECK(r.bits == 0x3DCCCCCD);
    CHECK(r.value == static_cast<double>(0.1f));
    CHECK(r.flags.bits == kInexact);
    CHECK(round_text("fp32", "0.1", RoundingMode::TowardZero).bits == 0x3DCCCCCC);
    CHECK(round_text("fp16", "0.1").bits == 0x2E66);
    CHECK(round_text("bf16", "0.1").bits == 0x3DCD);
}

TEST_CASE("200-digit decimals round as MPFR, the last digit deciding", "[rounding][parse]") {
    std::mt19937_64 rng(2024);
    Agreement agreement;
    for (const char* name : {"fp64", "fp32", "fp16", "bf16", "fp8_e5m2"}) {
        const FormatSpec spec = parse_format(name);
        for (int i = 0; i < 60; ++i) {
            std::string digits;
            for (int d = 0; d < 200; ++d) digits += static_cast<char>('0' + rng() % 10);
            if (digits[0] == '0') digits[0] = '7';
            const int exponent = static_cast<int>(rng() % 80) - 40;
            check_text(spec, digits.substr(0, 1) + "." + digits.substr(1) + "e" + std::to_string(exponent), agreement);
            check_text(spec, "-0." + digits + "e" + std::to_string(exponent), agreement);
        }
        // Exact midpoints written with 199 digits, then one unit at the 200th digit above and below.
        for (int i = 0; i < 40; ++i) {
            const std::uint64_t pattern =
                (rng() & ((std::uint64_t{1} << (spec.exponent_bits + spec.mantissa_bits - 1)) - 1)) |
                (std::uint64_t{1} << (spec.exponent_bits + spec.mantissa_bits - 2));
            const double a = ref_decode(spec, pattern), b = ref_decode(spec, pattern + 1);
            if (!std::isfinite(b) || spec.total_bits() > 32) continue;
            const double mid = 0.5 * a + 0.5 * b;
            const std::string exact = exact_decimal_text(mid);
            const long fraction =
                exact.find('.') == std::string::npos ? 0 : static_cast<long>(exact.size() - exact.find('.') - 1);
            const long target = fraction + 200 - static_cast<long>(exact.size());
            check_text(spec, exact_decimal_text(mid, std::max(target, fraction), +1, std::max(target, fraction)),
                       agreement);
            check_text(spec, exact_decimal_text(mid, std::max(target, fraction), -1, std::max(target, fraction)),
                       agreement);
        }
    }
    CHECK_AGREEMENT(agreement);
}

TEST_CASE("hex floats round as the value they spell", "[rounding][parse]") {
    std::mt19937_64 rng(16);
    Agreement agreement;
    for (const char* name : {"fp16", "fp32", "bf16", "fp8_e4m3", "fp4_e2m1", "fp64"}) {
        const FormatSpec spec = parse_format(name);
        for (int i = 0; i < 300; ++i) {
            // An integer of up to 90 bits times a power of two, built exactly with GMP, then spelled in hex.
            mpz_t n;
            mpz_init(n);
            mpz_set_ui(n, static_cast<unsigned long>(rng() >> 1) | 1);
            mpz_mul_2exp(n, n, static_cast<mp_bitcnt_t>(rng() % 30));
            mpz_add_ui(n, n, static_cast<unsigned long>(rng() % 2));
            const Reach reach = reach_of(spec);
            const long binade =
                reach.low_binade +
                static_cast<long>(rng() % static_cast<std::uint64_t>(reach.high_binade - reach.low_binade + 1));
            const long exponent = binade - static_cast<long>(mpz_sizeinbase(n, 2)) + 1;
            RefNumber exact(256);
            mpfr_set_z_2exp(exact.get(), n, exponent, MPFR_RNDN);
            const bool negative = (rng() & 1) != 0;
            if (negative) mpfr_neg(exact.get(), exact.get(), MPFR_RNDN);
            char* raw = mpz_get_str(nullptr, 16, n);
            const std::string hex(raw);
            void (*free_function)(void*, std::size_t) = nullptr;
            mp_get_memory_functions(nullptr, nullptr, &free_function);
            free_function(raw, hex.size() + 1);
            const std::string sign = negative ? "-" : "";
            const std::string plain = sign + "0x" + hex + "p" + std::to_string(exponent);
            const std::string pointed = sign + "0X" + hex.substr(0, 1) + "." + hex.substr(1) + "P" +
                                        std::to_string(exponent + 4 * static_cast<long>(hex.size() - 1));
            for (const std::string& text : {plain, pointed}) {
                const ExactValue parsed = parse_exact_value(text);
                for (RoundingMode mode : ref_modes)
                    agreement.check(spec, mode, Tininess::AfterRounding, text,
                                    round_to_format(spec, parsed, {mode, Tininess::AfterRounding, nullptr}),
                                    ref_round(spec, exact.get(), mode));
            }
            mpz_clear(n);
        }
    }
    CHECK_AGREEMENT(agreement);
    CHECK(round_text("fp16", "0x1.8p-3").value == 0.1875);
    CHECK(round_text("fp16", "0x1.002p0").bits == 0x3C00);  // tie, to even
    CHECK(round_text("fp16", "0x1.0020000000000000000001p0").bits == 0x3C01);  // just above the tie
    const Rounded half_min = round_text("fp16", "-0x1p-25");  // half the smallest subnormal
    CHECK(half_min.bits == 0x8000);
    CHECK(half_min.flags.bits == (kUnderflow | kInexact));
}

TEST_CASE("text beyond any range, and the specials, round as their values", "[rounding][parse]") {
    const FormatSpec fp32 = parse_format("fp32");
    RefNumber huge(64), tiny(64);
    mpfr_set_str(huge.get(), "1e400000", 10, MPFR_RNDN);
    mpfr_set_str(tiny.get(), "1e-400000", 10, MPFR_RNDN);
    Agreement agreement;
    for (RoundingMode mode : ref_modes) {
        const RoundingOptions options{mode, Tininess::AfterRounding, nullptr};
        for (const auto& [text, sign] :
             {std::pair{"1e99999999999999999999", 1}, {"-1e99999999999999999999", -1}, {"1e400", 1}, {"-1e400", -1}}) {
            mpfr_setsign(huge.get(), huge.get(), sign < 0, MPFR_RNDN);
            agreement.check(fp32, mode, Tininess::AfterRounding, text,
                            round_to_format(fp32, parse_exact_value(text), options), ref_round(fp32, huge.get(), mode));
        }
        for (const auto& [text, sign] : {std::pair{"1e-99999999999999999999", 1},
                                         {"-1e-99999999999999999999", -1},
                                         {"1e-400", 1},
                                         {"-1e-400", -1}}) {
            mpfr_setsign(tiny.get(), tiny.get(), sign < 0, MPFR_RNDN);
            agreement.check(fp32, mode, Tininess::AfterRounding, text,
                            round_to_format(fp32, parse_exact_value(text), options), ref_round(fp32, tiny.get(), mode));
        }
    }
    CHECK_AGREEMENT(agreement);
    CHECK(round_text("fp16", "inf").value == inf);
    CHECK(round_text("fp16", "-Infinity").value == -inf);
    CHECK(std::isnan(round_text("fp16", "nan").value));
    CHECK(round_text("fp16", "snan").flags.bits == kInvalid);
    CHECK(round_text("fp16", "-0").bits == 0x8000);
}

