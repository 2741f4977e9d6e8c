// What a result beyond a format's finite range becomes: the generalised overflow rule of DESIGN.md
// and the saturation modes of IEEE P3109, decided in one place for every rounding path.
#pragma once

#include "core/format.hpp"
#include "core/rounding_mode.hpp"

namespace floatscope::core {

enum class OutOfRange {
    Bound,  ///< the finite end of the range on that side: +-max, or +0 below an unsigned format
    Infinity,  ///< +-inf of the format
    NaN,  ///< the format's NaN (+0 where it has none)
};

/// A finite result whose rounding (with an unbounded exponent) lies above max finite, or below
/// zero in an unsigned format (`negative`).
OutOfRange finite_overflow(const FormatSpec& spec, RoundingMode mode, bool negative);

/// An infinite input of the given sign.
OutOfRange infinite_input(const FormatSpec& spec, bool negative);

}  // namespace floatscope::core
