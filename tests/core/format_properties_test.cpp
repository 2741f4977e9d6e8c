// Format properties (core/format_properties.hpp) against enumeration of every value and published figures.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/format_properties.hpp"
#include "enumerable_formats.hpp"
#include "mpfr_reference.hpp"
#include "tests/core/published_nf4.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

namespace {

/// What enumerating every pattern says about a format.
struct Census {
    std::uint64_t finite_values = 0;
    double max_finite = 0, lowest = 0, min_positive = 0, min_positive_normal = 0;
    bool infinity = false, nan = false, negative_zero = false, below_normal = false;
};

Census census(const FormatSpec& spec) {
    Census c;
    const std::vector<double> sorted = ref_sorted_values(spec);
    for (double v : sorted)
        if (std::isfinite(v)) ++c.finite_values;
    c.max_finite = sorted.back() == std::numeric_limits<double>::infinity() ? sorted[sorted.size() - 2] : sorted.back();
    c.lowest = sorted.front() == -std::numeric_limits<double>::infinity() ? sorted[1] : sorted.front();
    c.min_positive = *std::upper_bound(sorted.begin(), sorted.end(), 0.0);
    // HiF8's smallest normal is 2^-15, its denormals 2^-22 .. 2^-16 (Luo et al. 2024).
    const double normal_threshold = spec.kind == FormatKind::Binary     ? std::ldexp(1.0, 1 - spec.bias)
                                    : spec.kind == FormatKind::HiFloat8 ? std::ldexp(1.0, -15)
                                                                        : 0.0;
    c.min_positive_normal = *std::lower_bound(sorted.begin(), sorted.end(), std::max(normal_threshold, c.min_positive));
    c.below_normal = c.min_positive < normal_threshold;
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << spec.total_bits()); ++bits) {
        const double v = ref_decode(spec, bits);
        c.nan = c.nan || std::isnan(v);
        c.infinity = c.infinity || std::isinf(v);
        c.negative_zero = c.negative_zero || (v == 0 && std::signbit(v));
    }
    return c;
}

