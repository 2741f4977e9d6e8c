// Magnitude extremes by integer minima and maxima over the bit patterns, which order magnitudes as
// their values do.
#include "emulation/accumulation/kernels/magnitude_range.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "core/kernel_clones.hpp"

namespace floatscope::emu::detail {

FLOATSCOPE_KERNEL_CLONES MagnitudeRange magnitude_range(std::span<const float> values) {
    // No magnitude has the sign bit. The smallest as the minimum of magnitude - 1 (unsigned): a zero's
    // wraps above every other, and NaNs' lie above infinity's, so that no minimum from infinity's
    // takes them, without a select (GCC made `magnitude == 0 ? inf : magnitude` a branch). The
    // largest finite as a signed maximum, which GCC vectorizes.
    constexpr std::uint32_t infinity = 0x7F80'0000u;
    std::uint32_t smallest_less_one = infinity - 1;
    std::int32_t largest = 0;
    for (const float v : values) {
        const std::uint32_t magnitude = std::bit_cast<std::uint32_t>(v) & 0x7FFF'FFFFu;
        smallest_less_one = std::min(smallest_less_one, magnitude - 1);
        largest = std::max(largest, static_cast<std::int32_t>(magnitude < infinity ? magnitude : 0));
    }
    return {std::bit_cast<float>(smallest_less_one + 1), std::bit_cast<float>(largest)};
}

}  // namespace floatscope::emu::detail
