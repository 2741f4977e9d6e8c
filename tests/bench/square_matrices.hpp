// The operands of the GEMM benchmarks: two square matrices of normal entries, and the rate counter.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <random>
#include <vector>

namespace floatscope::bench {

/// The side of every benchmarked product.
constexpr std::size_t matrix_size = 512;

/// 2 n^3 floating-point operations per product, reported in GFLOP/s.
inline void set_flops(benchmark::State& state) {
    constexpr double n = matrix_size;
    state.counters["GFLOP/s"] = benchmark::Counter(2.0 * n * n * n * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

/// Normally distributed entries (sigma 1), the same for every benchmark: seed 1 is A, 2 is B.
inline const std::vector<double>& matrix(unsigned seed) {
    static std::vector<double> a, b;
    std::vector<double>& m = seed == 1 ? a : b;
    if (m.empty()) {
        std::mt19937_64 generator(seed);
        std::normal_distribution<double> normal(0.0, 1.0);
        m.resize(matrix_size * matrix_size);
        for (double& x : m) x = normal(generator);
    }
    return m;
}

}  // namespace floatscope::bench
