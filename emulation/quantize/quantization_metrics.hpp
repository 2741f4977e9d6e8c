// Quantization error: MSE, SQNR, max error, relative Frobenius error, clipping, flushing to zero,
// and the error of a matrix product with quantized weights against the exact product.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/quantize/block_quantized.hpp"
#include "emulation/quantize/integer_quantizer.hpp"

namespace floatscope::emu {

struct QuantizationError {
    std::size_t count = 0;
    double mse = 0;  ///< mean of (q - x)^2
    double sqnr_db = 0;  ///< 10 log10(sum x^2 / sum (q - x)^2); +inf when exact
    double max_abs_error = 0;
    double relative_frobenius = 0;  ///< ||q - x||_F / ||x||_F (0 when both are 0)
    double fraction_clipped = 0;  ///< values beyond the largest magnitude their block or group holds
    double fraction_flushed = 0;  ///< nonzero values that became zero
    std::size_t flushed = 0;  ///< how many those are
    std::size_t nan_values = 0;  ///< values NaN in either tensor: left out of the measures above
};

/// Errors of `quantized` against `original` (same size); sums in double. Values that are NaN in
/// either are skipped and counted (nan_values); with none left, the measures are NaN: nothing was
/// measured, which is no perfect quantization. `clipped` is the number of clipped values (from count_clipped).
QuantizationError measure_quantization_error(std::span<const float> original, std::span<const float> quantized,
                                             std::size_t clipped = 0);
/// The same against an original in double (a checkpoint's tensor decoded exactly, fp64 or Q4_1
/// values that float would round).
QuantizationError measure_quantization_error(std::span<const double> original, std::span<const float> quantized,
                                             std::size_t clipped = 0);
/// And both in double: one checkpoint's tensor against another's.
QuantizationError measure_quantization_error(std::span<const double> original, std::span<const double> quantized,
                                             std::size_t clipped = 0);

/// Values whose magnitude exceeds the largest magnitude their block can represent (element max *
/// block scale): those the scheme clamped.
std::size_t count_clipped(const BlockQuantized& q, std::span<const float> original);
/// Values the code range clamped: above (max code - zero point + 1/2) * scale or below
/// (min code - zero point - 1/2) * scale, where rounding alone would leave the range. (A row's
/// largest value a float rounding of the scale puts a hair above max * scale is not clipped.)
std::size_t count_clipped(const IntegerQuantized& q, std::span<const float> original);

/// Error of Y = A W with W replaced by its quantization: A is m x k, W and Wq are k x n,
/// row-major. The reference A W is exact (MPFR, emulation/accumulation/exact_kernels.hpp exact_gemm);
/// A Wq is computed exactly as well, so the error is the quantization's alone.
struct MatmulError {
    double relative_frobenius = 0;  ///< ||A Wq - A W||_F / ||A W||_F
    double max_abs_error = 0;
};
MatmulError matmul_quantization_error(std::span<const float> a, std::span<const float> w, std::span<const float> wq,
                                      std::size_t m, std::size_t k, std::size_t n);

/// A B (A m x k, B k x n, row-major floats) in MPFR: every product of floats exact, each sum
/// exact and rounded once to matmul_precision bits, so that products compared with each other
/// differ by their inputs alone.
constexpr int matmul_precision = 256;
std::vector<TruthNumber> exact_float_product(std::span<const float> a, std::span<const float> b, std::size_t m,
                                             std::size_t k, std::size_t n);
/// ||approx - exact||_F / ||exact||_F and the largest |approx - exact|, differences taken exactly.
MatmulError compare_products(std::span<const TruthNumber> approx, std::span<const TruthNumber> exact);

}  // namespace floatscope::emu
