// Codec (core/codec.hpp): every pattern of every small format decoded and re-encoded, neighbours, ulp, hex and fields.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/rounding.hpp"
#include "enumerable_formats.hpp"
#include "mpfr_reference.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

namespace {

bool same_double(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

/// The class a pattern has by definition.
ValueClass expected_class(const FormatSpec& spec, double value) {
    if (std::isnan(value)) return ValueClass::NaN;
    if (std::isinf(value)) return ValueClass::Infinite;
    if (value == 0) return ValueClass::Zero;
    if (spec.kind == FormatKind::Binary && std::fabs(value) < std::ldexp(1.0, 1 - spec.bias))
        return ValueClass::Subnormal;
    // HiF8's denormal codes (dot 0000) hold 2^-22 .. 2^-16, below its smallest normal 2^-15.
    if (spec.kind == FormatKind::HiFloat8 && std::fabs(value) < std::ldexp(1.0, -15)) return ValueClass::Subnormal;
    return ValueClass::Normal;
}

/// The next distinct value above v in an ascending list of the format's values (v itself at the top).
double value_above(const std::vector<double>& sorted, double v) {
    const auto it = std::upper_bound(sorted.begin(), sorted.end(), v);
    return it == sorted.end() ? v : *it;
}

double value_below(const std::vector<double>& sorted, double v) {
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), v);
    return it == sorted.begin() ? v : *(it - 1);
}

}  // namespace

// ---- (a) decode and re-encode every pattern ------------------------------------------------------

TEST_CASE("every pattern decodes to the value of its fields and re-encodes to itself", "[codec][all-patterns]") {
    for (const FormatSpec& spec : enumerable_formats()) {
        INFO("format " << spec.name);
        const Rounder nearest(spec, {});
        std::size_t wrong_value = 0, wrong_class = 0, wrong_round_trip = 0;
        std::vector<std::string> examples;
        for (std::uint64_t bits : all_bit_patterns(spec)) {
            const Decoded d = decode_bits(spec, bits);
            const double want = ref_decode(spec, bits);
            if (!same_double(d.value, want) || (d.negative != std::signbit(want) && !std::isnan(want))) {
                ++wrong_value;
                if (examples.size() < 8)
                    examples.push_back(
                        fmt::format("{:X}: decoded {} want {}", bits, hex_double(d.value), hex_double(want)));
            }
            if (d.value_class != expected_class(spec, want)) ++wrong_class;
            // Re-encoding: values to themselves, NaN to a NaN, flushed subnormal patterns to zero.
            const Rounded again = nearest(d.exact());
            bool round_trip = false;
            if (std::isnan(want)) {
                round_trip = ref_is_nan_pattern(spec, again.bits);
            } else if (want == 0) {
                round_trip = again.bits == ref_encode(spec, want) && again.flags.bits == 0;
            } else {
                round_trip = again.bits == bits && again.flags.bits == 0 && same_double(again.value, want);
            }
            if (!round_trip) {
                ++wrong_round_trip;
                if (examples.size() < 8)
                    examples.push_back(
                        fmt::format("{:X}: re-encoded as {:X} flags {:02X}", bits, again.bits, again.flags.bits));
            }
        }
        INFO(fmt::format("{}", fmt::join(examples, "\n")));
        CHECK(wrong_value == 0);
        CHECK(wrong_class == 0);
        CHECK(wrong_round_trip == 0);
    }
}

TEST_CASE("wide formats decode as their fields say", "[codec]") {
    for (const char* name : {"fp32", "tf32", "fp64", "int32", "uint32"}) {
        const FormatSpec spec = parse_format(name);
        INFO("format " << name);
        std::uint64_t state = 88172645463325252ULL;
        std::size_t wrong = 0;
        for (int i = 0; i < 20000; ++i) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            const std::uint64_t bits =
                spec.total_bits() >= 64 ? state : state & ((std::uint64_t{1} << spec.total_bits()) - 1);
            const double want = ref_decode(spec, bits);
            if (!same_double(decode_bits(spec, bits).value, want)) ++wrong;
            if (spec.kind == FormatKind::Binary && spec.total_bits() == 32 && !std::isnan(want))
                CHECK(decode_bits(spec, bits).value ==
                      static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits))));
        }
        CHECK(wrong == 0);
    }
}

