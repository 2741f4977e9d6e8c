// Tests of formats wider than binary64 (core/wide_format, core/wide_rounding, the narrow guard):
// published encodings of binary128 and binary256 (IEEE 754-2019 Table 3.5) and MPFR-computed values.
#include <catch2/catch.hpp>

#include <string>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/format_properties.hpp"
#include "core/format_width.hpp"
#include "core/rounding.hpp"
#include "core/wide_format.hpp"
#include "core/wide_rounding.hpp"
#include "mpfr_reference.hpp"

using namespace floatscope::core;
using floatscope::Error;
using floatscope::test::RefNumber;

namespace {

std::string hex_of(const FormatSpec& spec, const WideRounded& r) { return format_wide_bits_hex(spec, r.bits); }

/// The value of 2^exponent * (2 - 2^-(M)) computed by MPFR, for max-finite checks.
bool decodes_to(const FormatSpec& spec, const std::string& hex, mpfr_srcptr expected) {
    RefNumber value(spec.mantissa_bits + 1);
    decode_wide_bits(spec, parse_wide_bits(spec, hex)).value.to_mpfr(value.get());
    return mpfr_equal_p(value.get(), expected) != 0;
}

/// Rounds a decimal text to the format, nearest-even.
WideRounded encode(const FormatSpec& spec, const std::string& text, RoundingOptions options = {}) {
    return WideRounder(spec, options)(parse_wide_value(text, spec.mantissa_bits + 1 + 65));
}

}  // namespace

TEST_CASE("binary128 and binary256 are named, wide and IEEE-encoded", "[wide]") {
    const FormatSpec quad = parse_format("binary128");
    CHECK(quad.exponent_bits == 15);
    CHECK(quad.mantissa_bits == 112);
    CHECK(quad.bias == 16383);
    CHECK(quad.total_bits() == 128);
    CHECK(is_wider_than_binary64(quad));
    CHECK(parse_format("fp128").exponent_bits == 15);
    CHECK(parse_format("e15m112").mantissa_bits == 112);
    const FormatSpec octuple = parse_format("fp256");
    CHECK(octuple.exponent_bits == 19);
    CHECK(octuple.mantissa_bits == 236);
    CHECK(octuple.bias == 262143);
    CHECK(parse_format("e30m1024").total_bits() == 1055);
    CHECK(parse_format("binary128:sat").overflow == OverflowPolicy::Saturate);
    CHECK_FALSE(is_wider_than_binary64(parse_format("fp64")));
    CHECK_THROWS_WITH(parse_format("e15m112fnuz"), Catch::Contains("IEEE encoding only"));
    CHECK_THROWS_WITH(parse_format("e31m2"), Catch::Contains("1..30"));
    CHECK_THROWS_WITH(parse_format("e5m2000"), Catch::Contains("0..1024"));
}

TEST_CASE("the narrow machinery refuses wide formats with a message naming where they work", "[wide]") {
    const FormatSpec quad = parse_format("binary128");
    for (const char* part : {"binary128", "wider than binary64", "show, encode, decode, convert and eval"}) {
        CHECK_THROWS_WITH(Rounder(quad, {}), Catch::Contains(part));
        CHECK_THROWS_WITH(decode_bits(quad, 0), Catch::Contains(part));
        CHECK_THROWS_WITH(parse_bits(quad, "0"), Catch::Contains(part));
        CHECK_THROWS_WITH(format_bits_hex(quad, 0), Catch::Contains(part));
        CHECK_THROWS_WITH(format_properties(quad), Catch::Contains(part));
    }
}

