// Test-only reference: accumulation models evaluated from their definitions with MPFR.
#pragma once

// It reads AccumulationModel as plain data and shares no code with the library's kernels,
// quantization or rounding: products and sums are exact MPFR numbers, and every rounding the model
// names goes through the MPFR reference rounding of tests/core (ref_round: emin, emax and
// subnormalize emulate each format).

#include <vector>

#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::test {

/// c + dot(x, y) as the model defines it (accumulation_model.hpp, tensor_core.hpp); c the starting sum.
double ref_dot(const emu::AccumulationModel& model, const std::vector<double>& x, const std::vector<double>& y,
               double c = 0);
/// sum(x) as the model defines it: dot(x, 1) with the second operand exactly 1, scaled by x.scale.
double ref_sum(const emu::AccumulationModel& model, const std::vector<double>& x);

/// A dot product of block-scaled operands (block_scaled_gemm.hpp): element values x and y, the scale
/// values of their blocks of block_scaling.scale_block k, instructions of block_size k chained from
/// c, the result times tensor_scale rounded to the output.
double ref_block_scaled_dot(const emu::AccumulationModel& model, const std::vector<double>& x,
                            const std::vector<double>& x_scales, const std::vector<double>& y,
                            const std::vector<double>& y_scales, double c = 0, double tensor_scale = 1);

/// Entry (i, j)'s operands of a block-scaled product (block_scaled_gemm.hpp's layout): row i of A
/// (m x k elements, m x blocks scales) and column j of B (k x n elements, blocks x n scales).
struct BlockScaledEntry {
    std::vector<double> x, x_scales, y, y_scales;
};
BlockScaledEntry block_scaled_entry(const std::vector<double>& a, const std::vector<double>& a_scales,
                                    const std::vector<double>& b, const std::vector<double>& b_scales, std::size_t k,
                                    std::size_t n, std::size_t i, std::size_t j);

/// The split-K of ref_block_scaled_dot (split_k_block_scaled_gemm): each slice of `slice` k (whole
/// scale blocks) from +0 with fp32 results (rne), the slices added in order in fp32 (rne), the sum
/// times tensor_scale rounded once to the output.
double ref_block_scaled_split_k(const emu::AccumulationModel& model, const std::vector<double>& x,
                                const std::vector<double>& x_scales, const std::vector<double>& y,
                                const std::vector<double>& y_scales, std::size_t slice, double tensor_scale = 1);

/// Equal as results: the same double (the sign of zero included), or both NaN.
bool same_result(double a, double b);

}  // namespace floatscope::test
