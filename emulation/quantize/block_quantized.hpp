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
    std::vector<std::uint8_t> codes;        ///< element codes, one per value
    /// Per block, the stored scale: E8M0 bits (MX), E4M3 bits (NVFP4), the 8-bit code of the
    /// absmax (absmax with double quantization). Empty for plain absmax, which stores FP32.
    std::vector<std::uint8_t> scale_codes;
    /// Per block, the factor dequantization multiplies element values by (NaN for a NaN scale).
    std::vector<float> block_scales;
    /// NVFP4: the FP32 tensor encode scale S_enc = 448*6/amax. Absmax with double quantization:
    /// the mean subtracted from the absmax values before their quantization. Otherwise 1.
    float tensor_scale = 1;
    /// Absmax with double quantization: the FP32 scale of each group of 256 absmax values.
    std::vector<float> second_level_scales;

    std::size_t size() const { return codes.size(); }
    std::size_t block_count() const { return block_scales.size(); }
};

}  // namespace floatscope::emu
