// The FPBench corpus (../shared/testdata/fpbench) through the FPCore runner: 1000 samples per
// benchmark under fp32 and bf16, each point also run in MPFR at 256 bits (the speed goal:
// under 60 s on 2 cores). Reports the coverage as counters beside the time.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "core/catalog.hpp"
#include "emulation/fpcore/runner.hpp"

namespace {

using namespace floatscope::emu::fpcore;

void BM_FPBenchCorpus(benchmark::State& state) {
    std::vector<std::vector<FPCore>> files;
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(FLOATSCOPE_FPBENCH_DIR))
        if (entry.path().extension() == ".fpcore") paths.push_back(entry.path());
    if (paths.empty()) {
        state.SkipWithError("no FPBench corpus at " FLOATSCOPE_FPBENCH_DIR);
        return;
    }
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) files.push_back(read_fpcore_file(p.string()));
    const std::vector<Benchmark> benchmarks = list_benchmarks(files);
    RunOptions options;
    options.formats = {floatscope::core::parse_format("fp32"), floatscope::core::parse_format("bf16")};
    options.samples = 1000;
    options.threads = static_cast<int>(state.range(0));
    std::size_t evaluated = 0;
    for (auto _ : state) {
        const std::vector<Outcome> outcomes = run_benchmarks(benchmarks, options);
        evaluated = static_cast<std::size_t>(
            std::count_if(outcomes.begin(), outcomes.end(), [](const Outcome& o) { return o.error.empty(); }));
        benchmark::DoNotOptimize(outcomes.data());
    }
    state.counters["benchmarks"] = static_cast<double>(benchmarks.size());
    state.counters["runs_evaluated"] = static_cast<double>(evaluated);
    state.counters["runs"] = static_cast<double>(benchmarks.size() * options.formats.size());
}
BENCHMARK(BM_FPBenchCorpus)->Arg(2)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
