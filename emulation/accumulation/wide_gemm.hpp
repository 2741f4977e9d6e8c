// GEMM under an accumulation model whose formats leave binary64 (binary128, binary256, eXmY up to
// e30m1024, the wide P3109 formats): every step one operation of the wide arithmetic, bit-exact.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "core/wide_format.hpp"
#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// Whether the model names a format wider than binary64 for its operands, accumulator, block
/// combination or output: only wide_gemm computes it.
bool is_wide_model(const AccumulationModel& model);

/// Throws floatscope::Error, naming the field, for a model wide_gemm does not compute: orders other
/// than sequential, pairwise and blocked (the tensor-core block FMAs), products rounded before they
/// are added (separate), blocks combined in a format other than the accumulator's, scaled operands,
/// an epilogue, stochastic rounding in the model, or formats the wide arithmetic does not take
/// (core::wide_geometry: binary formats with the IEEE encoding, and P3109's).
void validate_wide(const AccumulationModel& model);

/// C (m x k times k x n, row-major) under a valid wide model (validate_wide): a and b are the
/// storage format's values, exactly; each is rounded to its operand format (model.x, model.y), and
/// must then be a value of the accumulator (which adds exact products: fused), else
/// floatscope::Error names the formats. Each entry is what the model defines, step by step:
/// sequential fma from +0 (Kahan's compensated step with `compensated`), pairwise (a pair of
/// products rounded once, a product beside a partial sum that sum's fma, a lone product rounded),
/// or blocked (blocks from +0, sequential or pairwise, added in order from +0), rounded once to
/// the output format. Binary128 with rne over operands that are doubles takes GCC's __float128
/// (binary128_gemm_exact); everything else emu::WideArithmetic.
std::vector<core::WideValue> wide_gemm(const AccumulationModel& model, const std::vector<core::WideValue>& a,
                                       const std::vector<core::WideValue>& b, std::size_t m, std::size_t k,
                                       std::size_t n);

/// The same for storage values that are doubles; binary128 with rne over operand formats that hold
/// binary64 goes straight to __float128, without converting a value.
std::vector<core::WideValue> wide_gemm(const AccumulationModel& model, std::span<const double> a,
                                       std::span<const double> b, std::size_t m, std::size_t k, std::size_t n);

}  // namespace floatscope::emu
