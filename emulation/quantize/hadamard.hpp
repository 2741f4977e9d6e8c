// The 16-point random Hadamard transform NVFP4 training applies before quantizing gradients' inputs.
#pragma once

#include <array>
#include <span>

namespace floatscope::emu {

/// The fixed random signs d_j of the transform (one draw, as Transformer Engine fixes its sign
/// vector by a seed rather than drawing one per tensor).
const std::array<float, 16>& hadamard_signs();

/// Each whole run of 16 consecutive values x becomes H D x, H the Sylvester Walsh-Hadamard matrix
/// of order 16 divided by 4 (orthogonal and symmetric: H H = I), D = diag(hadamard_signs());
/// with `inverse`, D H y, which undoes it. NVIDIA, "Pretraining Large Language Models with NVFP4"
/// (arXiv:2509.25149): a 16x16 random Hadamard transform of the weight-gradient GEMM's inputs
/// spreads a block's outliers over its 16 values before NVFP4 quantization; Transformer Engine's
/// NVFP4BlockScaling recipe does so. Each output is a 16-term sum in double rounded once to float,
/// so a round trip returns x to within a few float ulps of the block's largest value. A last run
/// of fewer than 16 values is left as it is.
void random_hadamard_transform(std::span<float> x, bool inverse);

}  // namespace floatscope::emu
