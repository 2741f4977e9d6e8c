// Speed of the onnx workload on a transformer encoder layer (sequence 128, width 256, 4 heads, FFN
// 1024; tests/data/onnx/write_reference_models.py writes it): each policy alone through the
// workload beside the fp32 evaluation of the same graph (native binary32 arithmetic and the fp32
// GEMM kernels), the MPFR truth alone, and the goal's whole request (4 policies + truth) through
// the engine. The model: FLOATSCOPE_ONNX_BENCH_MODEL (scripts/onnx-bench.sh sets it).
// Issue 37's CRNN recogniser (tests/data/onnx/write_crnn_model.py) alone under fp32, its first row
// (native binary32 arithmetic and the fp32 GEMM kernels), bf16 and bf16 with fp32 accumulation (the
// issue's two policies to hold within 3x of that row): FLOATSCOPE_ONNX_BENCH_CRNN names
// the folder holding crnn.onnx and crnn_input.npy; its rows are skipped without it.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/freed_memory.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/workloads/registry.hpp"

namespace {

using namespace floatscope::emu;

/// The policies of the goal: bf16, fp16, FP8 matrix products, and a tensor-core preset.
const std::vector<std::string> encoder_policies = {"bf16", "fp16; accumulate=fp32", "fp32; ops MatMul,Gemm = fp8_e4m3",
                                                   "bf16; matmul = nvidia_a100_bf16"};

Parameters encoder_parameters() {
    const char* model = std::getenv("FLOATSCOPE_ONNX_BENCH_MODEL");
    if (model == nullptr)
        throw floatscope::Error("set FLOATSCOPE_ONNX_BENCH_MODEL to the encoder (scripts/onnx-bench.sh)");
    return Parameters::parse(find_workload("onnx").parameters(), {std::string("model=") + model, "batch=1"});
}

Parameters crnn_parameters(const std::string& f) {
    return Parameters::parse(find_workload("onnx").parameters(),
                             {"model=" + f + "/crnn.onnx", "inputs=" + f + "/crnn_input.npy"});
}

void run_policy(benchmark::State& state, const Parameters& p, const std::string& policy_text) {
    const Workload& w = find_workload("onnx");
    const PrecisionPolicy policy = parse_policy(policy_text);
    for (auto _ : state) {
        Trace trace;
        RunControl control;
        w.run(p, policy, trace, control);
        benchmark::DoNotOptimize(trace.regions().data());
    }
}

void policy_alone(benchmark::State& state, const std::string& policy_text) {
    run_policy(state, encoder_parameters(), policy_text);
}

void crnn_policy(benchmark::State& state, const std::string& policy_text) {
    const char* folder = std::getenv("FLOATSCOPE_ONNX_BENCH_CRNN");
    if (folder == nullptr) {
        state.SkipWithError("set FLOATSCOPE_ONNX_BENCH_CRNN to the folder of crnn.onnx");
        return;
    }
    run_policy(state, crnn_parameters(folder), policy_text);
}

void truth_alone(benchmark::State& state) {
    const Workload& w = find_workload("onnx");
    const Parameters p = encoder_parameters();
    const TruthPrecisionScope scope(256);
    for (auto _ : state) {
        TruthTrace truth;
        RunControl control;
        w.run_ground_truth(p, 256, truth, control);
        benchmark::DoNotOptimize(truth.regions().data());
    }
}

/// The goal: 4 policies and the truth, measured against it, on 2 threads.
void whole_request(benchmark::State& state) {
    RunRequest request;
    request.workload = &find_workload("onnx");
    request.parameters = encoder_parameters();
    for (const std::string& p : encoder_policies) request.policies.push_back(parse_policy(p));
    request.threads = 2;
    for (auto _ : state) {
        RunControl control;
        const Report report = run(request, control);
        benchmark::DoNotOptimize(report.rows.data());
    }
}

}  // namespace

BENCHMARK_CAPTURE(policy_alone, fp32_native, std::string("fp32"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(policy_alone, bf16, encoder_policies[0])->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(policy_alone, fp16_acc_fp32, encoder_policies[1])->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(policy_alone, fp8_e4m3_matmuls, encoder_policies[2])->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(policy_alone, a100_bf16_preset, encoder_policies[3])->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(crnn_policy, fp32_native, std::string("fp32"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(crnn_policy, bf16, std::string("bf16"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(crnn_policy, bf16_acc_fp32, std::string("bf16; accumulate=fp32"))->Unit(benchmark::kMillisecond);
BENCHMARK(truth_alone)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(whole_request)->Unit(benchmark::kMillisecond)->Iterations(1);
// The workload's allocations as floatscope-cli and the GUI make them (core/freed_memory.hpp).
int main(int argc, char** argv) {
    floatscope::core::keep_freed_memory_for_reuse();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
