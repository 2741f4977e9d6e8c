// Exact kernels in MPFR for the ground truth: dot products and GEMMs as exact sums of exact products, rounded
// once (mpfr_sum), so that the truth of an n^3 product costs n^3 exact multiplications and n^2
// correctly rounded sums, not n^3 separately rounded operations.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "emulation/arithmetic/truth_number.hpp"

namespace floatscope::emu {

/// sum_i x_i y_i, exact, rounded once to `precision` bits (round to nearest).
TruthNumber exact_dot(std::span<const TruthNumber> x, std::span<const TruthNumber> y, int precision);
TruthNumber exact_dot(std::span<const TruthNumber> x, std::span<const double> y, int precision);

/// C (m x n) = A (m x k) B (k x n), row-major, each entry an exact_dot: summed in fixed point
/// (exact_product_sum.hpp) when its operands are finite and its products span at most
/// max_exact_product_window bits, by mpfr_sum otherwise; the same numbers either way. The columns of C
/// are shared out among truth_threads() threads (core::parallel_rows), with the same numbers for
/// any count.
std::vector<TruthNumber> exact_gemm(std::span<const TruthNumber> a, std::span<const TruthNumber> b, std::size_t m,
                                    std::size_t k, std::size_t n, int precision);

/// Gives the exact kernels called on this thread `threads` threads (at least 1) while alive, as
/// TruthPrecisionScope gives the truth its precision: the engine hands a ground truth the run's
/// spare threads this way, whatever workload computes it. Scopes nest; the threads the kernels
/// start are given 1.
class TruthThreadsScope {
public:
    explicit TruthThreadsScope(int threads);
    TruthThreadsScope(const TruthThreadsScope&) = delete;
    TruthThreadsScope& operator=(const TruthThreadsScope&) = delete;
    ~TruthThreadsScope();

private:
    int previous_;
};

/// The threads the exact kernels called on this thread use: 1 outside every TruthThreadsScope.
int truth_threads();

/// sum_i x_i, exact, rounded once.
TruthNumber exact_sum(std::span<const TruthNumber> x, int precision);

}  // namespace floatscope::emu
