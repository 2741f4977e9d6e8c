// A priori error bounds of sums, dot products and GEMMs under an accumulation model: Higham's
// deterministic gamma_n and Higham and Mary's probabilistic lambda sqrt(n) u, drawn beside the
// measured normwise error (docs/error-measures.md).
#pragma once

#include "core/format_rounding.hpp"
#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// The unit roundoff of a binary format under a rounding mode: u = 2^-p (p = M + 1) for the
/// round-to-nearest modes, 2^(1-p) for the others (directed, stochastic, to odd: their error reaches
/// a whole ulp). NaN for formats that are not binary floating point (no relative bound applies).
double unit_roundoff(const core::FormatRounding& rounding);

/// gamma_n = n u / (1 - n u): |fl(sum) - sum| <= gamma_n sum |terms| for n roundings (Higham,
/// Accuracy and Stability of Numerical Algorithms, 2nd ed., Lemma 3.1 and 3.1); +inf when n u >= 1.
double gamma_bound(double n, double u);

/// lambda sqrt(n) u, the first-order term of Higham and Mary's probabilistic bound (SISC 41(5),
/// 2019, Theorem 3.1), which holds with probability at least 1 - 2n exp(-lambda^2 (1 - u)^2 / 2)
/// for independent mean-zero rounding errors; lambda = 1 makes it the typical error, not a bound.
inline constexpr double probabilistic_lambda = 1;
double probabilistic_bound(double n, double u);

/// How many accumulator roundings a term meets on its way into a sum of n terms, the n of gamma_n:
/// sequential n (Higham 3.1), pairwise ceil(log2 n) (Higham 4.2), blocked b + ceil(n / b) (block
/// sums, then their sum; ceil(log2 b) + ceil(n / b) for pairwise blocks), block FMA ceil(n / b) (one
/// rounding per block and accumulator), two-stage block FMA 2 ceil(n / b) (a truncation and a
/// rounding per block), compensated 2 (Kahan's summation to first order: 2u, Higham 4.3). Only the
/// model's order, block_size, block_order and compensated are read.
double accumulation_depth(const AccumulationModel& model, double n);

/// Relative bounds: |computed - exact| <= bound * (|x|^T |y|) for a dot product, entry by entry for
/// a GEMM. Infinite where no bound applies (a non-binary format, n u >= 1).
struct ErrorBounds {
    double deterministic;
    double probabilistic;
};

/// Whether every value of `inner` is a value of `outer`, so that rounding to `outer` changes nothing.
bool holds_values_of(const core::FormatSpec& outer, const core::FormatSpec& inner);

/// The unit roundoff of rounding doubles into `storage`: 0 where the format holds every binary64
/// value (the rounding is exact), unit_roundoff(storage) otherwise.
double storage_roundoff(const core::FormatRounding& storage);

/// The bounds of a dot product of n terms under `model`, whose inputs were first rounded with unit
/// roundoff `input_u` (0: exact inputs) to `input_format`: the inputs' roundings, a rounded
/// product's, the accumulation's and the output's, each a factor (1 + delta) (Higham 3.1); a
/// rounding into a format that holds the values already is exact and left out.
ErrorBounds dot_error_bounds(const AccumulationModel& model, double n, const core::FormatSpec& input_format,
                             double input_u);

/// Bounds of a sum of n terms, each first rounded with unit roundoff `input_u`, accumulated with
/// `accumulator` in `order`.
ErrorBounds sum_error_bounds(const core::FormatRounding& accumulator, AccumulationOrder order, bool compensated,
                             double n, double input_u);

}  // namespace floatscope::emu