/// The distinct non-NaN values core's decoder gives, ascending.
std::vector<double> decoded_values(const FormatSpec& spec) {
    std::vector<double> values;
    for (std::uint64_t bits : all_bit_patterns(spec)) {
        const Decoded d = decode_bits(spec, bits);
        if (d.value_class != ValueClass::NaN) values.push_back(d.value + 0.0);
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

}  // namespace

TEST_CASE("properties agree with an enumeration of every value", "[properties]") {
    for (const FormatSpec& spec : enumerable_formats()) {
        INFO("format " << spec.name);
        const FormatProperties p = format_properties(spec);
        const Census c = census(spec);
        CHECK(p.total_bits == spec.total_bits());
        CHECK(p.finite_values == c.finite_values);
        CHECK(p.max_finite == c.max_finite);
        CHECK(p.lowest == c.lowest);
        CHECK(p.min_subnormal == c.min_positive);
        CHECK(p.min_normal == c.min_positive_normal);
        CHECK(p.has_infinity == c.infinity);
        CHECK(p.has_nan == c.nan);
        CHECK(p.has_negative_zero == c.negative_zero);
        CHECK(p.has_subnormals == c.below_normal);
        CHECK(p.bytes_per_value == spec.total_bits() / 8.0);
        CHECK(p.gb_per_billion == p.bytes_per_value);
        CHECK(p.dynamic_range_decades == Approx(std::log10(c.max_finite / c.min_positive)).epsilon(1e-12));
        if (spec.kind == FormatKind::Binary) {
            const int M = spec.mantissa_bits;
            CHECK(p.exponent_bits == spec.exponent_bits);
            CHECK(p.mantissa_bits == M);
            CHECK(p.bias == spec.bias);
            CHECK(p.epsilon == std::ldexp(1.0, -M));
            CHECK(p.unit_roundoff == std::ldexp(1.0, -M - 1));
            CHECK(p.decimal_digits == Approx((M + 1) * std::log10(2.0)).epsilon(1e-12));
            // Where 1 and its successor are values, epsilon is the gap between them.
            const std::vector<double> sorted = ref_sorted_values(spec);
            const auto one = std::lower_bound(sorted.begin(), sorted.end(), 1.0);
            if (one != sorted.end() && *one == 1.0 && one + 1 != sorted.end() && std::isfinite(*(one + 1)))
                CHECK(*(one + 1) - 1.0 == p.epsilon);
        } else if (spec.is_tapered()) {
            // The fraction bits at 1, where a tapered format is most precise: epsilon is the gap above 1.
            const std::vector<double> sorted = ref_sorted_values(spec);
            const auto one = std::lower_bound(sorted.begin(), sorted.end(), 1.0);
            CHECK(*(one + 1) - 1.0 == p.epsilon);
            CHECK(p.epsilon == std::ldexp(1.0, -p.mantissa_bits));
        } else {
            CHECK(p.mantissa_bits == 0);
        }
        if (spec.kind == FormatKind::Integer || spec.kind == FormatKind::Lookup)
            CHECK(p.decimal_digits == Approx(std::log10(static_cast<double>(c.finite_values))).epsilon(1e-12));
    }
}

TEST_CASE("published counts, sizes and limits", "[properties][published]") {
    // Distinct finite values, counted by enumeration above and known by heart: fp16 has 63487
    // (65536 patterns, less 2046 NaNs, 2 infinities, -0), OCP E4M3 has 253 (256 less 2 NaNs, -0).
    CHECK(format_properties(parse_format("fp16")).finite_values == 63487);
    CHECK(census(parse_format("fp16")).finite_values == 63487);
    CHECK(format_properties(parse_format("fp8_e4m3")).finite_values == 253);
    CHECK(census(parse_format("fp8_e4m3")).finite_values == 253);
    CHECK(format_properties(parse_format("fp4_e2m1")).finite_values == 15);
    CHECK(format_properties(parse_format("e8m0")).finite_values == 255);
    CHECK(format_properties(parse_format("nf4")).finite_values == 16);
    CHECK(format_properties(parse_format("int8")).finite_values == 256);

    // fp32 and fp64: count finite patterns per exponent field with the hardware's classification.
    std::uint64_t fp32_fields = 0, fp64_fields = 0;
    for (std::uint32_t field = 0; field < 256; ++field) fp32_fields += std::isfinite(std::bit_cast<float>(field << 23));
    for (std::uint64_t field = 0; field < 2048; ++field)
        fp64_fields += std::isfinite(std::bit_cast<double>(field << 52));
    CHECK(format_properties(parse_format("fp32")).finite_values == 2 * (fp32_fields << 23) - 1);
    CHECK(format_properties(parse_format("fp64")).finite_values == 2 * (fp64_fields << 52) - 1);

    CHECK(format_properties(parse_format("fp32")).bytes_per_value == 4);
    CHECK(format_properties(parse_format("fp16")).bytes_per_value == 2);
    CHECK(format_properties(parse_format("bf16")).bytes_per_value == 2);
    CHECK(format_properties(parse_format("int8")).bytes_per_value == 1);
    CHECK(format_properties(parse_format("int4")).bytes_per_value == 0.5);
    CHECK(format_properties(parse_format("fp6_e2m3")).bytes_per_value == 0.75);
    CHECK(format_properties(parse_format("nf4")).gb_per_billion == 0.5);
    // tf32 computes with 19 bits but lives in fp32 registers and memory (NVIDIA A100 whitepaper).
    CHECK(format_properties(parse_format("tf32")).total_bits == 19);
    CHECK(format_properties(parse_format("tf32")).bytes_per_value == 4);

    // The most negative finite value beside max.
    CHECK(format_properties(parse_format("int8")).lowest == -128);
    CHECK(format_properties(parse_format("int4")).lowest == -8);
    CHECK(format_properties(parse_format("uint8")).lowest == 0);
    CHECK(format_properties(parse_format("nf4")).lowest == -1);
    CHECK(format_properties(parse_format("fp8_e4m3")).lowest == -448);
    CHECK(format_properties(parse_format("binary8p4se")).lowest == -224);
    CHECK(format_properties(parse_format("e8m0")).lowest == std::ldexp(1.0, -127));

    const FormatProperties fp32 = format_properties(parse_format("fp32"));
    CHECK(fp32.epsilon == FLT_EPSILON);
    CHECK(fp32.max_finite == FLT_MAX);
    CHECK(fp32.min_normal == FLT_MIN);
    CHECK(fp32.min_subnormal == std::numeric_limits<float>::denorm_min());
    CHECK(fp32.decimal_digits == Approx(7.2247));
    const FormatProperties fp64 = format_properties(parse_format("fp64"));
    CHECK(fp64.epsilon == DBL_EPSILON);
    CHECK(fp64.max_finite == DBL_MAX);
    CHECK(fp64.min_subnormal == std::numeric_limits<double>::denorm_min());
    const FormatProperties fp16 = format_properties(parse_format("fp16"));
    CHECK(fp16.epsilon == 0.0009765625);
    CHECK(fp16.max_finite == 65504);
    CHECK(fp16.min_normal == 6.103515625e-05);
    CHECK(fp16.min_subnormal == 5.9604644775390625e-08);
    CHECK(fp16.dynamic_range_decades == Approx(12.04).margin(0.005));
    CHECK(format_properties(parse_format("bf16")).epsilon == 0.0078125);
    CHECK(format_properties(parse_format("fp8_e4m3")).max_finite == 448);
    CHECK(format_properties(parse_format("fp8_e5m2")).max_finite == 57344);
    CHECK(format_properties(parse_format("e4m3fnuz")).max_finite == 240);
    CHECK(format_properties(parse_format("fp6_e2m3")).max_finite == 7.5);
    CHECK(format_properties(parse_format("fp6_e3m2")).max_finite == 28);

    const FormatProperties int8 = format_properties(parse_format("int8"));
    CHECK(int8.max_finite == 127);
    CHECK_FALSE(int8.has_nan);
    CHECK_FALSE(int8.has_negative_zero);
    const FormatProperties nf4 = format_properties(parse_format("nf4"));
    CHECK(nf4.max_finite == 1);
    CHECK(nf4.min_subnormal == static_cast<double>(0.07958029955625534f));
    CHECK(std::isnan(nf4.epsilon));
    const FormatProperties e8m0 = format_properties(parse_format("e8m0"));
    CHECK(e8m0.max_finite == std::ldexp(1.0, 127));
    CHECK(e8m0.min_subnormal == std::ldexp(1.0, -127));
    CHECK(e8m0.has_nan);
    CHECK_FALSE(e8m0.has_infinity);
    CHECK_FALSE(e8m0.has_subnormals);
}

TEST_CASE("the fp4 E2M1 and NF4 value sets are the published ones", "[properties][published]") {
    // OCP MX v1.0 table: FP4 E2M1 magnitudes.
    const std::vector<double> fp4 = decoded_values(parse_format("fp4_e2m1"));
    const std::vector<double> fp4_published = {-6, -4, -3, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3, 4, 6};
    CHECK(fp4 == fp4_published);
    // QLoRA appendix E / bitsandbytes: the NF4 codes, stored as float32.
    const auto& printed = floatscope::test::published_nf4;
    const FormatSpec nf4 = parse_format("nf4");
    REQUIRE(nf4.code_values.size() == 16);
    for (std::uint64_t i = 0; i < 16; ++i) {
        INFO("code " << i);
        CHECK(decode_bits(nf4, i).value == static_cast<double>(static_cast<float>(printed[i])));
    }
    // E8M0: 2^-127 .. 2^127, 0xFF NaN.
    const FormatSpec e8m0 = parse_format("e8m0");
    const std::vector<double> scales = decoded_values(e8m0);
    REQUIRE(scales.size() == 255);
    for (int e = -127; e <= 127; ++e) CHECK(scales[static_cast<std::size_t>(e + 127)] == std::ldexp(1.0, e));
    CHECK(decode_bits(e8m0, 0xFF).value_class == ValueClass::NaN);
    // OCP E4M3: only S.1111.111 is NaN.
    const FormatSpec e4m3 = parse_format("fp8_e4m3");
    for (std::uint64_t bits = 0; bits < 256; ++bits) {
        INFO("pattern " << bits);
        CHECK((decode_bits(e4m3, bits).value_class == ValueClass::NaN) == (bits == 0x7F || bits == 0xFF));
    }
    const std::vector<double> int8 = decoded_values(parse_format("int8"));
    REQUIRE(int8.size() == 256);
    CHECK(int8.front() == -128);
    CHECK(int8.back() == 127);
}
