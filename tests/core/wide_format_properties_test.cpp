// Tests of core/wide_format_properties and core/exact_text: limits and counts of wide formats against
// the IEEE 754 formulas evaluated in GMP integers, the narrow formats against format_properties, and
// exact text against decimals built from powers of 5 (2^-k = 5^k / 10^k).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmpxx.h>

#include "core/catalog.hpp"
#include "core/decimal.hpp"
#include "core/error.hpp"
#include "core/exact_text.hpp"
#include "core/format_properties.hpp"
#include "core/wide_format.hpp"
#include "core/wide_format_properties.hpp"

using namespace floatscope::core;

namespace {

mpz_class pow2(long n) {
    mpz_class p = 1;
    p <<= static_cast<mp_bitcnt_t>(n);
    return p;
}

/// |x| as the rational significand * 2^exponent, compared exactly with n * 2^e.
bool equals(const WideValue& x, const mpz_class& n, long e) {
    if (x.kind != WideValue::Kind::Finite) return false;
    const long shift = std::min<long>(x.exponent, e);
    return (x.significand << static_cast<mp_bitcnt_t>(x.exponent - shift)) ==
           (n << static_cast<mp_bitcnt_t>(e - shift));
}

WideValue power_of_two(long exponent) {
    WideValue v;
    v.kind = WideValue::Kind::Finite;
    v.significand = 1;
    v.exponent = exponent;
    return v;
}

/// Every digit of 2^-k, laid out as exact_decimal does ("1.9259...e-34"), from 5^k.
std::string decimal_of_negative_power(long k) {
    mpz_class five;
    mpz_ui_pow_ui(five.get_mpz_t(), 5, static_cast<unsigned long>(k));
    const std::string digits = five.get_str();
    const long exponent10 = static_cast<long>(digits.size()) - k - 1;
    return digits.substr(0, 1) + "." + digits.substr(1) + fmt::format("e-{:02d}", -exponent10);
}

}  // namespace

TEST_CASE("wide formats' limits and value counts follow IEEE 754's formulas", "[wide]") {
    // IEEE 754-2019 3.3: emax = bias = 2^(w-1) - 1, emin = 1 - emax; max = (2 - 2^(1-p)) 2^emax;
    // 2 (2^w - 1) 2^t - 1 finite values (every exponent field but all ones, +0 and -0 once).
    for (const char* name : {"binary128", "binary256", "e30m1024", "e12m60", "e11m53"}) {
        INFO(name);
        const FormatSpec spec = parse_format(name);
        const long w = spec.exponent_bits, t = spec.mantissa_bits;
        const long emax = (1L << (w - 1)) - 1, emin = 1 - emax;
        const WideFormatProperties p = wide_format_properties(spec);
        CHECK(equals(p.max_finite, pow2(t + 1) - 1, emax - t));
        CHECK_FALSE(p.max_finite.negative);
        CHECK(p.lowest.negative);
        CHECK(p.lowest.significand == p.max_finite.significand);
        CHECK(equals(p.min_normal, 1, emin));
        CHECK(equals(p.min_subnormal, 1, emin - t));
        CHECK(equals(p.epsilon, 1, -t));
        CHECK(equals(p.unit_roundoff, 1, -t - 1));
        CHECK(p.finite_values == 2 * (pow2(w) - 1) * pow2(t) - 1);
        CHECK(p.shape.total_bits == 1 + w + t);
        CHECK(p.shape.bias == emax);
        CHECK(p.shape.decimal_digits == Approx((t + 1) * std::log10(2.0)));
        // log10(max / min subnormal) = (emax + 1 - (emin - t)) log10 2, less a hair for max < 2^(emax+1).
        CHECK(p.shape.dynamic_range_decades == Approx((emax + 1 - emin + t) * std::log10(2.0)).epsilon(1e-12));
        CHECK(p.shape.has_infinity);
        CHECK(p.shape.has_nan);
        CHECK(p.shape.has_subnormals);
    }
    // binary128's max is beyond a double: the shape's nearest doubles say so, the exact value does not.
    const WideFormatProperties quad = wide_format_properties(parse_format("binary128"));
    CHECK(quad.shape.max_finite == INFINITY);
    CHECK(quad.shape.min_subnormal == 0);
    CHECK(quad.shape.bytes_per_value == 16);
    // Flushed subnormals: min subnormal is min normal, 2 (2^t - 1) values fewer.
    const FormatSpec flushed = parse_format("binary128:ftz");
    const WideFormatProperties f = wide_format_properties(flushed);
    CHECK(equals(f.min_subnormal, 1, -16382));
    CHECK(f.finite_values == quad.finite_values - 2 * (pow2(112) - 1));
    CHECK_FALSE(f.shape.has_subnormals);
}

