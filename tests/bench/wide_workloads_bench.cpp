// Speed of iterative-refinement and mlp-forward in formats wider than binary64, beside the same
// workloads in fp64 in the same run (issue 42's target: binary128 refinement of n = 100 under 2 s).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"

namespace {

/// One emulated run of `workload` under `policy` (no ground truth), its regions kept.
void workload_run(benchmark::State& state, const char* workload_name, const char* policy,
                  const std::vector<std::string>& assignments) {
    const auto& workload = floatscope::emu::find_workload(workload_name);
    const floatscope::emu::Parameters parameters =
        floatscope::emu::Parameters::parse(workload.parameters(), assignments);
    const floatscope::emu::PrecisionPolicy parsed = floatscope::emu::parse_policy(policy);
    floatscope::emu::RunControl control;
    for (auto _ : state) {
        floatscope::emu::Trace trace;
        workload.run(parameters, parsed, trace, control);
        benchmark::DoNotOptimize(trace.regions().back().values.data());
    }
}

/// n = 100, kappa = 10^3, every step of max-iterations = 20 (stop=none: the same work per policy).
const std::vector<std::string> refinement = {"n=100", "kappa=1e3", "stop=none", "max-iterations=20"};
/// A small network: every operation of a wide layer is a wide one.
const std::vector<std::string> mlp = {"depth=4", "width=64", "batch=8"};

}  // namespace

BENCHMARK_CAPTURE(workload_run, refinement_fp64, "iterative-refinement", "fp64; compute=fp16", refinement)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_run, refinement_fp64_binary128_residual, "iterative-refinement",
                  "fp64; compute=fp16; accumulate=binary128", refinement)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_run, refinement_binary128, "iterative-refinement", "binary128; compute=fp16", refinement)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_run, refinement_binary128_binary256_residual, "iterative-refinement",
                  "binary128; compute=fp16; accumulate=binary256", refinement)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_run, mlp_fp64, "mlp-forward", "fp64", mlp)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_run, mlp_binary128, "mlp-forward", "binary128", mlp)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_run, mlp_binary256, "mlp-forward", "binary256", mlp)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
