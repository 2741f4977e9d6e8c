// Speed of the ground truth's exact GEMM (exact_gemm: exact sums of exact products, rounded once to 256 bits)
// at the shapes of issue 37's CRNN recogniser: activations of 256 bits by float32 weights.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <random>
#include <vector>

#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/accumulation/exact_weight_gemm.hpp"

namespace {

using floatscope::emu::TruthNumber;
constexpr int precision = 256;

/// `count` activations as the truth holds them: 256-bit numbers with every bit in use (a quotient).
std::vector<TruthNumber> activations(std::size_t count, unsigned seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(-2, 2);
    std::vector<TruthNumber> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        TruthNumber x = floatscope::emu::truth_number(precision);
        mpfr_set_d(x.backend().data(), uniform(random), MPFR_RNDN);
        mpfr_div_ui(x.backend().data(), x.backend().data(), 3, MPFR_RNDN);
        out.push_back(std::move(x));
    }
    return out;
}

/// `count` float32 weights as the model's doubles.
std::vector<double> weight_values(std::size_t count, unsigned seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> uniform(-0.1F, 0.1F);
    std::vector<double> values(count);
    for (double& v : values) v = uniform(random);
    return values;
}

/// The same weights held at the truth's precision, as an ONNX node converts its initializers.
std::vector<TruthNumber> weights(std::size_t count, unsigned seed) {
    return floatscope::emu::to_truth(weight_values(count, seed), precision);
}

/// The time per product of a GEMM of `products` products (m k n), as ns_per_product.
void count_products(benchmark::State& state, std::size_t products) {
    state.counters["ns_per_product"] =
        benchmark::Counter(static_cast<double>(products) * static_cast<double>(state.iterations()) * 1e-9,
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

/// C (m x n) = A (m x k) B (k x n); activations on the side the CRNN has them.
void exact_gemm(benchmark::State& state, std::size_t m, std::size_t k, std::size_t n, bool activations_left) {
    const std::vector<TruthNumber> a = activations_left ? activations(m * k, 1) : weights(m * k, 1);
    const std::vector<TruthNumber> b = activations_left ? weights(k * n, 2) : activations(k * n, 2);
    for (auto _ : state) {
        std::vector<TruthNumber> c = floatscope::emu::exact_gemm(a, b, m, k, n, precision);
        benchmark::DoNotOptimize(c.data());
    }
    count_products(state, m * k * n);
}

/// The same product with B's weights as the model's doubles (exact_gemm_by_doubles), as an ONNX node's
/// MatMul or Gemm reads its initializer.
void gemm_by_double_weights(benchmark::State& state, std::size_t m, std::size_t k, std::size_t n) {
    const std::vector<TruthNumber> a = activations(m * k, 1);
    const std::vector<double> b = weight_values(k * n, 2);
    for (auto _ : state) {
        std::vector<TruthNumber> c = floatscope::emu::exact_gemm_by_doubles(a, b, m, k, n, precision);
        benchmark::DoNotOptimize(c.data());
    }
    count_products(state, m * k * n);
}

// The 6625-class head (32 steps x 256) and a neck projection: activations by weights.
BENCHMARK_CAPTURE(exact_gemm, head_32x256x6625, 32, 256, 6625, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(exact_gemm, neck_32x256x512, 32, 256, 512, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(gemm_by_double_weights, head_32x256x6625, 32, 256, 6625)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(gemm_by_double_weights, neck_32x256x512, 32, 256, 512)->Unit(benchmark::kMillisecond);
// A 1x1 convolution (weights by im2col's activations) and one depthwise channel.
BENCHMARK_CAPTURE(exact_gemm, pointwise_576x96x128, 576, 96, 128, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(exact_gemm, depthwise_1x9x384, 1, 9, 384, false)->Unit(benchmark::kMicrosecond);
// Attention scores: activations by activations.
BENCHMARK_CAPTURE(exact_gemm, attention_32x32x32, 32, 32, 32, true)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
