// Quantization to and from any block-scaled format: the entry point that dispatches on the family.
#pragma once

#include <span>

#include "core/stochastic_source.hpp"
#include "emulation/quantize/block_quantized.hpp"

namespace floatscope::emu {

/// Quantizes x to `format` (MX, NVFP4, absmax or FP8 blockwise, see mx.hpp, nvfp4.hpp, nf4.hpp,
/// fp8_blockwise.hpp) in blocks of block_size consecutive values: x is one row, so 2-D tiles
/// (tile_rows) are 1 x block_size here; fake_quantize (quantization_scheme.hpp) lays out the tiles
/// of a matrix and applies NVFP4's Hadamard transform. `random` is required when the element
/// rounding is stochastic.
BlockQuantized quantize_blocks(const BlockFormat& format, std::span<const float> x,
                               core::StochasticSource* random = nullptr);

/// out_i = element value of code i * its block's scale, in float. out.size() must equal q.size().
void dequantize_blocks(const BlockQuantized& q, std::span<float> out);

}  // namespace floatscope::emu
