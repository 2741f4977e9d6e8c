// Published facts about rounding, the NaN and infinity conventions, mode names and flags.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/exception_flags.hpp"
#include "core/rounding.hpp"
#include "core/rounding_mode.hpp"
#include "rounding_checks.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

// ---- (d) published facts about rounding ---------------------------------------------------------

TEST_CASE("typing 100000000 and tiny numbers gives the published results", "[rounding][published]") {
    const Rounded fp16 = round_text("fp16", "100000000");
    CHECK(fp16.value == inf);
    CHECK(fp16.bits == 0x7C00);
    CHECK(fp16.flags.bits == (kOverflow | kInexact));
    const Rounded e4m3 = round_text("fp8_e4m3", "100000000");
    CHECK(std::isnan(e4m3.value));
    CHECK(e4m3.bits == 0x7F);
    CHECK(e4m3.flags.bits == (kOverflow | kInexact));
    const Rounded e4m3_sat = round_text("fp8_e4m3:sat", "100000000");
    CHECK(e4m3_sat.value == 448);
    CHECK(e4m3_sat.bits == 0x7E);
    CHECK(e4m3_sat.flags.bits == (kOverflow | kInexact));
    const Rounded bf16 = round_text("bf16", "100000000");
    CHECK(bf16.value == 100139008);
    CHECK(bf16.bits == 0x4CBF);
    CHECK(bf16.flags.bits == kInexact);

    const Rounded small = round_text("fp16", "1e-8");
    CHECK(small.bits == 0x0000);
    CHECK_FALSE(std::signbit(small.value));
    CHECK(small.flags.bits == (kUnderflow | kInexact));
    const Rounded up = round_text("fp16", "5e-8");
    CHECK(up.bits == 0x0001);
    CHECK(up.value == 5.9604644775390625e-08);
    CHECK(up.flags.bits == (kUnderflow | kInexact));
}

TEST_CASE("the generalised overflow rule", "[rounding][published]") {
    const auto round = [](const char* format, double x, RoundingMode mode) {
        return round_to_format(parse_format(format), x, {mode, Tininess::AfterRounding, nullptr});
    };
    using M = RoundingMode;
    // fn formats: where IEEE gives inf, NaN; directed roundings that IEEE sends to max keep max.
    CHECK(std::isnan(round("fp8_e4m3", 1000, M::NearestEven).value));
    CHECK(std::isnan(round("fp8_e4m3", 1000, M::Upward).value));
    CHECK(round("fp8_e4m3", 1000, M::TowardZero).value == 448);
    CHECK(round("fp8_e4m3", 1000, M::Downward).value == 448);
    CHECK(round("fp8_e4m3", -1000, M::Upward).value == -448);
    CHECK(std::isnan(round("fp8_e4m3", -1000, M::Downward).value));
    // 464 is halfway between 448 (mantissa 110, even) and 480: ties-to-even stays at 448.
    CHECK(round("fp8_e4m3", 464, M::NearestEven).value == 448);
    CHECK(round("fp8_e4m3", 464, M::NearestEven).flags.bits == kInexact);
    CHECK(std::isnan(round("fp8_e4m3", 464.5, M::NearestEven).value));
    // Saturating formats and formats with neither inf nor NaN give +-max.
    CHECK(round("fp8_e4m3:sat", 1000, M::NearestEven).value == 448);
    CHECK(round("fp4_e2m1", 1000, M::NearestEven).value == 6);
    CHECK(round("fp4_e2m1", -7, M::NearestEven).value == -6);
    CHECK(round("fp4_e2m1", -7, M::NearestEven).flags.bits == (kOverflow | kInexact));
    CHECK(round("fp6_e3m2", 1e9, M::Upward).value == 28);
    CHECK(round("fp6_e2m3:ieee", 1e9, M::NearestEven).value == 7.5);
    CHECK(std::isnan(round("e5m2fnuz", 1e6, M::NearestEven).value));
    CHECK(round("e5m2fnuz", 1e6, M::NearestEven).bits == 0x80);
    // IEEE formats: directed roundings toward zero stop at max.
    CHECK(round("fp16", 1e6, M::TowardZero).value == 65504);
    CHECK(round("fp16", 1e6, M::ToOdd).value == 65504);
    CHECK(round("fp16", -1e6, M::Upward).value == -65504);
    CHECK(round("fp16", -1e6, M::Downward).value == -inf);
    CHECK(round("e4m3:sat", 1e6, M::NearestEven).value == 240);
    // No -0: negative results that round to zero give +0.
    const Rounded fnuz_zero = round("e4m3fnuz", -1e-9, M::NearestEven);
    CHECK(fnuz_zero.bits == 0);
    CHECK_FALSE(std::signbit(fnuz_zero.value));
    CHECK(round("e4m3fnuz", -0.0, M::NearestEven).bits == 0);
}

