// GEMM and dot products of block-scaled operands (elements and their block scales) on Blackwell's block-scaled MMA.
#pragma once

#include <cstddef>
#include <span>

#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// A matrix operand of a block-scaled MMA: element values and one scale value per block of the
/// model's block_scaling.scale_block values along k (the last block of a row or column may be
/// partial). A (m x k): elements row-major, scales m x ceil(k / scale_block) row-major; B (k x n):
/// elements row-major, scales ceil(k / scale_block) x n row-major.
struct ScaledMatrix {
    std::span<const double> elements;
    std::span<const double> scales;
};

/// D (m x n) = A B + addend under a BlockScaledFma model (block_scaled_fma.hpp): instructions of K
/// (block_size) products along k in increasing k, each instruction's fp32 D the next one's C, the
/// first's C the addend (+0 where empty); then each entry times `tensor_scale` (the product of the
/// operands' per-tensor decode scales, NVFP4's 1 / S_enc, 1 elsewhere) rounded once to the model's
/// output and its epilogue, as a GEMM's epilogue applies alpha. Throws floatscope::Error for a model
/// of another order or sizes that do not match.
void block_scaled_gemm(const AccumulationModel& model, ScaledMatrix a, ScaledMatrix b, std::span<double> d,
                       std::size_t m, std::size_t k, std::size_t n, std::span<const double> addend = {},
                       double tensor_scale = 1);

}  // namespace floatscope::emu
