// The overflow rules; P3109 references are to its Interim Report v4.0, 4.7.5 (Saturate), where
// M^lo is -max (signed) or 0 (unsigned) and M^hi is max.
#include "core/out_of_range.hpp"

#include "core/rounding_decision.hpp"

namespace floatscope::core {

OutOfRange finite_overflow(const FormatSpec& spec, RoundingMode mode, bool negative) {
    if (negative && !spec.has_sign) {
        // FloatScope's unsigned floats call a negative result invalid. P3109 clamps it to M^lo = 0
        // when saturating, and under SatNone when rounding toward zero or upward; else NaN.
        if (!spec.is_p3109()) return OutOfRange::NaN;
        if (spec.overflow != OverflowPolicy::Ieee) return OutOfRange::Bound;
        return mode == RoundingMode::TowardZero || mode == RoundingMode::Upward ? OutOfRange::Bound : OutOfRange::NaN;
    }
    if (spec.overflow != OverflowPolicy::Ieee) return OutOfRange::Bound;
    bool heads_to_infinity = overflow_heads_to_infinity(mode, negative);
    // P3109's SatNone stops at M^hi only for the directions toward zero; round-to-odd goes on to
    // infinity (or NaN), except in unsigned extended formats, whose M^hi is the odd code below +inf.
    if (spec.is_p3109() && mode == RoundingMode::ToOdd) heads_to_infinity = spec.has_sign || !spec.has_infinity;
    if (!heads_to_infinity) return OutOfRange::Bound;
    if (spec.has_infinity) return OutOfRange::Infinity;
    return spec.has_nan() ? OutOfRange::NaN : OutOfRange::Bound;
}

OutOfRange infinite_input(const FormatSpec& spec, bool negative) {
    if (negative && !spec.has_sign) {
        // P3109 saturates -inf to M^lo = 0 (SatFinite, and SatPropagate, as no -inf exists).
        return spec.is_p3109() && spec.overflow != OverflowPolicy::Ieee ? OutOfRange::Bound : OutOfRange::NaN;
    }
    if (spec.overflow == OverflowPolicy::SaturateFinite) return OutOfRange::Bound;
    if (spec.has_infinity) return OutOfRange::Infinity;
    if (spec.overflow == OverflowPolicy::Saturate || !spec.has_nan()) return OutOfRange::Bound;
    return OutOfRange::NaN;
}

}  // namespace floatscope::core
