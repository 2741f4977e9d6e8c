// The smallest nonzero and the largest finite magnitude of an array of floats, in one vectorized pass.
#pragma once

#include <span>

namespace floatscope::emu::detail {

/// The extremes of an operand's magnitudes that decide whether a fast GEMM kernel computes a model
/// exactly (the products' quantum and their largest size).
struct MagnitudeRange {
    float smallest_nonzero = 0;  ///< +inf when no value is nonzero and finite
    float largest_finite = 0;  ///< 0 when no value is finite
};

/// Both extremes of |values|: NaNs count for neither, infinities for the largest finite neither, zeros
/// of either sign for the smallest nonzero neither.
MagnitudeRange magnitude_range(std::span<const float> values);

}  // namespace floatscope::emu::detail
