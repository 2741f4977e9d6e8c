// emulation/arithmetic at the top of the FP8 formats: saturating (":sat") against non-saturating
// overflow. Non-saturating E4M3 has no infinity, so a result IEEE would make infinite is NaN; E5M2
// has infinities; saturating variants deliver +-max instead. Directed modes that IEEE sends to
// +-max (toward zero, round to odd, and the direction away from the overflow) give max in both.
#include "tests/emulation/arithmetic/arithmetic_test_support.hpp"

namespace {

using namespace arith_test;

constexpr std::uint8_t NX = ref_flags::inexact, OF = ref_flags::overflow, DZ = divide_by_zero_flag;

bool heads_to_infinity(RoundingMode mode, bool negative) {
    switch (mode) {
        case RoundingMode::NearestEven:
        case RoundingMode::NearestAway: return true;
        case RoundingMode::Upward: return !negative;
        case RoundingMode::Downward: return negative;
        default: return false;
    }
}

struct Expected {
    bool nan = false;
    double value = 0;
    std::uint8_t flags = 0;
};

/// Checks apply (and apply_values) on values of the format against a hand-written expectation and
/// against the reference.
void expect(const FormatInfo& f, RoundingMode mode, Operation op, double a, double b, double c, Expected want) {
    const Arithmetic arith(f.spec, floatscope::core::RoundingOptions{mode, Tininess::AfterRounding, nullptr});
    const std::uint64_t bits[3] = {f.encode(a), arity(op) >= 2 ? f.encode(b) : 0, arity(op) >= 3 ? f.encode(c) : 0};
    const auto got = arith.apply(op, bits[0], bits[1], bits[2]);
    const RefResult hand{want.nan, want.nan ? quiet_nan : want.value, want.flags};
    INFO(describe_failure(f, op, bits, mode, Tininess::AfterRounding, "apply", got, hand));
    CHECK(matches(f, got, hand));
    const RefOperand operands[3] = {ref_operand(f, bits[0]), ref_operand(f, bits[1]), ref_operand(f, bits[2])};
    const RefResult reference =
        ref_operation(f, op, operands[0], operands[1], operands[2], mode, Tininess::AfterRounding);
    CHECK(matches(f, got, reference));
    CHECK(agree(f, got, arith.apply_values(op, a, b, c)));
}

/// What an overflow delivers in a format: +-max or the infinite result (inf or NaN), with OF|NX.
Expected overflow(const FormatInfo& f, RoundingMode mode, bool negative) {
    const double max = negative ? -f.max_finite : f.max_finite;
    if (!heads_to_infinity(mode, negative) || f.spec.overflow == floatscope::core::OverflowPolicy::Saturate)
        return {false, max, OF | NX};
    if (f.spec.has_infinity) return {false, negative ? -infinity : infinity, OF | NX};
    return {true, 0, OF | NX};
}

constexpr RoundingMode modes[] = {RoundingMode::NearestEven, RoundingMode::NearestAway, RoundingMode::TowardZero,
                                  RoundingMode::Upward,      RoundingMode::Downward,    RoundingMode::ToOdd};

}  // namespace

TEST_CASE("fp8 overflow: NaN or inf when not saturating, max when saturating", "[arithmetic][overflow]") {
    for (const char* name : {"fp8_e4m3", "fp8_e4m3:sat", "fp8_e5m2", "fp8_e5m2:sat", "e4m3fnuz", "e5m2fnuz"}) {
        const FormatInfo f(name);
        INFO(name);
        const std::string base = f.spec.name.substr(0, f.spec.name.find(':'));
        if (base == "fp8_e4m3") CHECK(f.max_finite == 448);
        if (base == "fp8_e5m2") CHECK(f.max_finite == 57344);
        for (RoundingMode mode : modes) {
            for (double s : {1.0, -1.0}) {
                const double max = s * f.max_finite;
                const Expected far = overflow(f, mode, s < 0);  // every result here is at least 2 max
                expect(f, mode, Operation::Add, max, max, 0, far);
                expect(f, mode, Operation::Sub, max, -max, 0, far);
                expect(f, mode, Operation::Mul, max, 2, 0, far);
                expect(f, mode, Operation::Mul, -max, -max, 0, overflow(f, mode, false));
                expect(f, mode, Operation::Div, max, 0.5, 0, far);
                expect(f, mode, Operation::Fma, max, 2, max, far);
                expect(f, mode, Operation::Fma, max, max, -1, overflow(f, mode, false));
            }
        }
    }
}

