// Bit-exact scalar arithmetic in any format: the exact result, rounded once, with IEEE flags.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "core/codec.hpp"
#include "core/format.hpp"
#include "core/rounding.hpp"

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
    core::Rounded apply_values(Operation op, double a, double b = 0, double c = 0) const {
        core::Rounded result;
        if (fast_.enabled && round_normal_fast(nearby_double(op, a, b, c), result)) return result;
        return apply_values_slow(op, a, b, c);
    }

    core::Rounded add(double a, double b) const { return apply_values(Operation::Add, a, b); }
    core::Rounded sub(double a, double b) const { return apply_values(Operation::Sub, a, b); }
    core::Rounded mul(double a, double b) const { return apply_values(Operation::Mul, a, b); }
    core::Rounded div(double a, double b) const { return apply_values(Operation::Div, a, b); }
    core::Rounded sqrt(double a) const { return apply_values(Operation::Sqrt, a); }
    core::Rounded fma(double a, double b, double c) const { return apply_values(Operation::Fma, a, b, c); }

    /// Rounds any double to the format (a conversion).
    core::Rounded round(double x) const { return rounder_(x); }

    ExactPath path() const { return path_; }
    const core::FormatSpec& spec() const { return rounder_.spec(); }

    /// A double within half an ulp of an operation's exact result, and the sign of the rest
    /// (see ExactPath::DoubleWithErrorTerm; valid for formats on that path).
    struct NearbyDouble {
        double value = 0;
        double direction = 0;
    };
    static NearbyDouble nearby_double(Operation op, double a, double b, double c);

private:
    core::Rounded apply_values_slow(Operation op, double a, double b, double c) const;
    core::Rounded compute(Operation op, const core::Decoded& a, const core::Decoded& b, const core::Decoded& c) const;
    /// Rounds s + delta (delta: a sign only, see ExactPath) when s lies in the format's normal
    /// range; false when the general Rounder must decide (tiny, overflow, non-binary formats).
    bool round_normal_fast(NearbyDouble near, core::Rounded& out) const;

    core::Rounder rounder_;
    ExactPath path_;
    /// Precomputed for round_normal_fast, in terms of double bit patterns.
    struct FastRounding {
        bool enabled = false;
        int shift = 0;                    ///< double fraction bits below the format's last bit, plus one
        std::uint64_t min_normal_bits = 0;
        std::uint64_t max_bits = 0;
        std::int64_t field_offset = 0;    ///< format exponent field = double field + offset
        int mantissa_bits = 0;
        int sign_shift = 0;
        core::RoundingMode mode = core::RoundingMode::NearestEven;
        core::Tininess tininess = core::Tininess::AfterRounding;
    } fast_;
};

// The fast path is inline: a dependent chain of emulated operations should cost a few
// nanoseconds, which a call through the general machinery cannot.

inline Arithmetic::NearbyDouble Arithmetic::nearby_double(Operation op, double a, double b, double c) {
    switch (op) {
        case Operation::Sub: b = -b; [[fallthrough]];
        case Operation::Add: {
            const double s = a + b;
            const double b_virtual = s - a;
            return {s, (a - (s - b_virtual)) + (b - b_virtual)};  // TwoSum (Knuth, TAOCP 4.2.2)
        }
        case Operation::Mul: return {a * b, 0};  // at most 2 x 26 significant bits: exact
        case Operation::Div: {
            const double q = a / b;
            return {q, std::fma(-q, b, a) / b};  // the exact quotient is q + remainder / b
        }
        case Operation::Sqrt: {
            const double r = std::sqrt(a);
            return {r, std::fma(-r, r, a)};
        }
        case Operation::Fma: {
            const double product = a * b;  // exact
            const double s = product + c;
            const double c_virtual = s - product;
            return {s, (product - (s - c_virtual)) + (c - c_virtual)};
        }
    }
    return {};
}

inline bool Arithmetic::round_normal_fast(NearbyDouble near, core::Rounded& out) const {
    const std::uint64_t u = std::bit_cast<std::uint64_t>(near.value);
    const std::uint64_t sign = u & (std::uint64_t{1} << 63);
    const std::uint64_t a = u ^ sign;
    // Tiny, huge, zero, infinite and NaN results (and every special operand) go the general way.
    if (!fast_.enabled || a < fast_.min_normal_bits || a > fast_.max_bits) return false;
    // Just below 2^emin, the exact value is tiny before rounding even when the double is 2^emin.
    if (a == fast_.min_normal_bits && near.direction != 0 && fast_.tininess == core::Tininess::BeforeRounding)
        return false;
    const bool negative = sign != 0;
    // One bit below the double's last: 2|s| +- 1 says on which side the exact value lies.
    std::uint64_t twice = a << 1;
    if (near.direction != 0) twice += ((near.direction < 0) == negative) ? 1 : ~std::uint64_t{0};
    const int shift = fast_.shift;
    const std::uint64_t mask = (std::uint64_t{1} << shift) - 1;
    const std::uint64_t half = std::uint64_t{1} << (shift - 1);
    const std::uint64_t rest = twice & mask;
    std::uint64_t kept = twice >> shift;
    bool up = false;
    switch (fast_.mode) {
        case core::RoundingMode::NearestEven: up = rest > half || (rest == half && (kept & 1) != 0); break;
        case core::RoundingMode::NearestAway: up = rest >= half; break;
        case core::RoundingMode::TowardZero: break;
        case core::RoundingMode::Upward: up = rest != 0 && !negative; break;
        case core::RoundingMode::Downward: up = rest != 0 && negative; break;
        case core::RoundingMode::ToOdd: up = rest != 0 && (kept & 1) == 0; break;
        default: return false;
    }
    kept += up ? 1 : 0;
    const std::uint64_t magnitude = (kept << shift) >> 1;
    if (magnitude > fast_.max_bits || magnitude < fast_.min_normal_bits) return false;
    const int M = fast_.mantissa_bits;
    const auto field = static_cast<std::uint64_t>(static_cast<std::int64_t>(magnitude >> 52) + fast_.field_offset);
    const std::uint64_t mantissa = (magnitude >> (52 - M)) & ((std::uint64_t{1} << M) - 1);
    out.value = std::bit_cast<double>(sign | magnitude);
    out.bits = (negative ? std::uint64_t{1} << fast_.sign_shift : 0) | (field << M) | mantissa;
    out.flags.bits = rest != 0 ? core::ExceptionFlags::inexact : 0;
    return true;
}

}  // namespace floatscope::emu
