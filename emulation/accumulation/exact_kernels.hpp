// Exact kernels in MPFR for the ground truth: dot products and GEMMs as exact sums of exact products, rounded
// once (mpfr_sum), so that the truth of an n^3 product costs n^3 exact multiplications and n^2
// correctly rounded sums, not n^3 separately rounded operations.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "core/worker_pool.hpp"

#include "emulation/arithmetic/truth_number.hpp"

namespace floatscope::emu {

/// sum_i x_i y_i, exact, rounded once to `precision` bits (round to nearest).
TruthNumber exact_dot(std::span<const TruthNumber> x, std::span<const TruthNumber> y, int precision);
TruthNumber exact_dot(std::span<const TruthNumber> x, std::span<const double> y, int precision);

/// C (m x n) = A (m x k) B (k x n), row-major, each entry an exact_dot: summed in fixed point
/// (exact_product_sum.hpp) when its operands are finite and its products span at most
/// max_exact_product_window bits, by mpfr_sum otherwise; the same numbers either way. The columns of C
/// are shared out among truth_threads() threads (truth_parallel_rows), with the same numbers for
/// any count.
std::vector<TruthNumber> exact_gemm(std::span<const TruthNumber> a, std::span<const TruthNumber> b, std::size_t m,
                                    std::size_t k, std::size_t n, int precision);

/// Gives the exact kernels called on this thread `threads` threads (at least 1) while alive, as
/// TruthPrecisionScope gives the truth its precision: the engine hands a ground truth the run's
/// spare threads this way, whatever workload computes it. The threads are started once, with the
/// scope (a truth's thousands of parallel steps start none), and free their MPFR caches as they
/// end. Scopes nest; the scope's threads are given 1.
class TruthThreadsScope {
public:
    explicit TruthThreadsScope(int threads);
    TruthThreadsScope(const TruthThreadsScope&) = delete;
    TruthThreadsScope& operator=(const TruthThreadsScope&) = delete;
    ~TruthThreadsScope();

private:
    int previous_;
    core::WorkerPool* previous_workers_;
    std::unique_ptr<core::WorkerPool> workers_;
};

/// The threads the exact kernels called on this thread use: 1 outside every TruthThreadsScope.
int truth_threads();

/// The threads of the innermost TruthThreadsScope on this thread; null outside every scope.
core::WorkerPool* truth_workers();

/// work(begin, end) over chunks covering [0, rows) once each (core::WorkerPool::run), shared out
/// among the truth_threads() of this thread's scope; all on this thread outside every scope.
template <typename MakeWorker>
void truth_parallel_rows(std::size_t rows, const MakeWorker& make_worker) {
    if (core::WorkerPool* workers = truth_workers())
        workers->run(rows, make_worker);
    else if (rows > 0)
        make_worker()(std::size_t{0}, rows);
}

/// sum_i x_i, exact, rounded once.
TruthNumber exact_sum(std::span<const TruthNumber> x, int precision);

}  // namespace floatscope::emu
