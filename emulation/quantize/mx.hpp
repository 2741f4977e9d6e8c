// OCP Microscaling (MX) v1.0 quantization: blocks sharing a power-of-two E8M0 scale.
#pragma once

#include <span>

#include "core/stochastic_source.hpp"
#include "emulation/quantize/block_quantized.hpp"

namespace floatscope::emu {

/// The shared exponent of an MX block with largest magnitude `amax` (finite, >= 0) under `rule`
/// (ScaleRule says where each comes from), saturated to E8M0's range [-127, 127] (codes 0..254;
/// 0xFF, NaN, only for a block holding NaN or infinity). An all-zero block gets -127 (the spec
/// leaves it open; every element is zero under any scale). `element_mantissa_bits` serves Even.
/// Under Floor and Even the largest element can exceed the element's max after scaling
/// (MXFP4: amax / X up to 8 for Floor); quantize_mx clamps such elements to +-max.
int mx_shared_exponent(float amax, int emax_elem, double max_elem, ScaleRule rule, int element_mantissa_bits = 0);

/// Quantizes to an MX format (OCP Microscaling Formats (MX) Specification v1.0, section 6.3):
/// per block X = 2^shared_exponent, P_i = V_i / X rounded to the element format with the
/// format's element rounding, normal values beyond the element's max clamped to +-max. V_i / X
/// is exact (a double), so each element is rounded once. A block holding a NaN or an infinity
/// gets the NaN scale 0xFF (every value of the block decodes as NaN) and element codes 0.
/// Element rounding "rna" reproduces the reference emulator (microsoft/microxcaling,
/// RoundingMode.nearest: ties away from zero); "rne" is the spec's roundTiesToEven.
/// MXINT8: elements are two's-complement integers times 2^-6, clamped to +-127 (symmetric, as
/// the reference emulator clamps to its max_norm 1.984375). FP32 subnormal inputs are kept
/// (the reference emulator can flush them).
/// `random` is required for the stochastic element roundings.
BlockQuantized quantize_mx(const BlockFormat& format, std::span<const float> x, core::StochasticSource* random);

}  // namespace floatscope::emu
