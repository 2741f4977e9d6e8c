// NVFP4 quantization in Transformer Engine's order, in float, a chunk of blocks at a time.
#include "emulation/quantize/nvfp4.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/kernel_clones.hpp"
#include "core/round_array.hpp"
#include "emulation/quantize/block_amax.hpp"
#include "emulation/quantize/element_codec.hpp"

namespace floatscope::emu {

float nvfp4_tensor_encode_scale(float tensor_amax) {
    const float scale = std::fmin(448.0f * 6.0f / tensor_amax, std::numeric_limits<float>::max());
    return tensor_amax == 0.0f || scale == 0.0f ? 1.0f : scale;
}

FLOATSCOPE_KERNEL_CLONES BlockQuantized quantize_nvfp4(const BlockFormat& format, std::span<const float> x,
                                                       core::StochasticSource* random) {
    if (format.family != BlockFamily::Nvfp4) throw Error("quantize_nvfp4: '" + format.name + "' is not NVFP4");
    const core::RoundingMode mode = format.element_rounding;
    if (core::is_stochastic(mode) && random == nullptr)
        throw Error("quantize_nvfp4: stochastic element rounding needs a random source");
    const ElementCodec element_codec(format.element);
    const ElementCodec scale_codec(format.scale);
    const std::size_t n = x.size();
    const std::size_t block = static_cast<std::size_t>(format.block_size);

    const float tensor_amax = block_magnitude(x).amax;  // a NaN never wins
    const bool torchao = format.nvfp4_recipe == Nvfp4Recipe::Torchao;
    // TE: the encode scale S_enc, and s_dec = 1.0 / s_enc, a double quotient stored in a float.
    // torchao: the per-tensor (decode) scale amax / (448 * 6); an all-zero tensor, where torchao's
    // division by it gives NaN, takes 1 so that it stays zero.
    const float torchao_scale = tensor_amax > 0 ? tensor_amax / (448.0f * 6.0f) : 1.0f;
    const float encode = torchao ? torchao_scale : nvfp4_tensor_encode_scale(tensor_amax);
    const float decode = static_cast<float>(1.0 / static_cast<double>(encode));
    constexpr float e4m3_smallest_normal = 0x1p-6f;  // torchao's E4M3_EPS, finfo(float8_e4m3fn).tiny

    BlockQuantized q = BlockQuantized::sized(format, n, true);
    q.tensor_scale = encode;

    constexpr std::size_t chunk = 4096;
    std::vector<float> scaled(chunk);
    std::vector<float> scales(chunk / 16);
    std::vector<unsigned char> nan_block(chunk / 16);
    for (std::size_t start = 0; start < n; start += chunk) {
        const std::size_t length = std::min(chunk, n - start);
        const std::size_t count = (length + block - 1) / block;
        for (std::size_t b = 0; b < count; ++b) {
            const float* in = x.data() + start;
            const auto [amax, nan, special] = block_magnitude({in + b * block, in + std::min(length, (b + 1) * block)});
            nan_block[b] = nan;
            scales[b] =
                torchao ? std::clamp(amax / 6.0f / torchao_scale, e4m3_smallest_normal, 448.0f) : amax / 6.0f * encode;
        }
        // The block scales to E4M3, round to nearest even, saturating (CUDA's satfinite cast).
        const std::span<float> s(scales.data(), count);
        core::round_array(format.scale, core::RoundingMode::NearestEven, std::span<const float>(s), s);
        for (std::size_t b = 0; b < count; ++b) {
            const std::size_t index = start / block + b;
            q.scale_codes[index] =
                nan_block[b] ? scale_codec.encode(std::numeric_limits<double>::quiet_NaN()) : scale_codec.encode(s[b]);
            const std::size_t i0 = b * block;
            const std::size_t i1 = std::min(length, (b + 1) * block);
            if (torchao) {
                // x / (per_tensor_scale * s_b), both factors and the product in float, clamped to +-6.
                const float total = torchao_scale * s[b];
                q.block_scales[index] = nan_block[b] ? std::numeric_limits<float>::quiet_NaN() : total;
                for (std::size_t i = i0; i < i1; ++i) scaled[i] = std::clamp(x[start + i] / total, -6.0f, 6.0f);
                if (nan_block[b]) std::fill(scaled.begin() + i0, scaled.begin() + i1, 0.0f);
                continue;
            }
            const float factor = nan_block[b] || s[b] == 0 ? 0.0f : encode / s[b];
            q.block_scales[index] = nan_block[b] ? std::numeric_limits<float>::quiet_NaN() : s[b] * decode;
            for (std::size_t i = i0; i < i1; ++i) scaled[i] = x[start + i] * factor;
        }
        const std::span<float> values(scaled.data(), length);
        core::round_array(format.element, mode, std::span<const float>(values), values, random);
        element_codec.encode_finite(values, q.codes.data() + start);
    }
    return q;
}

}  // namespace floatscope::emu