TEST_CASE("within binary64 the wide properties equal format_properties", "[wide]") {
    for (const char* name : {"fp64", "fp32", "fp16", "bf16", "fp8_e5m2", "e11m52:ftz", "binary8p3se", "binary8p1se",
                             "binary8p4ue", "binary8p3sf", "binary16p8se"}) {
        INFO(name);
        const FormatSpec spec = parse_format(name);
        const FormatProperties n = format_properties(spec);
        const WideFormatProperties w = wide_format_properties(spec);
        CHECK(w.shape.max_finite == n.max_finite);
        CHECK(w.shape.lowest == n.lowest);
        CHECK(w.shape.min_normal == n.min_normal);
        CHECK(w.shape.min_subnormal == n.min_subnormal);
        CHECK(w.shape.epsilon == n.epsilon);
        CHECK(w.finite_values == n.finite_values);
        CHECK(w.shape.finite_values == n.finite_values);
        CHECK(w.shape.decimal_digits == n.decimal_digits);
        CHECK(w.shape.dynamic_range_decades == Approx(n.dynamic_range_decades).epsilon(1e-12));
        CHECK(w.shape.has_infinity == n.has_infinity);
        CHECK(w.shape.has_nan == n.has_nan);
        CHECK(w.shape.has_negative_zero == n.has_negative_zero);
        CHECK(w.shape.has_subnormals == n.has_subnormals);
        CHECK(w.shape.bytes_per_value == n.bytes_per_value);
    }
}

TEST_CASE("the named wide formats are binary256 and binary128, widest first", "[wide]") {
    const std::vector<FormatSpec> named = named_wide_formats();
    REQUIRE(named.size() == 2);
    CHECK(named[0].name == "binary256");
    CHECK(named[1].name == "binary128");
}

TEST_CASE("formats the wide path cannot take are refused by name", "[wide]") {
    CHECK_THROWS_WITH(wide_format_properties(parse_format("e12m4fn")), Catch::Contains("e12m4fn"));
}

TEST_CASE("hex floats of wide values are exact and read back", "[wide]") {
    const WideFormatProperties quad = wide_format_properties(parse_format("binary128"));
    CHECK(hex_float(quad.max_finite) == "0x1." + std::string(28, 'f') + "p+16383");
    CHECK(hex_float(quad.min_subnormal) == "0x1p-16494");
    CHECK(hex_float(quad.lowest) == "-0x1." + std::string(28, 'f') + "p+16383");
    WideValue three_eighths = power_of_two(-3);
    three_eighths.significand = 3;
    CHECK(hex_float(three_eighths) == "0x1.8p-2");
    WideValue odd_bits = power_of_two(0);
    odd_bits.significand = 0b100110;  // 38 = 0x1.3p+5, trailing zero bits dropped
    CHECK(hex_float(odd_bits) == "0x1.3p+5");
    CHECK(hex_float(WideValue{}) == "0");
    for (const WideValue& x : {quad.max_finite, quad.min_subnormal, quad.lowest, three_eighths, odd_bits}) {
        const WideValue back = parse_wide_value(hex_float(x), 200);
        CHECK(back.negative == x.negative);
        CHECK(equals(back, x.significand, x.exponent));
    }
}

TEST_CASE("exact text spells every digit up to the limit, the hex float beyond", "[wide]") {
    // 2^-112, binary128's epsilon: 5^112 / 10^112.
    CHECK(exact_text(power_of_two(-112), max_exact_decimal_digits) == decimal_of_negative_power(112));
    CHECK(exact_text(power_of_two(-112), max_exact_decimal_digits) ==
          "1.925929944387235853055977942584927318538101648215388195239938795566558837890625e-34");
    // binary128's min subnormal has 11529 digits; binary256's 2^-262378 some 183000: hex.
    CHECK(exact_text(power_of_two(-16494), max_exact_decimal_digits) == decimal_of_negative_power(16494));
    CHECK(exact_text(power_of_two(-262378), max_exact_decimal_digits) == "0x1p-262378");
    CHECK(exact_text(power_of_two(-112), 40) == "0x1p-112");
    CHECK(exact_text_with_magnitude(power_of_two(-112), 40, 6) == "0x1p-112 exactly, about 1.92593e-34");
    CHECK(exact_text_with_magnitude(power_of_two(-3), 40, 6) == "0.125");
    // An integer: every digit of (2^113 - 1) 2^16271, binary128's max.
    const WideFormatProperties quad = wide_format_properties(parse_format("binary128"));
    const std::string digits = mpz_class((pow2(113) - 1) << 16271).get_str();
    std::string expected = digits.substr(0, 1) + "." + digits.substr(1);
    while (expected.back() == '0') expected.pop_back();
    CHECK(exact_text(quad.max_finite, max_exact_decimal_digits) ==
          expected + fmt::format("e+{}", digits.size() - 1));
    CHECK(significant_text(quad.max_finite, 6) == "1.18973e+4932");  // IEEE 754 binary128's max
    CHECK(count_text(quad.finite_values, 20) == "3.40272e+38");  // 2^128 - 2^113 - 1
    CHECK(count_text(quad.finite_values, 100) == quad.finite_values.get_str());
}