TEST_CASE("tininess after and before rounding differ just below the smallest normal", "[rounding][published]") {
    const FormatSpec fp16 = parse_format("fp16");
    const double x = std::ldexp(1.0, -14) * (1 - std::ldexp(1.0, -12));  // rounds up to 2^-14
    const Rounded after = round_to_format(fp16, x, {RoundingMode::NearestEven, Tininess::AfterRounding, nullptr});
    const Rounded before = round_to_format(fp16, x, {RoundingMode::NearestEven, Tininess::BeforeRounding, nullptr});
    CHECK(after.bits == 0x0400);
    CHECK(after.flags.bits == kInexact);
    CHECK(before.bits == 0x0400);
    CHECK(before.flags.bits == (kUnderflow | kInexact));
    // Exact subnormals raise no underflow (IEEE 754-2019 7.5: only inexact tiny results do).
    CHECK(round_to_format(fp16, std::ldexp(3.0, -24)).flags.bits == 0);
    // Flushed formats: the same x flushes only under tininess before rounding.
    const FormatSpec ftz = parse_format("fp16:ftz");
    CHECK(round_to_format(ftz, x, {RoundingMode::NearestEven, Tininess::AfterRounding, nullptr}).bits == 0x0400);
    CHECK(round_to_format(ftz, x, {RoundingMode::NearestEven, Tininess::BeforeRounding, nullptr}).bits == 0x0000);
    const Rounded flushed = round_to_format(ftz, -std::ldexp(3.0, -24));
    CHECK(flushed.bits == 0x8000);
    CHECK(flushed.flags.bits == (kUnderflow | kInexact));
}

TEST_CASE("NaN and infinity inputs follow the documented conventions", "[rounding][nan]") {
    const double signaling = std::bit_cast<double>(0x7FF0000000000001ULL | (std::uint64_t{0x5A} << 40));
    const double payload = std::bit_cast<double>(0xFFF8000000000000ULL | (std::uint64_t{0x2B5} << 41));
    // IEEE formats: quiet NaN out, the sign and the leading payload bits kept, sNaN raises invalid.
    const Rounded s = round_to_format(parse_format("fp16"), signaling);
    CHECK(std::isnan(s.value));
    CHECK(s.flags.bits == kInvalid);
    CHECK((s.bits & 0x7E00) == 0x7E00);
    const Rounded q = round_to_format(parse_format("fp16"), payload);
    CHECK(q.flags.bits == 0);
    CHECK((q.bits & 0x8000) == 0x8000);
    CHECK((q.bits & 0x7E00) == 0x7E00);
    // fn / fnuz formats: their one NaN; inputs of inf raise invalid.
    const Rounded fn_inf = round_to_format(parse_format("fp8_e4m3"), inf);
    CHECK(std::isnan(fn_inf.value));
    CHECK(fn_inf.flags.bits == kInvalid);
    CHECK(round_to_format(parse_format("e4m3fnuz"), -inf).bits == 0x80);
    CHECK(round_to_format(parse_format("fp8_e4m3:sat"), -inf).value == -448);
    CHECK(round_to_format(parse_format("fp8_e4m3:sat"), -inf).flags.bits == kInvalid);
    // Formats without NaN: NaN gives +0 and invalid; inf gives max and invalid.
    const Rounded none = round_to_format(parse_format("fp4_e2m1"), -qnan);
    CHECK(none.bits == 0);
    CHECK(none.flags.bits == kInvalid);
    CHECK(round_to_format(parse_format("fp4_e2m1"), inf).value == 6);
    CHECK(round_to_format(parse_format("fp4_e2m1"), inf).flags.bits == kInvalid);
    CHECK(round_to_format(parse_format("nf4"), qnan).value == 0);
    CHECK(round_to_format(parse_format("nf4"), qnan).flags.bits == kInvalid);
    CHECK(round_to_format(parse_format("int8"), qnan).value == 0);
    CHECK(round_to_format(parse_format("int8"), -inf).value == -128);
    CHECK(round_to_format(parse_format("int8"), -inf).flags.bits == kInvalid);
    CHECK(std::isnan(round_to_format(parse_format("e8m0"), inf).value));
}

// ---- rounding modes and flags ------------------------------------------------------------------

TEST_CASE("rounding mode names parse and print", "[rounding][names]") {
    const char* names[] = {"rne", "rna", "rtz", "rup", "rdn", "rto", "sr", "sr-equal"};
    for (std::size_t i = 0; i < all_rounding_modes.size(); ++i) {
        CHECK(std::string(to_string(all_rounding_modes[i])) == names[i]);
        CHECK(parse_rounding_mode(names[i]) == all_rounding_modes[i]);
        CHECK(is_stochastic(all_rounding_modes[i]) == (i >= 6));
    }
    try {
        parse_rounding_mode("nearest");
        FAIL("no error");
    } catch (const Error& e) {
        const std::string message = e.what();
        CHECK(message.find("nearest") != std::string::npos);
        CHECK(message.find("rne") != std::string::npos);
        CHECK(message.find("sr-equal") != std::string::npos);
    }
}

TEST_CASE("exception flags print with TestFloat's bits", "[rounding][flags]") {
    CHECK(flags_hex(ExceptionFlags{}) == "00");
    CHECK(flags_hex(ExceptionFlags{0x03}) == "03");
    CHECK(flags_hex(ExceptionFlags{0x1F}) == "1F");
    CHECK(flags_names(ExceptionFlags{}) == "none");
    CHECK(flags_names(ExceptionFlags{0x03}) == "inexact|underflow");
    CHECK(flags_names(ExceptionFlags{0x14}) == "overflow|invalid");
    ExceptionFlags f;
    f.raise(ExceptionFlags::divide_by_zero);
    CHECK(f.has(ExceptionFlags::divide_by_zero));
    CHECK(flags_hex(f) == "08");
}
