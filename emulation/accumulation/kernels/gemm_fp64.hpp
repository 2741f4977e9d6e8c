// Native binary64 GEMM in a model's order: the fast path of models that accumulate in fp64 with rne.
#pragma once

#include <cstddef>

namespace floatscope::emu::detail {

/// C (m x n) = A (m x k) B (k x n) + addend, row-major doubles, every operation IEEE binary64 with
/// round to nearest even (the caller sets the default environment), in the order of an
/// AccumulationModel whose accumulator (and product, combine format) is binary64 with rne:
/// - Sequential: each entry s = addend (or +0), then s = fma(a, b, s) for `fused`, s = s + a*b
///   with the product rounded first otherwise, over k in increasing order;
/// - Compensated: the same with Kahan's compensation (s, c = 0; y = fma(a, b, -c) or a*b - c;
///   t = s + y; c = (t - s) - y; s = t);
/// - with `block` > 0 both run per block of `block` terms from +0 (c = 0), each block's sum added
///   in order to a total that starts at the addend (or +0);
/// - Pairwise: the terms a*b summed as AccumulationOrder::Pairwise says, no addend: double products
///   (the exact product where the inputs' products are doubles, the rounded one for separate
///   products), or with `wide_products` the exact products of fused wider inputs (up to 106 bits):
///   a pair of them rounded once, a lone one beside a partial sum added by an fma.
/// Inputs and addend are taken as they are (values of the model's formats, already quantized).
struct Fp64Gemm {
    enum class Order { Sequential, Compensated, Pairwise };
    const double* a = nullptr;
    const double* b = nullptr;
    double* c = nullptr;
    const double* addend = nullptr;  ///< m x n, or none
    std::size_t m = 0, k = 0, n = 0;
    Order order = Order::Sequential;
    bool fused = true;
    bool wide_products = false;  ///< Pairwise only: exact products that need not be doubles
    std::size_t block = 0;
};

void gemm_fp64(const Fp64Gemm& problem);

}  // namespace floatscope::emu::detail
