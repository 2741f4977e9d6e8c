// Speed of fp64 GEMM policies (512 x 512 x 512) beside plain double loops of the same order, in the same run.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/catalog.hpp"
#include "core/kernel_clones.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "tests/bench/square_matrices.hpp"

namespace {

using floatscope::bench::matrix;
using floatscope::bench::set_flops;
constexpr auto size = static_cast<std::size_t>(floatscope::bench::matrix_size);

// The baselines: what one would write by hand for the same order of operations (each entry's sum
// from +0 over k in increasing order, c = fma(a, b, c)), built per instruction set as the kernels
// are (FLOATSCOPE_KERNEL_CLONES), so that std::fma is the FMA instruction in both.

/// The textbook triple loop, i-j-k: one entry's chain of fmas at a time.
FLOATSCOPE_KERNEL_CLONES void triple_loop_ijk(const double* a, const double* b, double* c, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            double s = 0;
            for (std::size_t k = 0; k < n; ++k) s = std::fma(a[i * n + k], b[k * n + j], s);
            c[i * n + j] = s;
        }
}

/// The same chains interleaved, i-k-j: a row of C advanced one k at a time (vectorizes across j).
FLOATSCOPE_KERNEL_CLONES void triple_loop_ikj(const double* a, const double* b, double* c, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        double* row = c + i * n;
        for (std::size_t j = 0; j < n; ++j) row[j] = 0;
        for (std::size_t k = 0; k < n; ++k) {
            const double x = a[i * n + k];
            const double* brow = b + k * n;
            for (std::size_t j = 0; j < n; ++j) row[j] = std::fma(x, brow[j], row[j]);
        }
    }
}

void native(benchmark::State& state, void (*loop)(const double*, const double*, double*, std::size_t)) {
    const std::vector<double>& a = matrix(1);
    const std::vector<double>& b = matrix(2);
    std::vector<double> c(a.size());
    for (auto _ : state) {
        loop(a.data(), b.data(), c.data(), size);
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    set_flops(state);
}

floatscope::core::FormatRounding fp64() { return {floatscope::core::parse_format("fp64"), {}}; }

floatscope::emu::AccumulationModel fp64_model() {
    floatscope::emu::AccumulationModel m;
    m.x.rounding = m.y.rounding = m.accumulator = m.output = fp64();
    return m;
}

void emulated(benchmark::State& state, const floatscope::emu::AccumulationModel& model) {
    const std::vector<double>& a = matrix(1);
    const std::vector<double>& b = matrix(2);
    std::vector<double> c(a.size());
    for (auto _ : state) {
        floatscope::emu::gemm(model, a, b, c, size, size, size);
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    set_flops(state);
    state.SetLabel(floatscope::emu::to_string(floatscope::emu::gemm_path(model)));
}

void register_all() {
    using floatscope::emu::AccumulationOrder;
    benchmark::RegisterBenchmark("fp64/native_triple_loop_ijk", native, triple_loop_ijk)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("fp64/native_triple_loop_ikj", native, triple_loop_ikj)->Unit(benchmark::kMillisecond);
    auto model = fp64_model();
    benchmark::RegisterBenchmark("fp64/policy_sequential", emulated, model)->Unit(benchmark::kMillisecond);
    model.order = AccumulationOrder::Blocked;
    model.block_size = 32;
    model.combine = fp64();
    benchmark::RegisterBenchmark("fp64/policy_blocked_32", emulated, model)->Unit(benchmark::kMillisecond);
    model = fp64_model();
    model.compensated = true;
    benchmark::RegisterBenchmark("fp64/policy_kahan", emulated, model)->Unit(benchmark::kMillisecond);
    model = fp64_model();
    model.order = AccumulationOrder::Pairwise;
    model.multiply_add = floatscope::emu::MultiplyAdd::Separate;
    model.product = fp64();
    benchmark::RegisterBenchmark("fp64/policy_pairwise_mul_add", emulated, model)->Unit(benchmark::kMillisecond);
    model.multiply_add = floatscope::emu::MultiplyAdd::Fused;
    // Pairs of exact 106-bit products rounded once (double words where certain, else exact arithmetic).
    benchmark::RegisterBenchmark("fp64/policy_pairwise_fma", emulated, model)->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
