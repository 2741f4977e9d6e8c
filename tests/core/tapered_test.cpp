// Posits, takums and HiFloat8 (core/tapered_format.hpp, core/tapered_rounding.hpp) against their
// definitions, bit-string midpoints computed with MPFR, and published constants.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/format_properties.hpp"
#include "core/rounding.hpp"
#include "core/tapered_format.hpp"
#include "tapered_reference.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

namespace {

const char* const small_tapered[] = {"posit8", "posit16", "posit8_es0", "posit16_es1", "takum8", "takum16", "hifloat8"};

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

/// The code of -x for a two's complement code x.
std::uint64_t negated(const FormatSpec& spec, std::uint64_t code) {
    return ((std::uint64_t{1} << spec.tapered_bits) - code) & ((std::uint64_t{1} << spec.tapered_bits) - 1);
}

Rounded round_mpfr(const FormatSpec& spec, mpfr_srcptr x, RoundingMode mode) {
    return round_to_format(spec, ExactValue::from_mpfr(x), {mode, Tininess::AfterRounding, nullptr});
}

}  // namespace

TEST_CASE("every code decodes as the definition reads it", "[tapered][codec]") {
    for (const char* name : small_tapered) {
        const FormatSpec spec = parse_format(name);
        INFO("format " << name);
        std::size_t wrong = 0;
        std::vector<std::string> examples;
        for (std::uint64_t bits : all_bit_patterns(spec)) {
            const double got = decode_bits(spec, bits).value, want = tapered_ref_decode(spec, bits);
            if (same(got, want)) continue;
            if (++wrong < 6) examples.push_back(fmt::format("{:X}: {} want {}", bits, got, want));
        }
        INFO(fmt::format("{}", fmt::join(examples, "\n")));
        CHECK(wrong == 0);
    }
}

TEST_CASE("posit constants: maxpos = 2^((n-2) 2^es), minpos, 1, NaR, pIntMax", "[tapered][published]") {
    for (int n = 8; n <= 32; ++n) {
        INFO("posit" << n);
        const FormatSpec spec = parse_format(fmt::format("posit{}", n));
        const FormatProperties p = format_properties(spec);
        CHECK(p.max_finite == std::ldexp(1.0, 4 * (n - 2)));  // es = 2: maxpos = 2^(4(n-2))
        CHECK(p.min_subnormal == std::ldexp(1.0, -4 * (n - 2)));
        CHECK(p.lowest == -p.max_finite);
        const std::uint64_t one = std::uint64_t{1} << (n - 2);  // 0100...0
        CHECK(decode_bits(spec, one).value == 1.0);
        CHECK(decode_bits(spec, std::uint64_t{1} << (n - 1)).value_class == ValueClass::NaN);
        CHECK(p.finite_values == (std::uint64_t{1} << n) - 1);
        // pIntMax, the largest consecutive integer: ceiling(2^floor(4(n-3)/5)) (Posit Standard 2022,
        // as J. Gustafson restates it, Unum Computing group, 27 Sep 2023). Spacing grows with the
        // magnitude, so the integers just below and above it decide.
        const double int_max = std::ldexp(1.0, (4 * (n - 3)) / 5);
        const Rounder rne(spec, {});
        CHECK(rne(int_max).flags.bits == 0);
        CHECK(rne(int_max - 1).flags.bits == 0);
        CHECK(rne(int_max + 1).flags.has(ExceptionFlags::inexact));
    }
    CHECK(parse_format("posit8").total_bits() == 8);
    CHECK(format_properties(parse_format("posit8")).max_finite == 16777216.0);  // 2^24
    CHECK(format_properties(parse_format("posit16")).max_finite == std::ldexp(1.0, 56));
    CHECK(format_properties(parse_format("posit32")).max_finite == std::ldexp(1.0, 120));
    // The drafts' posit<8,0> and posit<16,1>: useed = 2^(2^es), maxpos = useed^(n-2).
    CHECK(format_properties(parse_format("posit8_es0")).max_finite == 64.0);
    CHECK(format_properties(parse_format("posit8_es0")).min_subnormal == 1.0 / 64);
    CHECK(format_properties(parse_format("posit16_es1")).max_finite == std::ldexp(1.0, 28));
    CHECK(format_properties(parse_format("posit16_es1")).min_subnormal == std::ldexp(1.0, -28));
    CHECK(decode_bits(parse_format("posit8"), 0x40).value == 1.0);
    CHECK(decode_bits(parse_format("posit8"), 0xC0).value == -1.0);
    CHECK(decode_bits(parse_format("posit16"), 0x4000).value == 1.0);
    CHECK(decode_bits(parse_format("posit32"), 0x40000000).value == 1.0);
}

