// NVIDIA NVFP4: E2M1 elements in blocks of 16, an E4M3 block scale and an FP32 tensor scale.
#pragma once

#include <span>

#include "core/stochastic_source.hpp"
#include "emulation/quantize/block_quantized.hpp"

namespace floatscope::emu {

/// The tensor encode scale as Transformer Engine computes it (common/cast/nvfp4/core_nvfp4.cuh,
/// compute_global_encode_scaling_factor_FP4): S_enc = 448 * 6 / amax in float, at most FLT_MAX,
/// and 1 when amax is 0 or S_enc comes out 0 (amax infinite).
float nvfp4_tensor_encode_scale(float tensor_amax);

/// Quantizes to NVFP4 in Transformer Engine's order (NVIDIA, "Introducing NVFP4 for Efficient
/// and Accurate Low-Precision Inference", 2025; TE's reference quantize_nvfp4_1d), all in float:
///   S_enc = nvfp4_tensor_encode_scale(amax of the tensor),
///   s_b   = (amax_b / 6) * S_enc rounded to E4M3 (round to nearest even, saturating at 448),
///   P_i   = x_i * (S_enc / s_b) rounded to E2M1 with saturation at 6 (0 when s_b = 0),
///   value = P_i * (s_b * (1 / S_enc)).
/// Element rounding: the format's (rne, or sr as TE offers for gradients: NVIDIA, "Pretraining
/// Large Language Models with NVFP4", arXiv:2509.25149, stochastic rounding of gradients). The
/// tensor amax ignores NaN; a block holding a NaN gets the E4M3 NaN scale and decodes as NaN.
/// With format.nvfp4_recipe == Torchao, torchao's nvfp4_quantize instead (Nvfp4Recipe::Torchao):
/// per-tensor scale amax / 2688, block scale clamped to [2^-6, 448] before its E4M3 rounding,
/// elements divided by the float product of the two; q.tensor_scale then holds that per-tensor
/// (decode) scale rather than S_enc.
BlockQuantized quantize_nvfp4(const BlockFormat& format, std::span<const float> x, core::StochasticSource* random);

}  // namespace floatscope::emu
