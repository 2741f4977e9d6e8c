// BlockMagnitude: a block's largest magnitude and whether it holds NaN or an infinity, the input every scale rule
// reads.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

namespace floatscope::emu {

struct BlockMagnitude {
    float amax = 0;  ///< the largest |x| over the finite values and infinities (a NaN never wins std::max)
    bool nan = false;  ///< a NaN among the values
    bool special = false;  ///< a NaN or an infinity among the values
};

/// One pass over a block's values.
inline BlockMagnitude block_magnitude(std::span<const float> values) {
    BlockMagnitude m;
    for (const float v : values) {
        const float a = std::fabs(v);
        m.amax = std::max(m.amax, a);
        m.nan |= std::isnan(a);
        m.special |= !(a <= std::numeric_limits<float>::max());
    }
    return m;
}

/// The largest |x| over the values that are not NaN, on their magnitudes' bits (non-negative floats
/// order as their bit patterns, NaNs above +inf): integer maxima vectorize, where a float max
/// chains one value to the next (a whole tensor's amax, NVFP4's per-tensor scale).
inline float largest_magnitude(std::span<const float> values) {
    constexpr std::uint32_t infinity = 0x7F80'0000u;
    std::uint32_t largest = 0;
    for (const float v : values) {
        const std::uint32_t magnitude = std::bit_cast<std::uint32_t>(v) & 0x7FFF'FFFFu;
        largest = std::max(largest, magnitude <= infinity ? magnitude : 0u);
    }
    return std::bit_cast<float>(largest);
}

}  // namespace floatscope::emu
