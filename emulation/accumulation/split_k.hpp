// Split-K: a GEMM as S partial products over consecutive slices of k, summed in the accumulator format in k order.
#pragma once

#include <cstddef>
#include <span>

#include "emulation/accumulation/accumulation_model.hpp"
#include "emulation/accumulation/block_scaled_gemm.hpp"

namespace floatscope::emu {

/// The k of one slice when `parts` slices share k: ceil(k / parts) rounded up to whole instructions
/// (a block-FMA, two-stage or block-scaled model's block_size, a products-first model's
/// products_first_k, a blocked model's block_size; 1 for the others). Fewer slices result where
/// whole instructions leave the last ones empty.
std::size_t split_k_slice(const AccumulationModel& model, std::size_t k, std::size_t parts);

/// The rounding the partial products are delivered in and summed with: an instruction model's D
/// format (its output: fp32 for the fp32-accumulating tensor cores, fp16 for their fp16 form)
/// with round to nearest even, as a split-K reduction adds fp32 workspaces; the accumulator
/// (combine for a blocked model) for the others.
core::FormatRounding split_k_accumulator(const AccumulationModel& model);

/// C (m x n) = A B under `model` computed as split-K: slice s (k in [s L, (s + 1) L), L =
/// split_k_slice) is a GEMM of its own from +0 under the model with its results in
/// split_k_accumulator (no epilogue); the partials are then summed in slice order, P_0 + P_1, then
/// + P_2, ..., each addition rounded to split_k_accumulator, and the sum rounded once to the model's
/// delivered format (its epilogue, else its output). parts = 1 is gemm itself. Block-scaled models,
/// whose operands carry scales, take split_k_block_scaled_gemm. Throws floatscope::Error for parts < 1
/// or sizes that do not match.
void split_k_gemm(const AccumulationModel& model, std::span<const double> a, std::span<const double> b,
                  std::span<double> c, std::size_t m, std::size_t k, std::size_t n, std::size_t parts);

/// split_k_gemm for a block-scaled model on operands with their scales (block_scaled_gemm.hpp): each
/// slice of whole instructions (so of whole scale blocks) a block_scaled_gemm from +0 delivering
/// fp32, the partials added in slice order in fp32 (rne), and once at the end the tensor scale, the
/// model's output and its epilogue, as block_scaled_gemm ends (a GEMM applies alpha after its
/// reduction). parts = 1 is block_scaled_gemm itself.
void split_k_block_scaled_gemm(const AccumulationModel& model, ScaledMatrix a, ScaledMatrix b, std::span<double> c,
                               std::size_t m, std::size_t k, std::size_t n, std::size_t parts, double tensor_scale = 1);

}  // namespace floatscope::emu
