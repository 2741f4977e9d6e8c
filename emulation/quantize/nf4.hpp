// bitsandbytes blockwise absmax quantization: NF4 (QLoRA) and bitsandbytes' own FP4 code table,
// with the optional double quantization of the absmax values.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "emulation/quantize/block_quantized.hpp"

namespace floatscope::emu {

/// The 16 NormalFloat4 values by code (code 0 = -1, code 7 = 0, code 15 = 1): QLoRA, Dettmers et
/// al. 2023, appendix E, as bitsandbytes stores them (csrc/kernels.cu, nf4_dequantization_lut):
/// the catalog's nf4 format, float32 constants.
const std::array<float, 16>& nf4_code_values();

/// bitsandbytes' FP4 by code, as its kernel decodes it (csrc/kernels.cu, dDequantizeFP4Tree):
/// sign bit 8, magnitudes {0, 0.0625, 8, 12, 4, 6, 2, 3} / 12 for codes 0..7. Not OCP E2M1:
/// exponent bias 3 with the largest binade first, normalized so that the largest magnitude is 1.
const std::array<float, 16>& bnb_fp4_code_values();

/// The 256 values of bitsandbytes' signed 8-bit dynamic map (functional.py create_dynamic_map with
/// signed=True, max_exponent_bits=7, total_bits=8), ascending, which double quantization uses for
/// the absmax values. Computed in double and rounded to float; bitsandbytes computes the means of
/// torch.linspace in float32, so a value may differ from it in the last bit.
const std::array<float, 256>& bnb_dynamic_map_values();

/// Nearest NF4 code of y (in [-1, 1] when y = x / absmax), ties to the lower code as
/// bitsandbytes' decision tree sends them; outside [-1, 1] the end codes. NaN gives code 0.
std::uint8_t nf4_code(float y);
/// bitsandbytes' FP4 code of y: the sign of y, then the nearest magnitude with ties toward zero
/// (its decision tree compares |y| with the midpoints, strictly). NaN gives code 0.
std::uint8_t bnb_fp4_code(float y);

/// Blockwise absmax quantization as bitsandbytes' quantize_4bit does it: per block the FP32
/// absmax, y = x * (1 / absmax) in float, y's nearest code; with double quantization the
/// absmax values minus their mean are quantized in groups of 256 to the 8-bit dynamic map, each
/// group scaled by its FP32 absmax. Value = code value * absmax (float).
/// Deviation: an all-zero block stores code "0" (bitsandbytes computes 0 * (1/0) = NaN there).
/// A NaN in a block makes its absmax, and so the whole block, NaN.
BlockQuantized quantize_absmax(const BlockFormat& format, std::span<const float> x);

}  // namespace floatscope::emu