TEST_CASE("NaN patterns report quietness and payload", "[codec]") {
    const FormatSpec fp16 = parse_format("fp16");
    const Decoded signaling = decode_bits(fp16, 0x7C01);
    CHECK(signaling.value_class == ValueClass::NaN);
    CHECK(signaling.signaling);
    CHECK(signaling.nan_payload == std::uint64_t{1} << (64 - 9));
    const Decoded quiet = decode_bits(fp16, 0xFE00);
    CHECK_FALSE(quiet.signaling);
    CHECK(quiet.negative);
    CHECK(quiet.nan_payload == 0);
    CHECK(decode_bits(parse_format("fp8_e4m3"), 0x7F).value_class == ValueClass::NaN);
    CHECK(decode_bits(parse_format("fp8_e4m3"), 0x7E).value == 448);
    CHECK(decode_bits(parse_format("e4m3fnuz"), 0x80).value_class == ValueClass::NaN);
    CHECK(decode_bits(parse_format("e8m0"), 0xFF).value_class == ValueClass::NaN);
    CHECK(std::string(to_string(ValueClass::Subnormal)) == "subnormal");
    CHECK(std::string(to_string(ValueClass::Infinite)) == "inf");
}

TEST_CASE("patterns wider than the format are rejected", "[codec]") {
    CHECK_THROWS_AS(decode_bits(parse_format("fp16"), 0x10000), Error);
    CHECK_THROWS_AS(decode_bits(parse_format("fp4_e2m1"), 0x10), Error);
    CHECK_THROWS_AS(next_up(parse_format("fp8_e4m3"), 0x100), Error);
    CHECK_THROWS_AS(all_bit_patterns(parse_format("fp32")), Error);
    CHECK(all_bit_patterns(parse_format("fp4_e2m1")).size() == 16);
}

// ---- (e) neighbours and ulp ------------------------------------------------------------------

TEST_CASE("next_up and next_down walk every value in ascending order", "[codec][all-patterns]") {
    for (const FormatSpec& spec : enumerable_formats()) {
        INFO("format " << spec.name);
        const std::vector<double> sorted = ref_sorted_values(spec);
        // Walk up from the lowest value and down from the highest.
        std::vector<double> up, down;
        std::uint64_t bits = ref_encode(spec, sorted.front());
        for (std::size_t steps = 0; steps <= sorted.size() + 2; ++steps) {
            up.push_back(ref_decode(spec, bits) + 0.0);  // + 0.0: -0 and +0 count as one value
            const std::uint64_t next = next_up(spec, bits);
            if (next == bits) break;
            bits = next;
        }
        bits = ref_encode(spec, sorted.back());
        for (std::size_t steps = 0; steps <= sorted.size() + 2; ++steps) {
            down.push_back(ref_decode(spec, bits) + 0.0);
            const std::uint64_t next = next_down(spec, bits);
            if (next == bits) break;
            bits = next;
        }
        std::reverse(down.begin(), down.end());
        // The walk may pass -0 and +0 one after the other; they are the same value.
        up.erase(std::unique(up.begin(), up.end()), up.end());
        down.erase(std::unique(down.begin(), down.end()), down.end());
        CHECK(up == sorted);
        CHECK(down == sorted);

        // From every pattern, not only those on the walk: NaN stays, values move by one value.
        std::size_t wrong = 0;
        std::vector<std::string> examples;
        for (std::uint64_t p : all_bit_patterns(spec)) {
            const double v = ref_decode(spec, p);
            const std::uint64_t u = next_up(spec, p), d = next_down(spec, p);
            bool ok = true;
            if (std::isnan(v)) {
                ok = u == p && d == p;
            } else {
                ok = ref_decode(spec, u) == value_above(sorted, v) && ref_decode(spec, d) == value_below(sorted, v);
            }
            if (!ok) {
                ++wrong;
                if (examples.size() < 6) examples.push_back(fmt::format("{:X}: up {:X} down {:X}", p, u, d));
            }
        }
        INFO(fmt::format("{}", fmt::join(examples, "\n")));
        CHECK(wrong == 0);
    }
}

TEST_CASE("ulp is 2^(max(e, emin) - M), the gap above the value", "[codec]") {
    for (const FormatSpec& spec : enumerable_formats()) {
        INFO("format " << spec.name);
        const std::vector<double> sorted = ref_sorted_values(spec);
        const double top = ref_max_finite(spec);
        std::size_t wrong = 0;
        for (std::uint64_t p : all_bit_patterns(spec)) {
            const double v = ref_decode(spec, p);
            const double got = ulp(spec, p);
            if (!std::isfinite(v)) {
                wrong += !std::isnan(got);
                continue;
            }
            const double magnitude = std::fabs(v);
            double want = 0;
            switch (spec.kind) {
                case FormatKind::Binary: {
                    const int emin = 1 - spec.bias;
                    const int e = magnitude == 0 ? emin : std::max(std::ilogb(magnitude), emin);
                    want = std::ldexp(1.0, e - spec.mantissa_bits);
                    // Gradual formats: that is the gap to the next value up (below max).
                    const bool gradual =
                        spec.subnormals == SubnormalPolicy::Gradual || magnitude >= std::ldexp(1.0, emin);
                    if (gradual && magnitude < top) wrong += value_above(sorted, magnitude) - magnitude != want;
                    break;
                }
                case FormatKind::Integer: want = 1; break;
                case FormatKind::ExponentScale: want = v; break;
                case FormatKind::Lookup:
                    want = v < sorted.back() ? value_above(sorted, v) - v : v - value_below(sorted, v);
                    break;
                case FormatKind::Posit:
                case FormatKind::Takum:
                case FormatKind::HiFloat8:
                    // The gap away from zero, or toward zero at the largest finite magnitude.
                    want = magnitude < top ? value_above(sorted, magnitude) - magnitude
                                           : magnitude - value_below(sorted, magnitude);
                    break;
            }
            wrong += got != want;
        }
        CHECK(wrong == 0);
    }
    CHECK(ulp(parse_format("fp16"), 0x3C00) == std::ldexp(1.0, -10));
    CHECK(ulp(parse_format("fp16"), 0x0001) == std::ldexp(1.0, -24));
    CHECK(ulp(parse_format("fp32"), 0x3F800000) == std::ldexp(1.0, -23));
    CHECK(std::isnan(ulp(parse_format("fp16"), 0x7C00)));
}

