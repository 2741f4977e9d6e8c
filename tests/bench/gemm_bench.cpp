// Speed of emulated GEMM under accumulation models (512 x 512 x 512), beside native Eigen float GEMM.
#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include <random>
#include <string>
#include <vector>

#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/accumulation/kernels/gemm_fp32.hpp"
#include "emulation/quantize/block_scaled_operands.hpp"
#include "tests/bench/square_matrices.hpp"

#if defined(FLOATSCOPE_BENCH_EIGEN_V4)
extern "C" void floatscope_bench_eigen_sgemm_v4(const float* a, const float* b, float* c, int n);
#endif

namespace {

using floatscope::bench::matrix;
using floatscope::bench::set_flops;
constexpr auto size = static_cast<int>(floatscope::bench::matrix_size);

std::vector<float> as_floats(const std::vector<double>& m) { return {m.begin(), m.end()}; }

void eigen_float(benchmark::State& state) {
    const std::vector<float> a = as_floats(matrix(1)), b = as_floats(matrix(2));
    const Eigen::Map<const Eigen::MatrixXf> ma(a.data(), size, size), mb(b.data(), size, size);
    Eigen::MatrixXf c(size, size);
    for (auto _ : state) {
        c.noalias() = ma * mb;
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    set_flops(state);
    state.SetLabel(Eigen::SimdInstructionSetsInUse());
}

#if defined(FLOATSCOPE_BENCH_EIGEN_V4)
void eigen_float_v4(benchmark::State& state) {
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
        !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512vl")) {
        state.SkipWithError("CPU is not x86-64-v4");
        return;
    }
    const std::vector<float> a = as_floats(matrix(1)), b = as_floats(matrix(2));
    std::vector<float> c(a.size());
    for (auto _ : state) {
        floatscope_bench_eigen_sgemm_v4(a.data(), b.data(), c.data(), size);
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    set_flops(state);
    state.SetLabel("Eigen built with -march=x86-64-v4");
}
#endif

void emulated(benchmark::State& state, const std::string& preset) {
    const auto& model = floatscope::emu::find_accumulation_preset(preset).model;
    const std::vector<double>& a = matrix(1);
    const std::vector<double>& b = matrix(2);
    std::vector<double> c(a.size());
    for (auto _ : state) {
        floatscope::emu::matrix_product(model, a, b, c, size, size, size);
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    set_flops(state);
    if (model.order == floatscope::emu::AccumulationOrder::BlockScaledFma) {
        state.SetLabel("block-scaled (recipe quantization included)");
        return;
    }
    const floatscope::emu::GemmPath path = floatscope::emu::gemm_path(model);
    std::string label = floatscope::emu::to_string(path);
    if (path == floatscope::emu::GemmPath::NativeFp32)
        label += std::string(" (") + floatscope::emu::detail::gemm_fp32_kernel_name() + ")";
    state.SetLabel(label);
}

void register_all() {
    benchmark::RegisterBenchmark("baseline/eigen_float/project_flags", eigen_float)->Unit(benchmark::kMillisecond);
#if defined(FLOATSCOPE_BENCH_EIGEN_V4)
    benchmark::RegisterBenchmark("baseline/eigen_float/x86-64-v4", eigen_float_v4)->Unit(benchmark::kMillisecond);
#endif
    // Inputs are doubles: each figure includes the quantization of A and B and the output rounding
    // (for the block-scaled presets, their MX or NVFP4 recipe along k, as a policy runs them).
    // The recipes worth comparing, then every hardware preset (the bar is each one's speed).
    std::vector<std::string> names = {"fp32", "bf16_fp32", "fp16", "fp8_e4m3"};
    for (const floatscope::emu::AccumulationPreset& preset : floatscope::emu::accumulation_presets())
        if (preset.kind == floatscope::emu::PresetKind::Hardware) names.push_back(preset.name);
    for (const std::string& name : names)
        benchmark::RegisterBenchmark(("gemm/" + name).c_str(), [name](benchmark::State& s) {
            emulated(s, name);
        })->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
