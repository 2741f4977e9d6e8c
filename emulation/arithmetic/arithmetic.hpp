// Bit-exact scalar arithmetic in any format: the exact result, rounded once, with IEEE flags.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/codec.hpp"
#include "core/format.hpp"
#include "core/rounding.hpp"
#include "emulation/arithmetic/double_path.hpp"

namespace floatscope::emu {

enum class Operation { Add, Sub, Mul, Div, Sqrt, Fma };

/// "add" "sub" "mul" "div" "sqrt" "fma"; parse throws floatscope::Error listing them.
const char* to_string(Operation op);
Operation parse_operation(std::string_view name);
int operand_count(Operation op);

/// How an operation's exact result is obtained (reported, and chosen once per format):
enum class ExactPath {
    /// Operands and results fit double's range with room to spare and p <= 26: one double
    /// operation plus its exact error term (TwoSum; products are exact; the remainder
    /// fma(-q, b, a) for div; fma(-r, r, a) for sqrt) tells on which side of the double the exact
    /// result lies, which decides every rounding to p <= 52 bits (the double is within half an
    /// ulp of the exact value, and the format's rounding points are at least two ulps apart).
    /// Its double operations (and the nearest-even rounding, see split_high) need the default
    /// floating-point environment that programs start in: round to nearest-even, subnormals kept.
    DoubleWithErrorTerm,
    /// Everything else: MPFR computes the result toward zero at 64 bits and reports whether it
    /// was exact; 64 bits and a sticky bit round correctly to any p <= 62.
    Mpfr,
};
const char* to_string(ExactPath path);

/// Arithmetic in one format under fixed rounding options. Results follow IEEE 754-2019 for
/// special operands (NaN propagation quiets, invalid for sNaN, inf - inf, 0 x inf, 0/0, inf/inf,
/// sqrt(x < 0) and fma(0, inf, c) even when c is a quiet NaN, as x86 and SoftFloat do;
/// divide-by-zero for x/0; an exact zero sum is +0, or -0 when rounding downward), and the
/// generalised overflow rule of DESIGN.md for formats without infinities: a result IEEE would
/// make infinite (x/0 too) becomes NaN, or +-max when the format saturates or has no NaN.
class Arithmetic {
public:
    Arithmetic(const core::FormatSpec& spec, core::RoundingOptions options);

    /// On bit patterns of the format (as eval and TestFloat use them).
    core::Rounded apply(Operation op, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) const;
    /// On values of the format (each operand must be a value of the format).
    [[gnu::always_inline]] core::Rounded apply_values(Operation op, double a, double b = 0, double c = 0) const {
        core::Rounded result;
        if (round_normal_fast(nearby_double(op, a, b, c), result)) return result;
        return apply_values_slow(op, a, b, c);
    }

    core::Rounded add(double a, double b) const { return apply_values(Operation::Add, a, b); }
    core::Rounded sub(double a, double b) const { return apply_values(Operation::Sub, a, b); }
    core::Rounded mul(double a, double b) const { return apply_values(Operation::Mul, a, b); }
    core::Rounded div(double a, double b) const { return apply_values(Operation::Div, a, b); }
    core::Rounded sqrt(double a) const { return apply_values(Operation::Sqrt, a); }
    core::Rounded fma(double a, double b, double c) const { return apply_values(Operation::Fma, a, b, c); }

    /// Rounds any double to the format (a conversion): the double is the exact value, so a result
    /// in the normal range takes the operations' fast rounding, the rest the general Rounder (the
    /// same value, bits and flags; tests/emulation/arithmetic/conversion_fast_path_test.cpp).
    core::Rounded round(double x) const {
        core::Rounded result;
        if (round_normal_fast({x, 0}, result)) return result;
        return rounder_(x);
    }

    ExactPath path() const { return path_; }
    const core::FormatSpec& spec() const { return rounder_.spec(); }

    /// A double within half an ulp of an operation's exact result, and the sign of the rest
    /// (see ExactPath::DoubleWithErrorTerm; valid for formats on that path).
    NearbyDouble nearby_double(Operation op, double a, double b, double c) const;

