// The block-FMA GEMM in float lanes: 8 columns a vector, the normalisation one native conversion a block.
#pragma once

#include <cstddef>
#include <vector>

#include "core/format_rounding.hpp"
#include "emulation/accumulation/kernels/block_fma_registers.hpp"

namespace floatscope::emu::detail {

/// Whether block_fma_in_floats computes `problem` exactly, its accumulator rounding `accumulator`, on
/// operands whose products and products of powers are normal floats (products_in_float_range, which
/// the caller checks): first accumulators (problem.c) that are floats, an accumulator with float's
/// exponent range rounding toward zero (to at most 24 bits) or to nearest even (to 24 bits), and
/// aligned products whose units fit int32 (summed there in parts, the parts in doubles, when a
/// block's sum does not: Blackwell's 32-product FP8 blocks of 26 kept bits).
bool block_fma_in_floats_applies(const BlockFmaRegisterGemm& problem, const core::FormatRounding& accumulator);

/// block_fma_in_registers, for problems block_fma_in_floats_applies takes, with twice the columns a
/// vector and the block sum normalised by the int32 to float conversion in the accumulator's
/// rounding direction. A block whose quantum, or whose normalised sum, is outside float's normal
/// range flags its row, as block_fma_in_registers does.
std::vector<std::size_t> block_fma_in_floats(const BlockFmaRegisterGemm& problem,
                                             const core::FormatRounding& accumulator);

}  // namespace floatscope::emu::detail