TEST_CASE("takum examples worked from the definition, and its bounded range", "[tapered][published]") {
    const FormatSpec t16 = parse_format("takum16");
    // 1 = 0 1 000 (r = 0, no C) M = 0; 2 = 0 1 001 0 (r = 1, C = 0, c = 2^1 - 1); 0.5: D = 0, R = 111.
    CHECK(decode_bits(t16, 0x4000).value == 1.0);
    CHECK(decode_bits(t16, 0x4400).value == 1.5);
    CHECK(decode_bits(t16, 0x4800).value == 2.0);
    CHECK(decode_bits(t16, 0x4A00).value == 3.0);
    CHECK(decode_bits(t16, 0x3800).value == 0.5);
    CHECK(decode_bits(t16, 0xC000).value == -1.0);
    CHECK(decode_bits(t16, 0x8000).value_class == ValueClass::NaN);
    // The characteristic spans -255 .. 254 for every n >= 12 (Hunhold 2024, the takum's constant range).
    for (int n : {12, 16, 24, 32}) {
        const FormatSpec t = parse_format(fmt::format("takum{}", n));
        const int p = n - 12;  // mantissa bits at r = 7
        CHECK(format_properties(t).max_finite == std::ldexp(2.0 - std::ldexp(1.0, -p), 254));
        CHECK(format_properties(t).min_subnormal == std::ldexp(1.0 + std::ldexp(1.0, -p), -255));
    }
    CHECK(format_properties(parse_format("takum8")).max_finite == std::ldexp(1.0, 127 + 112));  // C = 111 0000
}

TEST_CASE("HiFloat8: the paper's code table", "[tapered][published]") {
    const FormatSpec h = parse_format("hifloat8");
    CHECK(decode_bits(h, 0x00).value_class == ValueClass::Zero);
    CHECK(decode_bits(h, 0x80).value_class == ValueClass::NaN);
    CHECK(decode_bits(h, 0x6F).value == std::numeric_limits<double>::infinity());
    CHECK(decode_bits(h, 0xEF).value == -std::numeric_limits<double>::infinity());
    CHECK(decode_bits(h, 0x6E).value == 32768.0);  // the largest finite value
    CHECK(decode_bits(h, 0x01).value == std::ldexp(1.0, -22));  // the smallest denormal
    CHECK(decode_bits(h, 0x07).value == std::ldexp(1.0, -16));
    CHECK(decode_bits(h, 0x08).value == 1.0);  // dot 0001, E = 0
    CHECK(decode_bits(h, 0x0F).value == 1.875);
    // Exponents -22 .. 15, 38 of them, with 3 mantissa bits for |E| <= 3, 2 to 7, 1 to 15, 0 below.
    std::set<int> exponents;
    std::size_t finite = 0;
    for (std::uint64_t c = 0; c < 256; ++c) {
        const double v = decode_bits(h, c).value;
        if (!std::isfinite(v)) continue;
        ++finite;
        if (v > 0) exponents.insert(std::ilogb(v));
    }
    CHECK(exponents.size() == 38);
    CHECK(*exponents.begin() == -22);
    CHECK(*exponents.rbegin() == 15);
    CHECK(finite == 255 - 2);  // +0 once, NaN and +-inf left out
    CHECK(format_properties(h).finite_values == 253);
    CHECK(ulp(h, 0x08) == 0.125);
    CHECK(ulp(h, 0x6E) == 8192.0);  // 32768 - 24576: toward zero at the top
}

