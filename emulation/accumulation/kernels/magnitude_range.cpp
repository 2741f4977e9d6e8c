// Magnitude extremes by integer minima and maxima over the bit patterns, which order magnitudes as
// their values do.
#include "emulation/accumulation/kernels/magnitude_range.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "core/kernel_clones.hpp"

namespace floatscope::emu::detail {

FLOATSCOPE_KERNEL_CLONES MagnitudeRange magnitude_range(std::span<const float> values) {
    // Signed: no magnitude has the sign bit, and GCC vectorizes signed 32-bit minima and maxima.
    constexpr std::int32_t infinity = 0x7F80'0000;
    std::int32_t smallest = infinity, largest = 0;
    for (const float v : values) {
        const auto magnitude = static_cast<std::int32_t>(std::bit_cast<std::uint32_t>(v) & 0x7FFF'FFFFu);
        // NaNs' magnitudes lie above infinity's, where no minimum from infinity takes them.
        smallest = std::min(smallest, magnitude == 0 ? infinity : magnitude);
        largest = std::max(largest, magnitude < infinity ? magnitude : 0);
    }
    return {std::bit_cast<float>(smallest), std::bit_cast<float>(largest)};
}

}  // namespace floatscope::emu::detail
