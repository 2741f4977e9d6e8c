// DeepSeek-V3 FP8 blockwise quantization: a float scale (or its power of two above) per block, E4M3 elements.
#include "emulation/quantize/fp8_blockwise.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/error.hpp"
#include "core/kernel_clones.hpp"
#include "core/round_array.hpp"
#include "emulation/quantize/block_amax.hpp"
#include "emulation/quantize/element_codec.hpp"

namespace floatscope::emu {

float fp8_blockwise_scale(float amax, bool power_of_two) {
    constexpr float max_inverse = 1.0f / 448.0f;  // fp8_max_inv, rounded to float as the kernel's constant
    const float s = std::max(amax, 1e-4f) * max_inverse;
    if (!power_of_two) return s;
    // fast_log2_ceil: the biased exponent field, one more when any mantissa bit is set (s is
    // normal: at least 1e-4 / 448); fast_pow2 rebuilds 2^e.
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(s);
    const int exponent = static_cast<int>((bits >> 23) & 0xFF) - 127 + ((bits & 0x7FFFFF) != 0 ? 1 : 0);
    return std::ldexp(1.0f, exponent);
}

FLOATSCOPE_KERNEL_CLONES BlockQuantized quantize_fp8_blockwise(const BlockFormat& format, std::span<const float> x) {
    if (format.family != BlockFamily::Fp8Blockwise)
        throw Error("quantize_fp8_blockwise: '" + format.name + "' is not an FP8 blockwise format");
    const bool power_of_two = format.scale.kind != core::FormatKind::Binary;  // e8m0, else fp32
    const ElementCodec codec(format);
    const std::size_t n = x.size();
    const std::size_t block = static_cast<std::size_t>(format.block_size);
    BlockQuantized q = BlockQuantized::sized(format, n, power_of_two);
    std::vector<float> scaled(x.size());
    for (std::size_t b0 = 0, index = 0; b0 < n; b0 += block, ++index) {
        const std::size_t b1 = std::min(n, b0 + block);
        const auto [amax, nan, special] = block_magnitude(x.subspan(b0, b1 - b0));
        if (special) {
            q.block_scales[index] = std::numeric_limits<float>::quiet_NaN();
            if (power_of_two) q.scale_codes[index] = 0xFF;
            continue;  // codes stay 0
        }
        const float s = fp8_blockwise_scale(amax, power_of_two);
        q.block_scales[index] = s;
        if (power_of_two) q.scale_codes[index] = static_cast<std::uint8_t>(std::ilogb(s) + 127);
        for (std::size_t i = b0; i < b1; ++i) scaled[i] = std::clamp(x[i] / s, -448.0f, 448.0f);
    }
    core::round_array(format.element, core::RoundingMode::NearestEven, std::span<const float>(scaled), scaled);
    codec.encode_finite(scaled, q.codes.data());
    return q;
}

}  // namespace floatscope::emu