TEST_CASE("posits and takums round at the bit-string midpoints, the (n+1)-bit codes 2c + 1", "[tapered][rounding]") {
    for (const char* name : {"posit8", "posit16", "posit8_es0", "posit16_es1", "takum8", "takum16"}) {
        const FormatSpec spec = parse_format(name);
        INFO("format " << name);
        const std::uint64_t max_code = tapered_max_code(spec);
        RefNumber m(256), below(256), above(256), neg(256);
        std::size_t wrong = 0;
        std::vector<std::string> examples;
        for (std::uint64_t c = 0; c < max_code; ++c) {
            const double midpoint = tapered_ref_decode_width(spec, spec.tapered_bits + 1, 2 * c + 1);
            mpfr_set_d(m.get(), midpoint, MPFR_RNDN);
            mpfr_set(below.get(), m.get(), MPFR_RNDN);
            mpfr_nextbelow(below.get());  // 2^-256 relative below: past the 64 bits, in the sticky bit
            mpfr_set(above.get(), m.get(), MPFR_RNDN);
            mpfr_nextabove(above.get());
            const std::uint64_t lo = c == 0 ? 1 : c;  // never to zero: minpos below the first midpoint
            const std::uint64_t even = (c & 1) == 0 ? lo : c + 1;
            const std::uint64_t want[3] = {lo, even, c + 1};
            mpfr_srcptr inputs[3] = {below.get(), m.get(), above.get()};
            for (int i = 0; i < 3; ++i) {
                const Rounded got = round_mpfr(spec, inputs[i], RoundingMode::NearestEven);
                mpfr_neg(neg.get(), inputs[i], MPFR_RNDN);
                const Rounded got_negative = round_mpfr(spec, neg.get(), RoundingMode::NearestEven);
                const bool ok = got.bits == want[i] && got_negative.bits == negated(spec, want[i]);
                if (!ok && ++wrong < 6)
                    examples.push_back(fmt::format("c={:X} input {}: got {:X} / {:X}, want {:X}", c, i, got.bits,
                                                   got_negative.bits, want[i]));
                // Every mode against the reference: all 8-bit pairs, every 29th 16-bit pair (time).
                if (spec.tapered_bits > 8 && c % 29 != 0) continue;
                for (RoundingMode mode : ref_modes) {
                    for (mpfr_srcptr x : {inputs[i], static_cast<mpfr_srcptr>(neg.get())}) {
                        const Rounded r = round_mpfr(spec, x, mode);
                        const RefResult ref = tapered_ref_round(spec, x, mode, Tininess::AfterRounding);
                        if ((same(r.value, ref.value) && r.flags.bits == ref.flags) || ++wrong >= 6) continue;
                        examples.push_back(fmt::format("c={:X} {} {}: got {} flags {:02X}, want {} flags {:02X}", c,
                                                       to_string(mode), mpfr_get_d(x, MPFR_RNDN), r.value, r.flags.bits,
                                                       ref.value, ref.flags));
                    }
                }
            }
        }
        INFO(fmt::format("{}", fmt::join(examples, "\n")));
        CHECK(wrong == 0);
    }
}

