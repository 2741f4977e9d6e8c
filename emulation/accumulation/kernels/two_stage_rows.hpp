// Two-stage block FMA (AMD CDNA3) for whole GEMMs: the model of two_stage_block_fma.hpp vectorized across columns.
#pragma once

#include <cstddef>

namespace floatscope::emu::detail {

/// C = A B (+ addend) under a two-stage block FMA whose accumulator and output are binary32 with
/// rne (CDNA3), computed in doubles across each row's columns: every scaled term, group sum and
/// join is an integer below 2^53, and the floors and truncations are exact integer roundings.
/// The caller guarantees what keeps this exact and free of specials: A, B and the addend finite,
/// every product below 2^128 in magnitude (max |A| max |B|), values of the input formats with
/// their alignment floors `x_emin`, `y_emin` (tensor_core.hpp's alignment_emin).
struct TwoStageGemm {
    const double* a = nullptr;  ///< m x k, row-major
    const double* b = nullptr;  ///< k x n, row-major
    double* c = nullptr;  ///< m x n: receives D
    const double* addend = nullptr;  ///< m x n or null (+0)
    std::size_t m = 0, k = 0, n = 0;
    std::size_t block = 0;  ///< products per block
    int groups = 1;  ///< 1, or 2 interleaved halves
    int fraction_bits = 24;  ///< F
    int x_emin = 0, y_emin = 0;
    /// products_fit_float of the input formats (fp16, fp8): the operands, their alignment powers
    /// and products, and the scaled products are then exact floats, and the kernel runs on floats.
    bool float_products = false;
};

void two_stage_gemm(const TwoStageGemm& problem);

}  // namespace floatscope::emu::detail
