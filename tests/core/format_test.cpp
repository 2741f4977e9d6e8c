// FormatSpec (core/format.hpp): validation, geometry against enumeration and published limits, integer ranges.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "mpfr_reference.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

namespace {

FormatSpec binary_spec(int E, int M, int bias, NanEncoding nan = NanEncoding::Ieee) {
    FormatSpec f;
    f.name = "probe";
    f.kind = FormatKind::Binary;
    f.exponent_bits = E;
    f.mantissa_bits = M;
    f.bias = bias;
    f.nan_encoding = nan;
    f.has_infinity = nan == NanEncoding::Ieee;
    f.has_negative_zero = nan != NanEncoding::NegativeZero;
    return f;
}

/// validate() throws floatscope::Error whose message names the format and mentions `detail`.
void check_rejected(const FormatSpec& spec, const std::string& detail) {
    try {
        validate(spec);
        FAIL("validate accepted an invalid spec (" << detail << ")");
    } catch (const Error& e) {
        const std::string message = e.what();
        INFO(message);
        CHECK(message.find(spec.name) != std::string::npos);
        CHECK(message.find(detail) != std::string::npos);
    }
}

std::vector<FormatSpec> binary_formats() {
    std::vector<FormatSpec> formats;
    for (const FormatSpec& f : catalog_formats())
        if (f.kind == FormatKind::Binary) formats.push_back(f);
    for (const std::string& name : custom_format_names) {
        const FormatSpec f = parse_format(name);
        if (f.kind == FormatKind::Binary) formats.push_back(f);
    }
    return formats;
}

}  // namespace

TEST_CASE("validate accepts every catalog format and rejects impossible specs", "[format]") {
    for (const FormatSpec& f : catalog_formats()) CHECK_NOTHROW(validate(f));
    CHECK_NOTHROW(validate(binary_spec(5, 10, 15)));
    CHECK_NOTHROW(validate(binary_spec(11, 52, 1023)));

    // Wider than binary64 (E > 11 or M > 52): the IEEE encoding, up to 30 / 1024 bits, inside 2^(+-2^30).
    CHECK_NOTHROW(validate(binary_spec(15, 112, 16383)));
    CHECK_NOTHROW(validate(binary_spec(8, 53, 127)));
    check_rejected(binary_spec(31, 3, (1 << 30) - 1), "31");
    check_rejected(binary_spec(8, 1025, 127), "1025");
    check_rejected(binary_spec(15, 112, 16384, NanEncoding::NegativeZero), "IEEE encoding only");
    check_rejected(binary_spec(30, 3, 0), "bias");
    check_rejected(binary_spec(0, 3, 0), "0");
    check_rejected(binary_spec(5, -1, 15), "-1");
    check_rejected(binary_spec(5, 0, 15), "mantissa");  // IEEE encoding cannot tell inf from NaN with M = 0
    check_rejected(binary_spec(11, 52, 0), "bias");  // values up to 2^2046
    check_rejected(binary_spec(11, 52, 1100), "bias");  // subnormals below 2^-1074
    check_rejected(binary_spec(1, 0, 0, NanEncoding::AllOnes), "e1m0");
    check_rejected(binary_spec(1, 2, 0), "two exponent bits");  // fuzzing: max was taken as 1.75, not 1.5

    // Outside the IEEE encoding infinities sit next to the NaN (P3109's extended formats), so a
    // format without NaN has none, and the IEEE encoding cannot lose its own.
    FormatSpec inf_without_nan = binary_spec(2, 3, 1, NanEncoding::None);
    inf_without_nan.has_infinity = true;
    check_rejected(inf_without_nan, "infinities");
    FormatSpec ieee_without_inf = binary_spec(5, 10, 15);
    ieee_without_inf.has_infinity = false;
    check_rejected(ieee_without_inf, "infinities");
    FormatSpec inf_next_to_nan = binary_spec(4, 3, 7, NanEncoding::AllOnes);
    inf_next_to_nan.has_infinity = true;
    CHECK_NOTHROW(validate(inf_next_to_nan));
    FormatSpec no_normal_left = binary_spec(1, 0, 0, NanEncoding::NegativeZero);
    no_normal_left.has_infinity = true;
    no_normal_left.has_negative_zero = false;
    check_rejected(no_normal_left, "no normal number");
    FormatSpec fnuz_with_negative_zero = binary_spec(4, 3, 8, NanEncoding::NegativeZero);
    fnuz_with_negative_zero.has_negative_zero = true;
    check_rejected(fnuz_with_negative_zero, "fnuz");
    FormatSpec fnuz_unsigned = binary_spec(4, 3, 8, NanEncoding::NegativeZero);
    fnuz_unsigned.has_sign = false;
    check_rejected(fnuz_unsigned, "fnuz");
    FormatSpec no_negative_zero = binary_spec(5, 10, 15);
    no_negative_zero.has_negative_zero = false;
    check_rejected(no_negative_zero, "negative zero");
    FormatSpec unsigned_with_negative_zero = binary_spec(5, 10, 15);
    unsigned_with_negative_zero.has_sign = false;
    check_rejected(unsigned_with_negative_zero, "negative zero");

    FormatSpec integer;
    integer.name = "int-probe";
    integer.kind = FormatKind::Integer;
    integer.integer_bits = 1;
    check_rejected(integer, "1");
    integer.integer_bits = 33;
    check_rejected(integer, "33");
    integer.integer_bits = 2;
    CHECK_NOTHROW(validate(integer));
    integer.integer_bits = 32;
    CHECK_NOTHROW(validate(integer));

    FormatSpec table;
    table.name = "table-probe";
    table.kind = FormatKind::Lookup;
    table.code_values = {0.0, 1.0, 2.0};
    check_rejected(table, "power of two");
    table.code_values = {0.0};
    check_rejected(table, "power of two");
    table.code_values = {0.0, 2.0, 1.0, 3.0};
    check_rejected(table, "ascend");
    table.code_values = {0.0, 1.0, 1.0, 3.0};
    check_rejected(table, "ascend");
    table.code_values = {-1.0, std::numeric_limits<double>::infinity()};  // fuzzing: max finite was inf
    check_rejected(table, "finite");
    table.code_values = {-1.0, 1.0};
    CHECK_NOTHROW(validate(table));

    FormatSpec scale = parse_format("e8m0");
    scale.name = "scale-probe";
    scale.mantissa_bits = 1;
    check_rejected(scale, "mantissa");
    scale.mantissa_bits = 0;
    scale.has_sign = true;
    check_rejected(scale, "sign");
}