TEST_CASE("HiFloat8 rounds at the arithmetic midpoints in every mode", "[tapered][rounding]") {
    const FormatSpec h = parse_format("hifloat8");
    std::vector<double> values;
    for (std::uint64_t c = 0; c < 0x80; ++c)
        if (std::isfinite(tapered_ref_decode(h, c))) values.push_back(tapered_ref_decode(h, c));
    std::sort(values.begin(), values.end());
    values.push_back(49152);  // beyond the top: the overflow threshold's neighbourhood
    values.push_back(65536);
    std::vector<double> inputs = {1e-30, 1e30, 0x1p-23, 0x1p-24};
    for (std::size_t i = 0; i + 1 < values.size(); ++i)
        for (double x : {values[i], 0.5 * (values[i] + values[i + 1])})
            for (double y : {x, std::nextafter(x, 0.0), std::nextafter(x, 1e300)}) inputs.insert(inputs.end(), {y, -y});
    std::size_t wrong = 0;
    std::vector<std::string> examples;
    RefNumber x(64);
    for (Tininess tininess : {Tininess::AfterRounding, Tininess::BeforeRounding})
        for (RoundingMode mode : ref_modes)
            for (double input : inputs) {
                mpfr_set_d(x.get(), input, MPFR_RNDN);
                const Rounded r = round_to_format(h, input, {mode, tininess, nullptr});
                const RefResult ref = tapered_ref_round(h, x.get(), mode, tininess);
                if ((same(r.value, ref.value) && r.flags.bits == ref.flags) || ++wrong >= 6) continue;
                examples.push_back(fmt::format("{} {}: got {} flags {:02X}, want {} flags {:02X}", to_string(mode),
                                               input, r.value, r.flags.bits, ref.value, ref.flags));
            }
    INFO(fmt::format("{}", fmt::join(examples, "\n")));
    CHECK(wrong == 0);
    CHECK(round_to_format(h, 40960.0).value == 32768.0);  // the tie goes to the even code 0x6E
    CHECK(round_to_format(h, 40960.0, {RoundingMode::NearestAway}).value == std::numeric_limits<double>::infinity());
}

TEST_CASE("saturation, NaR and the directed modes at the ends of the range", "[tapered][rounding]") {
    const FormatSpec p16 = parse_format("posit16");
    const Rounded big = round_to_format(p16, 1e30);
    CHECK(big.bits == 0x7FFF);
    CHECK(big.flags.bits == (ExceptionFlags::overflow | ExceptionFlags::inexact));
    CHECK(round_to_format(p16, -1e30).bits == 0x8001);
    CHECK(round_to_format(p16, 1e30, {RoundingMode::Upward}).bits == 0x7FFF);  // never NaR
    const Rounded tiny = round_to_format(p16, 1e-30);
    CHECK(tiny.bits == 0x0001);  // never zero
    CHECK(tiny.flags.bits == (ExceptionFlags::underflow | ExceptionFlags::inexact));
    CHECK(round_to_format(p16, -1e-30).bits == 0xFFFF);
    CHECK(round_to_format(p16, 1e-30, {RoundingMode::TowardZero}).bits == 0);  // directed: still a bound
    CHECK(round_to_format(p16, 1e-30, {RoundingMode::Upward}).bits == 1);
    CHECK(round_to_format(p16, 1e-30, {RoundingMode::ToOdd}).bits == 1);
    const Rounded inf = round_to_format(p16, std::numeric_limits<double>::infinity());
    CHECK(inf.bits == 0x8000);
    CHECK(inf.flags.bits == ExceptionFlags::invalid);
    CHECK(round_to_format(p16, std::numeric_limits<double>::quiet_NaN()).bits == 0x8000);
    CHECK(round_to_format(p16, -0.0).bits == 0);  // one zero
    CHECK(round_to_format(parse_format("takum16"), 1e300).bits == 0x7FFF);
    CHECK(round_to_format(parse_format("takum16"), -1e-300).bits == 0xFFFF);
    const FormatSpec h = parse_format("hifloat8");
    CHECK(round_to_format(h, 1e6).value == std::numeric_limits<double>::infinity());
    CHECK(round_to_format(h, 1e6, {RoundingMode::TowardZero}).value == 32768.0);
    CHECK(round_to_format(h, 0x1p-23).bits == 0);  // the tie between 0 and 2^-22 goes to 0
    CHECK(round_to_format(h, -0x1p-23).bits == 0);
    CHECK(round_to_format(h, 0x1.01p-23).bits == 1);
}