TEST_CASE("binary128 published encodings", "[wide]") {
    const FormatSpec quad = parse_format("binary128");
    CHECK(hex_of(quad, encode(quad, "1")) == "3FFF0000000000000000000000000000");
    CHECK(hex_of(quad, encode(quad, "-2")) == "C0000000000000000000000000000000");
    // Largest finite: (2 - 2^-112) 2^16383; smallest subnormal 2^-16494.
    RefNumber max(113);
    mpfr_set_ui_2exp(max.get(), 1, 113, MPFR_RNDN);
    mpfr_sub_ui(max.get(), max.get(), 1, MPFR_RNDN);
    mpfr_mul_2si(max.get(), max.get(), 16383 - 112, MPFR_RNDN);
    CHECK(decodes_to(quad, "7FFEFFFFFFFFFFFFFFFFFFFFFFFFFFFF", max.get()));
    RefNumber tiny(113);
    mpfr_set_ui_2exp(tiny.get(), 1, -16494, MPFR_RNDN);
    CHECK(decodes_to(quad, "00000000000000000000000000000001", tiny.get()));
    CHECK(decode_wide_bits(quad, 1).value_class == ValueClass::Subnormal);
    CHECK(hex_of(quad, encode(quad, "0x1p-16494")) == "00000000000000000000000000000001");
    // Half the smallest subnormal ties to even (zero): inexact and underflow.
    const WideRounded half = encode(quad, "0x1p-16495");
    CHECK(hex_of(quad, half) == "00000000000000000000000000000000");
    CHECK(flags_hex(half.flags) == "03");
    // pi to 113 bits, from MPFR's constant at 300 bits.
    RefNumber pi(300);
    mpfr_const_pi(pi.get(), MPFR_RNDN);
    const WideRounded rounded_pi = WideRounder(quad, {})(WideValue::from_mpfr(pi.get()));
    CHECK(hex_of(quad, rounded_pi) == "4000921FB54442D18469898CC51701B8");
    CHECK(flags_hex(rounded_pi.flags) == "01");
    CHECK(format_wide_bits_hex(quad, wide_next_up(quad, parse_wide_bits(quad, "7FFEFFFFFFFFFFFFFFFFFFFFFFFFFFFF"))) ==
          "7FFF0000000000000000000000000000");
    CHECK(format_wide_bits_hex(quad, wide_next_down(quad, 0)) == "80000000000000000000000000000001");
}

TEST_CASE("binary256: ties, overflow and the largest value", "[wide]") {
    const FormatSpec octuple = parse_format("binary256");
    const std::string one = "3FFFF" + std::string(59, '0');
    // 1 + 2^-237 is half an ulp above 1: ties to even give 1; 1 + 3 2^-238 is 3/4 ulp above: up.
    const WideRounded tie = encode(octuple, "0x1." + std::string(59, '0') + "8p0");
    CHECK(hex_of(octuple, tie) == one);
    CHECK(flags_hex(tie.flags) == "01");
    const WideRounded up = encode(octuple, "0x1." + std::string(59, '0') + "Cp0");
    CHECK(hex_of(octuple, up) == "3FFFF" + std::string(58, '0') + "1");
    RefNumber max(237);
    mpfr_set_ui_2exp(max.get(), 1, 237, MPFR_RNDN);
    mpfr_sub_ui(max.get(), max.get(), 1, MPFR_RNDN);
    mpfr_mul_2si(max.get(), max.get(), 262143 - 236, MPFR_RNDN);
    CHECK(decodes_to(octuple, "7FFFE" + std::string(59, 'F'), max.get()));
    const WideRounded overflow = encode(octuple, "0x1p262144");
    CHECK(hex_of(octuple, overflow) == "7FFFF" + std::string(59, '0'));
    CHECK(flags_hex(overflow.flags) == "05");
    RoundingOptions toward_zero;
    toward_zero.mode = RoundingMode::TowardZero;
    CHECK(hex_of(octuple, encode(octuple, "0x1p262144", toward_zero)) == "7FFFE" + std::string(59, 'F'));
    CHECK(hex_of(parse_format("binary256:sat"), encode(parse_format("binary256:sat"), "inf")) ==
          "7FFFF" + std::string(59, '0'));
}

TEST_CASE("wide hex text: padded out, checked in", "[wide]") {
    const FormatSpec quad = parse_format("binary128");
    CHECK(format_wide_bits_hex(quad, parse_wide_bits(quad, "0x1")) == "00000000000000000000000000000001");
    CHECK(format_wide_bits_hex(parse_format("e12m3"), 5) == "0005");
    CHECK_THROWS_WITH(parse_wide_bits(quad, "1" + std::string(32, '0')),
                      Catch::Contains("wider than binary128 (128 bits, at most 32 hex digits)"));
    CHECK_THROWS_WITH(parse_wide_bits(quad, "3FFG"), Catch::Contains("malformed bit pattern '3FFG'"));
    CHECK_THROWS_WITH(parse_wide_bits(quad, ""), Catch::Contains("malformed"));
}