    /// Applies `op` element by element: out[i] = op(a[i], b[i], c[i]) as apply_values gives it (b
    /// and c are read only when the operation has that many operands and must then be as long as a
    /// and out; out must not overlap them). Returns the flags of all the operations together, as
    /// IEEE status flags gather them. Formats on the DoubleWithErrorTerm path take a vectorized
    /// kernel for results in the normal range (emulation/arithmetic/arithmetic_arrays.cpp); the rest go one
    /// by one.
    core::ExceptionFlags apply_arrays(Operation op, std::span<const double> a, std::span<const double> b,
                                      std::span<const double> c, std::span<double> out) const;

private:
    core::Rounded apply_values_slow(Operation op, double a, double b, double c) const;
    core::Rounded compute(Operation op, const core::Decoded& a, const core::Decoded& b, const core::Decoded& c) const;
    /// Rounds near when it lies in the format's normal range (see round_normal); false when the
    /// general Rounder must decide (tiny, overflow, special, non-binary formats).
    bool round_normal_fast(NearbyDouble near, core::Rounded& out) const;

    core::Rounder rounder_;
    ExactPath path_;
    /// How round_normal_fast rounds: not at all (the MPFR path, stochastic modes), nearest-even in
    /// floating point, or another mode on the double's bits. One byte, so that the common case is
    /// chosen by one comparison.
    enum class FastRounding : std::uint8_t { None, NearestEven, OnBits };
    FastRounding fast_ = FastRounding::None;
    NormalRounding normal_;
    /// Format bit pattern of a rounded double: field = double field + offset.
    std::int64_t field_offset_ = 0;
    int mantissa_bits_ = 0;
    int sign_shift_ = 0;
};

// The fast path is inline: a dependent chain of emulated operations should cost a few
// nanoseconds, which a call through the general machinery cannot.

[[gnu::always_inline]] inline NearbyDouble Arithmetic::nearby_double(Operation op, double a, double b, double c) const {
    switch (op) {
        case Operation::Add: return nearby_sum(a, b, normal_.exact_sums);
        case Operation::Sub: return nearby_sum(a, -b, normal_.exact_sums);
        case Operation::Mul: return nearby_product(a, b);
        case Operation::Div: return nearby_quotient(a, b);
        case Operation::Sqrt: return nearby_root(a);
        case Operation::Fma: return nearby_fma(a, b, c, normal_.exact_fmas);
    }
    return {};
}

[[gnu::always_inline]] inline bool Arithmetic::round_normal_fast(NearbyDouble near, core::Rounded& out) const {
    using core::RoundingMode;
    std::uint64_t failed = 0, inexact = 0;
    double value = 0;
    // Nearest-even, the default, first and laid out as the expected path: no jump through a table
    // and no taken branch (a dependent fma chain: 4.9 -> 4.4 ns).
    if (__builtin_expect(fast_ == FastRounding::NearestEven, 1))
        value = round_normal_scalar<RoundingMode::NearestEven>(normal_, near, failed, inexact);
    else if (fast_ == FastRounding::None)
        return false;
    else
        switch (rounder_.options().mode) {
            case RoundingMode::NearestAway:
                value = round_normal_scalar<RoundingMode::NearestAway>(normal_, near, failed, inexact);
                break;
            case RoundingMode::TowardZero:
                value = round_normal_scalar<RoundingMode::TowardZero>(normal_, near, failed, inexact);
                break;
            case RoundingMode::Upward:
                value = round_normal_scalar<RoundingMode::Upward>(normal_, near, failed, inexact);
                break;
            case RoundingMode::Downward:
                value = round_normal_scalar<RoundingMode::Downward>(normal_, near, failed, inexact);
                break;
            case RoundingMode::ToOdd:
                value = round_normal_scalar<RoundingMode::ToOdd>(normal_, near, failed, inexact);
                break;
            default: return false;
        }
    if (failed != 0) return false;
    const auto bits = std::bit_cast<std::uint64_t>(value);
    const std::uint64_t magnitude = bits & ~(std::uint64_t{1} << 63);
    const int M = mantissa_bits_;
    const auto field = static_cast<std::uint64_t>(static_cast<std::int64_t>(magnitude >> 52) + field_offset_);
    const std::uint64_t mantissa = (magnitude >> (52 - M)) & ((std::uint64_t{1} << M) - 1);
    out.value = value;
    out.bits = ((bits >> 63) << sign_shift_) | (field << M) | mantissa;
    out.flags.bits = inexact != 0 ? core::ExceptionFlags::inexact : 0;
    return true;
}

}  // namespace floatscope::emu
