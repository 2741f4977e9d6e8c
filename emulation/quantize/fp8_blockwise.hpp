// DeepSeek-V3's FP8 blockwise scaling: E4M3 elements, one scale per 1x128 tile or 128x128 block.
#pragma once

#include <span>

#include "emulation/quantize/block_quantized.hpp"

namespace floatscope::emu {

/// The scale of a tile with largest magnitude `amax` as DeepSeek's inference kernels compute it
/// (deepseek-ai DeepSeek-V3.1/V3.2 inference/kernel.py, act_quant: amax = max(amax, 1e-4);
/// s = amax * fl(1/448), or with scale_fmt "ue8m0" fast_round_scale: s = 2^ceil(log2(amax *
/// fl(1/448))), the power of two at or above, read off the FP32 bits: exponent + (mantissa != 0)).
/// The paper (arXiv:2412.19437 section 3.3) gives the scale as the tile's amax over the E4M3 max;
/// the 1e-4 floor keeps an all-zero tile's scale finite. Every operation is in float.
float fp8_blockwise_scale(float amax, bool power_of_two);

/// Quantizes x in blocks of format.block_size consecutive values (the caller lays tiles out
/// contiguously, quantization_scheme.cpp): s per block by fp8_blockwise_scale, elements
/// E4M3(clamp(x / s, -448, 448)) rounded to nearest even, dequantized as element * s. A block
/// holding NaN or an infinity gets a NaN scale (codes 0; the block decodes as NaN). Scale codes:
/// the E8M0 bits with ue8m0 scales, none (FP32 in block_scales) otherwise.
BlockQuantized quantize_fp8_blockwise(const BlockFormat& format, std::span<const float> x);

}  // namespace floatscope::emu
