// BlockMagnitude: a block's largest magnitude and whether it holds NaN or an infinity, the input every scale rule
// reads.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>

namespace floatscope::emu {

struct BlockMagnitude {
    float amax = 0;  ///< the largest |x| over the finite values and infinities (never a NaN)
    bool nan = false;  ///< a NaN among the values
    bool special = false;  ///< a NaN or an infinity among the values
};

/// One pass over a block's values, on their magnitudes' bits: non-negative floats order as their
/// bit patterns do, NaNs above +inf. Integer maxima vectorize, where a float max chains each value
/// to the last (GCC 12 vectorizes the signed maximum, not the unsigned one: magnitudes are below
/// 2^31 either way).
inline BlockMagnitude block_magnitude(std::span<const float> values) {
    constexpr std::int32_t infinity = 0x7F80'0000;
    std::int32_t largest = 0, largest_number = 0;  // over all values; over those not NaN
    for (const float v : values) {
        const std::int32_t magnitude = std::bit_cast<std::int32_t>(v) & 0x7FFF'FFFF;
        largest = std::max(largest, magnitude);
        largest_number = std::max(largest_number, magnitude <= infinity ? magnitude : 0);
    }
    return {std::bit_cast<float>(largest_number), largest > infinity, largest >= infinity};
}

}  // namespace floatscope::emu