TEST_CASE("binary geometry matches the enumerated values", "[format]") {
    for (const FormatSpec& spec : binary_formats()) {
        INFO("format " << spec.name);
        const BinaryGeometry g = binary_geometry(spec);
        const int M = spec.mantissa_bits;
        const std::uint64_t min_normal_pattern = std::uint64_t{1} << M;
        const double min_normal = ref_decode(spec, min_normal_pattern);
        const bool gradual = spec.subnormals == SubnormalPolicy::Gradual && M > 0;
        const double max_finite = ref_max_finite(spec);
        CHECK(g.precision == M + 1);
        CHECK(g.min_normal == min_normal);
        CHECK(g.emin == std::ilogb(min_normal));
        CHECK(g.min_subnormal == (gradual ? ref_decode(spec, 1) : min_normal));
        CHECK(g.max_finite == max_finite);
        CHECK(g.emax == std::ilogb(max_finite));
        CHECK(static_cast<double>(g.max_significand) == std::ldexp(max_finite, M - g.emax));
        CHECK(static_cast<std::uint64_t>(g.max_exponent_field) == (ref_encode(spec, max_finite) >> M));
    }
    const BinaryGeometry e8m0 = binary_geometry(parse_format("e8m0"));
    CHECK(e8m0.emin == -127);
    CHECK(e8m0.emax == 127);
    CHECK(e8m0.max_finite == std::ldexp(1.0, 127));
    CHECK(e8m0.min_normal == std::ldexp(1.0, -127));
    CHECK(e8m0.min_subnormal == std::ldexp(1.0, -127));
}