// ---- hex text and fields -----------------------------------------------------------------------

TEST_CASE("parse_bits reads hex and names malformed or too wide text", "[codec]") {
    const FormatSpec fp16 = parse_format("fp16");
    CHECK(parse_bits(fp16, "3C00") == 0x3C00);
    CHECK(parse_bits(fp16, "0x3c00") == 0x3C00);
    CHECK(parse_bits(fp16, "0X3C00") == 0x3C00);
    CHECK(parse_bits(fp16, "00003C00") == 0x3C00);
    CHECK(parse_bits(fp16, "0") == 0);
    CHECK(parse_bits(fp16, "ffff") == 0xFFFF);
    CHECK(parse_bits(parse_format("fp4_e2m1"), "f") == 0xF);
    CHECK(parse_bits(parse_format("fp64"), "7FF0000000000000") == 0x7FF0000000000000ULL);
    for (const char* bad : {"", "0x", "3G00", "-1", " 3C00", "3C 00", "3C00h", "0x-1", "+3C00", "3.0"}) {
        INFO("text '" << bad << "'");
        try {
            parse_bits(fp16, bad);
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(std::string(e.what()).find(std::string("'") + bad + "'") != std::string::npos);
        }
    }
    for (const char* wide : {"10000", "1FFFF", "0x10000", "12345678901234567"}) {
        INFO("text '" << wide << "'");
        try {
            parse_bits(fp16, wide);
            FAIL("no error");
        } catch (const Error& e) {
            const std::string message = e.what();
            CHECK(message.find(wide) != std::string::npos);
            CHECK(message.find("fp16") != std::string::npos);
        }
    }
    CHECK_THROWS_AS(parse_bits(parse_format("fp4_e2m1"), "10"), Error);
    CHECK_THROWS_AS(parse_bits(parse_format("fp6_e2m3"), "40"), Error);
    CHECK_THROWS_AS(parse_bits(parse_format("fp64"), "10000000000000000"), Error);
}

TEST_CASE("bit patterns print as padded hex and as fields", "[codec]") {
    CHECK(format_bits_hex(parse_format("fp16"), 0x3C00) == "3C00");
    CHECK(format_bits_hex(parse_format("fp16"), 0x1) == "0001");
    CHECK(format_bits_hex(parse_format("fp32"), 0x3DCCCCCD) == "3DCCCCCD");
    CHECK(format_bits_hex(parse_format("fp8_e4m3"), 0x7) == "07");
    CHECK(format_bits_hex(parse_format("fp6_e2m3"), 0x3F) == "3F");
    CHECK(format_bits_hex(parse_format("fp4_e2m1"), 0x7) == "7");
    CHECK(format_bits_hex(parse_format("int3"), 0x5) == "5");

    CHECK(format_bits_fields(parse_format("fp16"), 0x3C00) == "0|01111|0000000000");
    CHECK(format_bits_fields(parse_format("fp32"), 0xBF800000) == "1|01111111|00000000000000000000000");
    CHECK(format_bits_fields(parse_format("fp8_e4m3"), 0x7E) == "0|1111|110");
    CHECK(format_bits_fields(parse_format("e5m2fnuz"), 0x80) == "1|00000|00");
    CHECK(format_bits_fields(parse_format("fp4_e2m1"), 0x7) == "0|11|1");
    CHECK(format_bits_fields(parse_format("e4m0fn"), 0x1F) == "1|1111");
    CHECK(format_bits_fields(parse_format("int8"), 0x80) == "10000000");
    CHECK(format_bits_fields(parse_format("e8m0"), 0x7F) == "01111111");
    CHECK(format_bits_fields(parse_format("nf4"), 0x7) == "0111");
}
