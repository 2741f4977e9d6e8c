// Layer normalization (without learned scale and shift) in a layer's formats, and in MPFR.
#pragma once

#include <cstddef>
#include <span>

#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/workloads/nn/dense_layer.hpp"

namespace floatscope::emu {

/// The epsilon added to the variance (PyTorch's torch.nn.LayerNorm default).
inline constexpr double layer_norm_epsilon = 1e-5;

/// Normalizes each row of h in place (Ba, Kiros, Hinton, "Layer Normalization", arXiv:1607.06450):
///   mean = acc(sum_i acc(h_i)) / n            sum in order, every step in the accumulate format
///   d_i  = compute(h_i - compute(mean))
///   var  = acc(sum_i acc(d_i)^2) / n         each square added by a fused multiply-add
///   r    = compute(acc(1 / acc(sqrt(acc(var + acc(eps))))))
///   y_i  = compute(d_i * r)
/// with every operation rounded once in the format named (reductions in the accumulate format,
/// elementwise work in the compute format).
void layer_norm(const LayerPrecision& precision, Matrix& h);

/// The same without rounding, in MPFR at each number's precision: y_i = (h_i - mean) / sqrt(var + eps).
void layer_norm_truth(std::span<TruthNumber> row);

}  // namespace floatscope::emu
