// GEMM with a narrow accumulator (fp16, bf16, 14-bit FP8 partial sums): every addition rounded by core.
#pragma once

#include <cstddef>

#include "core/format_rounding.hpp"

namespace floatscope::emu::detail {

/// C (m x n) = A (m x k) B (k x n), row-major floats, each C entry accumulated over k in increasing
/// order with every addition rounded once to `accumulator`:
///   s = round_acc(s + t),  t = a*b exact, or round_product(a*b) when `separate_products`;
/// `block` = 0: one sum from +0; otherwise blocks of `block` terms from +0, each block sum added into
/// a total (from +0) rounded to `combine`.
///
/// Preconditions (gemm.cpp checks them): the products a*b are exact in float; the accumulator,
/// the product format and the combine format have values that are floats, and the accumulator and
/// the combine format (unless it is binary32 with rne) at most 22 significant bits.
struct NarrowGemm {
    const float* a = nullptr;
    const float* b = nullptr;
    float* c = nullptr;
    std::size_t m = 0, k = 0, n = 0;
    core::FormatRounding accumulator;
    bool separate_products = false;
    core::FormatRounding product;
    std::size_t block = 0;
    core::FormatRounding combine;
};

void narrow_gemm(const NarrowGemm& problem);

}  // namespace floatscope::emu::detail