TEST_CASE("published limits of the catalog formats", "[format][published]") {
    struct Limits {
        const char* name;
        double max_finite, min_normal, min_subnormal;
    };
    // IEEE 754, <cfloat>, OCP OFP8 v1.0, OCP MX v1.0 and ml_dtypes' finfo.
    const Limits published[] = {
        {"fp64", DBL_MAX, DBL_MIN, std::numeric_limits<double>::denorm_min()},
        {"fp32", FLT_MAX, FLT_MIN, std::numeric_limits<float>::denorm_min()},
        {"fp16", 65504, 6.103515625e-05, 5.9604644775390625e-08},
        {"bf16", 3.3895313892515355e38, FLT_MIN, std::ldexp(1.0, -133)},
        {"tf32", 3.4011621342146535e38, FLT_MIN, std::ldexp(1.0, -136)},
        {"fp8_e4m3", 448, 0.015625, 0.001953125},
        {"fp8_e5m2", 57344, 6.103515625e-05, 1.52587890625e-05},
        {"e4m3fnuz", 240, 0.0078125, 0.0009765625},
        {"e5m2fnuz", 57344, 3.0517578125e-05, 7.62939453125e-06},
        {"e4m3b11fnuz", 30, std::ldexp(1.0, -10), std::ldexp(1.0, -13)},
        {"e3m4", 15.5, 0.25, 0.015625},
        {"e4m3", 240, 0.015625, 0.001953125},
        {"fp6_e2m3", 7.5, 1, 0.125},
        {"fp6_e3m2", 28, 0.25, 0.0625},
        {"fp4_e2m1", 6, 1, 0.5},
        {"e8m0", std::ldexp(1.0, 127), std::ldexp(1.0, -127), std::ldexp(1.0, -127)},
    };
    for (const Limits& l : published) {
        INFO("format " << l.name);
        const BinaryGeometry g = binary_geometry(parse_format(l.name));
        CHECK(g.max_finite == l.max_finite);
        CHECK(g.min_normal == l.min_normal);
        CHECK(g.min_subnormal == l.min_subnormal);
    }
    // bf16 and tf32 keep fp32's exponent range.
    const BinaryGeometry fp32 = binary_geometry(parse_format("fp32"));
    for (const char* name : {"bf16", "tf32"}) {
        const BinaryGeometry g = binary_geometry(parse_format(name));
        CHECK(g.emin == fp32.emin);
        CHECK(g.emax == fp32.emax);
        CHECK(g.emin == -126);
        CHECK(g.emax == 127);
    }
    CHECK(static_cast<float>(binary_geometry(parse_format("bf16")).max_finite) == 3.38953139e38f);
    CHECK(static_cast<float>(binary_geometry(parse_format("tf32")).max_finite) == 3.40116213e38f);
}

TEST_CASE("integer ranges are those of two's complement and unsigned integers", "[format]") {
    for (int n = 2; n <= 32; ++n) {
        INFO("bits " << n);
        const IntegerRange s = integer_range(parse_format("int" + std::to_string(n)));
        const IntegerRange u = integer_range(parse_format("uint" + std::to_string(n)));
        CHECK(s.min == -static_cast<std::int64_t>(std::ldexp(1.0, n - 1)));
        CHECK(s.max == static_cast<std::int64_t>(std::ldexp(1.0, n - 1)) - 1);
        CHECK(u.min == 0);
        CHECK(u.max == static_cast<std::int64_t>(std::ldexp(1.0, n)) - 1);
    }
    CHECK(integer_range(parse_format("int8")).min == -128);
    CHECK(integer_range(parse_format("int8")).max == 127);
    CHECK(integer_range(parse_format("int32")).min == INT32_MIN);
    CHECK(integer_range(parse_format("int32")).max == INT32_MAX);
    CHECK(integer_range(parse_format("uint32")).max == UINT32_MAX);
    CHECK(integer_range(parse_format("int3")).min == -4);
}

TEST_CASE("widths, NaN presence and names", "[format]") {
    const std::pair<const char*, int> widths[] = {
        {"fp64", 64},    {"fp32", 32}, {"tf32", 19}, {"bf16", 16}, {"fp16", 16}, {"fp8_e4m3", 8}, {"fp6_e2m3", 6},
        {"fp4_e2m1", 4}, {"e8m0", 8},  {"nf4", 4},   {"int8", 8},  {"uint4", 4}, {"int3", 3}};
    for (const auto& [name, bits] : widths) {
        INFO("format " << name);
        CHECK(parse_format(name).total_bits() == bits);
    }
    CHECK(parse_format("fp16").has_nan());
    CHECK(parse_format("fp8_e4m3").has_nan());
    CHECK(parse_format("e8m0").has_nan());
    CHECK_FALSE(parse_format("fp4_e2m1").has_nan());
    CHECK_FALSE(parse_format("int8").has_nan());
    CHECK_FALSE(parse_format("nf4").has_nan());
    CHECK(std::string(to_string(FormatKind::Binary)) == "binary");
    CHECK(std::string(to_string(FormatKind::Integer)) == "integer");
    CHECK(std::string(to_string(FormatKind::Lookup)) == "lookup");
    CHECK(std::string(to_string(FormatKind::ExponentScale)) == "exponent-scale");
    CHECK(std::string(to_string(NanEncoding::Ieee)) == "ieee");
    CHECK(std::string(to_string(NanEncoding::AllOnes)) == "fn");
    CHECK(std::string(to_string(NanEncoding::NegativeZero)) == "fnuz");
    CHECK(std::string(to_string(NanEncoding::None)) == "none");
}
