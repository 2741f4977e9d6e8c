// Block FMAs whose instructions sum their products first and add C after them: their blocks, their GEMM.
#pragma once

#include <cstddef>

#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// With products_first_k: the block of its instruction (0, 1, ...) that the instruction's t-th
/// product goes to (t from 0): runs of block_interleave k dealt to the blocks in turn, or without
/// runs the instruction's consecutive blocks.
std::size_t instruction_block(const AccumulationModel& model, std::size_t t);

/// C (m x n) = A (m x k) B (k x n) + addend, all row-major, under a BlockFma model with
/// products_first_k (NVIDIA FP8 mma.sync on Hopper and Blackwell): each instruction along k sums
/// its products from +0 block by block (block_fma_gemm on the k each block takes, each block's d
/// the next one's c), and C (the addend, +0 when null, then each instruction's D) joins that sum
/// in one addition rounded to the output. A and B hold quantized values of the input formats.
void products_first_gemm(const AccumulationModel& model, const double* a, const double* b, double* c, std::size_t m,
                         std::size_t k, std::size_t n, const double* addend = nullptr);

}  // namespace floatscope::emu
