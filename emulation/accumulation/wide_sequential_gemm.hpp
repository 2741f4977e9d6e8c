// Dot products and GEMM on values of any width: sequential fused multiply-adds in one accumulator format.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "core/wide_format.hpp"
#include "emulation/arithmetic/wide_format_arithmetic.hpp"

namespace floatscope::emu {

/// sum_i x[i * x_stride] y[i * y_stride] for i < k as the sequential fused model computes it:
/// s = +0, then s = round(x_i y_i + s) for each i in order, every product exact and every step one
/// rounding in `accumulator`'s format and mode (counted into the active CountingScope). The operands
/// are values of the accumulator's format (convert them first: WideFormatArithmetic::convert).
core::WideBits wide_sequential_dot(const WideFormatArithmetic& accumulator, const core::WideBits* x,
                                   std::size_t x_stride, const core::WideBits* y, std::size_t y_stride,
                                   std::size_t k);

/// C (m x n) = A (m x k) B (k x n), row-major, each entry a wide_sequential_dot of a row of A and a
/// column of B: the matrix products of workloads whose formats are wider than binary64 (mlp-forward;
/// gemm's wide storage and compute roles can share it).
std::vector<core::WideBits> wide_sequential_gemm(const WideFormatArithmetic& accumulator,
                                                 std::span<const core::WideBits> a,
                                                 std::span<const core::WideBits> b, std::size_t m, std::size_t k,
                                                 std::size_t n);

}  // namespace floatscope::emu