TEST_CASE("stochastic rounding picks a neighbour, reproducibly", "[tapered][rounding][stochastic]") {
    for (const char* name : {"posit16", "takum16", "hifloat8"}) {
        const FormatSpec spec = parse_format(name);
        StochasticSource a(11), b(11);
        const Rounder ra(spec, {RoundingMode::Stochastic, Tininess::AfterRounding, &a});
        const Rounder rb(spec, {RoundingMode::Stochastic, Tininess::AfterRounding, &b});
        int ups = 0;
        for (int i = 0; i < 2000; ++i) {
            const Rounded x = ra(1.3), y = rb(1.3);
            CHECK(x.bits == y.bits);
            const double lo = round_to_format(spec, 1.3, {RoundingMode::TowardZero}).value;
            const double hi = round_to_format(spec, 1.3, {RoundingMode::Upward}).value;
            CHECK((x.value == lo || x.value == hi));
            ups += x.value == hi;
        }
        // Up with probability (1.3 - lo) / (hi - lo), within 5 sigma.
        const double lo = round_to_format(spec, 1.3, {RoundingMode::TowardZero}).value;
        const double hi = round_to_format(spec, 1.3, {RoundingMode::Upward}).value;
        const double p = (1.3 - lo) / (hi - lo);
        CHECK(std::fabs(ups - 2000 * p) < 5 * std::sqrt(2000 * p * (1 - p)) + 1);
    }
}

TEST_CASE("names, fields and validation", "[tapered][names]") {
    CHECK(parse_format("posit8") == posit_format(8, 2));
    CHECK(parse_format("posit8_es2") == posit_format(8, 2));
    CHECK(parse_format("POSIT12").tapered_bits == 12);
    CHECK(parse_format("posit24_es3").exponent_bits == 3);
    CHECK(parse_format("takum24").kind == FormatKind::Takum);
    CHECK(parse_format("hif8") == hifloat8_format());
    CHECK_THROWS_WITH(parse_format("posit7"), Catch::Contains("8..32"));
    CHECK_THROWS_WITH(parse_format("posit16_es5"), Catch::Contains("es 0..4"));
    CHECK_THROWS_WITH(parse_format("takum40"), Catch::Contains("8..32"));
    CHECK_THROWS_WITH(parse_format("posit16:sat"), Catch::Contains("saturate by definition"));
    CHECK_THROWS_WITH(parse_format("posti16"), Catch::Contains("posit16"));
    FormatSpec broken = posit_format(16, 2);
    broken.has_negative_zero = true;
    CHECK_THROWS_AS(validate(broken), Error);
    CHECK(format_bits_fields(parse_format("posit16"), 0x4000) == "0|10|00|00000000000");
    CHECK(format_bits_fields(parse_format("posit16"), 0x7FFF) == "0|111111111111111");
    CHECK(format_bits_fields(parse_format("posit8"), 0x01) == "0|0000001");
    CHECK(format_bits_fields(parse_format("posit8"), 0x5B) == "0|10|11|011");
    CHECK(format_bits_fields(parse_format("takum16"), 0x4A00) == "0|1|001|0|1000000000");
    CHECK(format_bits_fields(parse_format("takum8"), 0x7F) == "0|1|111|111");
    CHECK(format_bits_fields(parse_format("hifloat8"), 0x6E) == "0|11|0111|0");
    CHECK(format_bits_fields(parse_format("hifloat8"), 0x01) == "0|0000|001");
    CHECK(format_bits_fields(parse_format("hifloat8"), 0x1D) == "0|001|1|101");
}
