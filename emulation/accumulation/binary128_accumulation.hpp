// Accumulation in binary128 (GCC's __float128, IEEE binary128 with rne): wider accumulators than binary64.
#pragma once

#include <cstddef>
#include <cstdint>  // before mpfr.h, which then declares its intmax_t functions
#include <span>

#include <mpfr.h>

#include "core/format_rounding.hpp"
#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// IEEE binary128 with round to nearest even: the one accumulator wider than binary64 that models
/// take (validate), computed with GCC's __float128, whose operations are IEEE binary128's with rne.
bool is_binary128_rne(const core::FormatRounding& rounding);

/// C (m x n) = A (m x k) B (k x n) + addend for a valid model whose accumulator is binary128 with
/// rne (is_binary128_rne), on quantized operands (doubles): each product of two doubles is exact
/// in binary128 (106 <= 113 bits), so every step of the model's order (sequential fma or Kahan,
/// blocks combined in binary128, pairwise) is one binary128 operation; each result is then rounded
/// once to the output format (any mode; before the epilogue, which the caller applies).
void binary128_gemm(const AccumulationModel& model, const double* a, const double* b, double* c, std::size_t m,
                    std::size_t k, std::size_t n, std::span<const double> addend = {});

/// C = A B as binary128_gemm computes it, left in binary128 (an output of binary128 with rne: no
/// rounding after the accumulator's), for regions that keep a wide format's values exactly.
void binary128_gemm_exact(const AccumulationModel& model, const double* a, const double* b, __float128* c,
                          std::size_t m, std::size_t k, std::size_t n);

/// A binary128 number's exact value into `out` (whose precision is 113 bits or more).
void binary128_to_mpfr(__float128 x, mpfr_ptr out);

/// The sum of x (quantized operands) as binary128_gemm computes x times a column of ones, without
/// the products: the same order, the same binary128 steps, the result rounded once to the output
/// format (before the epilogue).
double binary128_sum(const AccumulationModel& model, std::span<const double> x);

}  // namespace floatscope::emu
