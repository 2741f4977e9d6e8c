// BlockQuantized: a tensor in a block-scaled format, as element codes, block scales and tensor scales.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "emulation/quantize/block_format.hpp"

namespace floatscope::emu {

/// The stored form of a tensor in a BlockFormat. Value i is element_value(codes[i]) *
/// block_scales[i / block_size]; the last block may be partial. Codes are kept one per byte here;
/// packing.hpp packs them into a bit stream and counts the exact storage.
struct BlockQuantized {
    BlockFormat format;
    std::vector<std::uint8_t> codes;  ///< element codes, one per value
    /// Per block, the stored scale: E8M0 bits (MX, fp8_blockwise:ue8m0), E4M3 bits (NVFP4), the
    /// 8-bit code of the absmax (absmax with double quantization). Empty for plain absmax and FP32
    /// fp8_blockwise, which store FP32 (block_scales).
    std::vector<std::uint8_t> scale_codes;
    /// Per block, the factor dequantization multiplies element values by (NaN for a NaN scale).
    std::vector<float> block_scales;
    /// NVFP4: the FP32 tensor encode scale S_enc = 448*6/amax (torchao's recipe: its decode scale
    /// amax/(448*6)). Absmax with double quantization:
    /// the mean subtracted from the absmax values before their quantization. Otherwise 1.
    float tensor_scale = 1;
    /// Absmax with double quantization: the FP32 scale of each group of 256 absmax values.
    std::vector<float> second_level_scales;

    /// n values of `format` to be filled in: codes and block scales sized (the last block partial),
    /// and the scale codes where the format stores its scales as codes.
    static BlockQuantized sized(const BlockFormat& format, std::size_t n, bool with_scale_codes) {
        const std::size_t block = static_cast<std::size_t>(format.block_size);
        const std::size_t blocks = (n + block - 1) / block;
        BlockQuantized q;
        q.format = format;
        q.codes.resize(n);
        q.block_scales.resize(blocks);
        if (with_scale_codes) q.scale_codes.resize(blocks);
        return q;
    }

    std::size_t size() const { return codes.size(); }
    std::size_t block_count() const { return block_scales.size(); }
};

}  // namespace floatscope::emu