TEST_CASE("fp8 overflow threshold: results that round to max do not overflow", "[arithmetic][overflow]") {
    // E4M3: max = 448 = 1.110b x 2^8 (an even significand), the next step would be 480.
    for (const char* name : {"fp8_e4m3", "fp8_e4m3:sat"}) {
        const FormatInfo f(name);
        INFO(name);
        for (double s : {1.0, -1.0}) {
            const bool negative = s < 0;
            const Expected max{false, s * 448, NX};
            // 448 + 16 = 464: the midpoint of 448 and 480. Ties to even keep 448; ties away overflow.
            expect(f, RoundingMode::NearestEven, Operation::Add, s * 448, s * 16, 0, max);
            expect(f, RoundingMode::NearestAway, Operation::Add, s * 448, s * 16, 0,
                   overflow(f, RoundingMode::NearestAway, negative));
            expect(f, RoundingMode::TowardZero, Operation::Add, s * 448, s * 16, 0, max);
            // Round to odd would pick 480, beyond max: an overflow that stops at max.
            expect(f, RoundingMode::ToOdd, Operation::Add, s * 448, s * 16, 0, {false, s * 448, OF | NX});
            // 448 + 8 = 456: below the midpoint, so nearest gives 448; away from zero directed overflows.
            expect(f, RoundingMode::NearestEven, Operation::Add, s * 448, s * 8, 0, max);
            expect(f, RoundingMode::NearestAway, Operation::Add, s * 448, s * 8, 0, max);
            const RoundingMode away = negative ? RoundingMode::Downward : RoundingMode::Upward;
            const RoundingMode toward = negative ? RoundingMode::Upward : RoundingMode::Downward;
            expect(f, away, Operation::Add, s * 448, s * 8, 0, overflow(f, away, negative));
            expect(f, toward, Operation::Add, s * 448, s * 8, 0, max);
            // 240 * 1.875 = 450 (a product just above max): nearest 448, away from zero overflows.
            expect(f, RoundingMode::NearestEven, Operation::Mul, s * 240, 1.875, 0, max);
            expect(f, away, Operation::Mul, s * 240, 1.875, 0, overflow(f, away, negative));
        }
    }
    // E5M2: max = 57344 = 1.11b x 2^15 (an odd significand), so the tie at 61440 goes up to 2^16 and
    // overflows under ties-to-even too.
    for (const char* name : {"fp8_e5m2", "fp8_e5m2:sat"}) {
        const FormatInfo f(name);
        INFO(name);
        for (double s : {1.0, -1.0}) {
            const bool negative = s < 0;
            expect(f, RoundingMode::NearestEven, Operation::Add, s * 57344, s * 4096, 0,
                   overflow(f, RoundingMode::NearestEven, negative));
            expect(f, RoundingMode::NearestAway, Operation::Add, s * 57344, s * 4096, 0,
                   overflow(f, RoundingMode::NearestAway, negative));
            expect(f, RoundingMode::TowardZero, Operation::Add, s * 57344, s * 4096, 0, {false, s * 57344, NX});
            expect(f, RoundingMode::ToOdd, Operation::Add, s * 57344, s * 4096, 0, {false, s * 57344, NX});
            expect(f, RoundingMode::NearestEven, Operation::Add, s * 57344, s * 2048, 0, {false, s * 57344, NX});
        }
    }
}

TEST_CASE("fp8 division by zero: divide-by-zero, inf where the format has it, else NaN or max",
          "[arithmetic][overflow]") {
    for (RoundingMode mode : modes) {
        for (double s : {1.0, -1.0}) {
            // x / 0 is an exact infinity, not an overflow: only divide-by-zero, in every mode.
            expect(FormatInfo("fp8_e4m3"), mode, Operation::Div, s, 0.0, 0, {true, 0, DZ});
            expect(FormatInfo("fp8_e4m3:sat"), mode, Operation::Div, s, 0.0, 0, {false, s * 448, DZ});
            expect(FormatInfo("fp8_e5m2"), mode, Operation::Div, s, 0.0, 0, {false, s * infinity, DZ});
            expect(FormatInfo("fp8_e5m2:sat"), mode, Operation::Div, s, 0.0, 0, {false, s * infinity, DZ});
            // Infinite operands stay infinite in E5M2 with or without saturation (no overflow).
            for (const char* name : {"fp8_e5m2", "fp8_e5m2:sat"}) {
                expect(FormatInfo(name), mode, Operation::Add, s * infinity, 57344, 0, {false, s * infinity, 0});
                expect(FormatInfo(name), mode, Operation::Mul, s * infinity, 0.5, 0, {false, s * infinity, 0});
            }
        }
    }
}
