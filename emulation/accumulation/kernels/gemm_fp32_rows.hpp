// Native binary32 GEMM for pairwise and Kahan-compensated orders, vectorized across each row's columns.
#pragma once

#include <cstddef>

namespace floatscope::emu::detail {

/// C (m x n) = A (m x k) B (k x n), row-major floats, every operation IEEE binary32 with round to
/// nearest even, each entry's terms t = a*b (rounded to binary32; callers of the pairwise order
/// with exact products make sure that rounding is exact) in one of the orders of
/// accumulation_model.hpp:
/// - Pairwise: the sum of t_1..t_n is sum(first 2^j) + sum(rest), 2^j the largest power of two
///   below n, the sum of one term the term itself; no term gives +0;
/// - Compensated: Kahan's loop from s = c = +0: y = t - c (fma(a, b, -c) when `fused`),
///   u = s + y, c = (u - s) - y, s = u; with `block` > 0, blocks of `block` terms each summed
///   that way from +0, then added in order into a total that starts at +0;
/// - PairwiseBlocks: blocks of `block` terms, each summed pairwise as above, then added in order
///   into a total that starts at +0 (AMD CDNA1/2's trees).
/// With `flush_subnormals`, every product and sum below binary32's smallest normal becomes a zero
/// of its sign (CDNA2), the inputs having none.
struct Fp32RowsGemm {
    enum class Order { Pairwise, Compensated, PairwiseBlocks };
    const float* a = nullptr;
    const float* b = nullptr;
    float* c = nullptr;
    std::size_t m = 0, k = 0, n = 0;
    Order order = Order::Pairwise;
    bool fused = true;
    std::size_t block = 0;
    bool flush_subnormals = false;
};

void gemm_fp32_rows(const Fp32RowsGemm& problem);

/// out[j] = x * row[j] and total[j] += part[j] for j < width, in binary32: the vectorized row steps
/// the native kernels share.
void multiply_row(float* out, float x, const float* row, std::size_t width);
void add_row(float* total, const float* part, std::size_t width);

}  // namespace floatscope::emu::detail
