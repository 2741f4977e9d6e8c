// Speed of binary128 accumulation (emulation/accumulation/binary128_accumulation) beside plain
// GCC __float128 loops of the same order, in the same run: a sum of 10^6 doubles and a 128^3 GEMM
// (software binary128 costs tens of nanoseconds an operation: 512^3 would take seconds a product).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "emulation/accumulation/binary128_accumulation.hpp"
#include "emulation/accumulation/dot.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/registry.hpp"
#include "emulation/workloads/sum_adders.hpp"

namespace {

using Quad = __float128;
constexpr std::size_t sum_length = 1'000'000;
constexpr std::size_t side = 128;

const std::vector<double>& normal_values(std::size_t count, unsigned seed) {
    static std::vector<std::vector<double>> made(3);
    std::vector<double>& v = made.at(seed);
    if (v.empty()) {
        std::mt19937_64 generator(seed);
        std::normal_distribution<double> normal(0.0, 1.0);
        v.resize(count);
        for (double& x : v) x = normal(generator);
    }
    return v;
}

/// fp64 operands and output, a binary128 accumulator with rne, sequential.
floatscope::emu::AccumulationModel binary128_model() {
    floatscope::emu::AccumulationModel m;
    const floatscope::core::FormatRounding fp64{floatscope::core::parse_format("fp64"), {}};
    m.x.rounding = m.y.rounding = m.output = fp64;
    m.accumulator = {floatscope::core::parse_format("binary128"), {}};
    return m;
}

// The baselines: what one writes by hand in GCC for the same order (from +0, in increasing index,
// each product of doubles exact in binary128, the result rounded once to double).

void native_sum(benchmark::State& state) {
    const std::vector<double>& x = normal_values(sum_length, 0);
    for (auto _ : state) {
        Quad s = 0;
        for (double v : x) s += v;
        benchmark::DoNotOptimize(static_cast<double>(s));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * sum_length));
}

void emulated_sum(benchmark::State& state) {
    const std::vector<double>& x = normal_values(sum_length, 0);
    const floatscope::emu::AccumulationModel model = binary128_model();
    for (auto _ : state) benchmark::DoNotOptimize(floatscope::emu::sum(model, x));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * sum_length));
}

void native_gemm(benchmark::State& state) {
    const std::vector<double>& a = normal_values(side * side, 1);
    const std::vector<double>& b = normal_values(side * side, 2);
    std::vector<double> c(side * side);
    for (auto _ : state) {
        for (std::size_t i = 0; i < side; ++i)
            for (std::size_t j = 0; j < side; ++j) {
                Quad s = 0;
                for (std::size_t k = 0; k < side; ++k)
                    s += static_cast<Quad>(a[i * side + k]) * static_cast<Quad>(b[k * side + j]);
                c[i * side + j] = static_cast<double>(s);
            }
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * side * side * side));
}

void emulated_gemm(benchmark::State& state) {
    const std::vector<double>& a = normal_values(side * side, 1);
    const std::vector<double>& b = normal_values(side * side, 2);
    std::vector<double> c(side * side);
    const floatscope::emu::AccumulationModel model = binary128_model();
    for (auto _ : state) {
        floatscope::emu::gemm(model, a, b, c, side, side, side);
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * side * side * side));
}

/// The same products left in binary128 (an output of binary128: binary128_gemm_exact).
void emulated_gemm_binary128_output(benchmark::State& state) {
    const std::vector<double>& a = normal_values(side * side, 1);
    const std::vector<double>& b = normal_values(side * side, 2);
    std::vector<Quad> c(side * side);
    const floatscope::emu::AccumulationModel model = binary128_model();
    for (auto _ : state) {
        floatscope::emu::binary128_gemm_exact(model, a.data(), b.data(), c.data(), side, side, side);
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * side * side * side));
}

/// The sum workload's adder alone (sum_adders.hpp): the same additions as native_sum, each with
/// its IEEE flags found and counted.
void adder_sum(benchmark::State& state) {
    const std::vector<double>& x = normal_values(sum_length, 0);
    const std::vector<Quad> terms(x.begin(), x.end());
    const floatscope::emu::QuadAdder adder({floatscope::core::parse_format("binary128"), {}});
    for (auto _ : state) {
        floatscope::emu::OperationCounters counters;
        Quad s = 0;
        for (const Quad t : terms) s = adder.add(s, t, counters);
        benchmark::DoNotOptimize(static_cast<double>(s));
        benchmark::DoNotOptimize(counters.inexact);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * sum_length));
}

/// What the sum workload does besides adding: drawing its standard normal terms, as it draws them.
void sum_terms_drawn(benchmark::State& state) {
    for (auto _ : state) {
        std::mt19937_64 rng(1);
        benchmark::DoNotOptimize(
            floatscope::emu::draw_many(floatscope::emu::parse_distribution("normal"), sum_length, rng).data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * sum_length));
}

/// The gemm workload (emulation/workloads/gemm.cpp) under a policy: m = n = k = state.range(0),
/// operands drawn and rounded by the workload, C kept exactly in its region (no ground truth).
void workload_gemm(benchmark::State& state, const char* policy) {
    const auto& workload = floatscope::emu::find_workload("gemm");
    const std::string side_text = std::to_string(state.range(0));
    const floatscope::emu::Parameters parameters = floatscope::emu::Parameters::parse(
        workload.parameters(), {"m=" + side_text, "n=" + side_text, "k=" + side_text, "distribution=normal"});
    const floatscope::emu::PrecisionPolicy parsed = floatscope::emu::parse_policy(policy);
    floatscope::emu::RunControl control;
    for (auto _ : state) {
        floatscope::emu::Trace trace;
        workload.run(parameters, parsed, trace, control);
        benchmark::DoNotOptimize(trace.regions().back().values.data());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0) * state.range(0) * state.range(0));
}

/// The sum workload (emulation/workloads/sum.cpp) under a policy, with its counters and regions:
/// state.range(0) standard normal terms, drawn by the workload inside the timing.
void workload_sum(benchmark::State& state, const char* policy) {
    const auto& workload = floatscope::emu::find_workload("sum");
    const floatscope::emu::Parameters parameters = floatscope::emu::Parameters::parse(
        workload.parameters(), {"series=normal", "n=" + std::to_string(state.range(0))});
    const floatscope::emu::PrecisionPolicy parsed = floatscope::emu::parse_policy(policy);
    floatscope::emu::RunControl control;
    for (auto _ : state) {
        floatscope::emu::Trace trace;
        workload.run(parameters, parsed, trace, control);
        benchmark::DoNotOptimize(trace.regions().back().values.data());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

}  // namespace

BENCHMARK(native_sum)->Unit(benchmark::kMillisecond);
BENCHMARK(emulated_sum)->Unit(benchmark::kMillisecond);
BENCHMARK(adder_sum)->Unit(benchmark::kMillisecond);
BENCHMARK(sum_terms_drawn)->Unit(benchmark::kMillisecond);
// fp64 terms in a binary128 accumulator with rne (__float128 with its flags), all roles binary128
// (the terms converted through the wide rounding), and binary256 (patterns through WideArithmetic).
// fp64 throughout: the workload's cost around its additions (drawing the terms, the bounds).
BENCHMARK_CAPTURE(workload_sum, fp64, "fp64")->Arg(sum_length)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_sum, fp64_terms_binary128, "fp64; accumulate=binary128")
    ->Arg(sum_length)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_sum, binary128, "binary128")->Arg(sum_length)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_sum, binary256, "binary256")->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(native_gemm)->Unit(benchmark::kMillisecond);
BENCHMARK(emulated_gemm)->Unit(benchmark::kMillisecond);
BENCHMARK(emulated_gemm_binary128_output)->Unit(benchmark::kMillisecond);
// Every role binary128 (rne: __float128 over the doubles), binary128 rounding toward zero and
// binary256 (emu::WideArithmetic, patterns of limbs) on a smaller product.
BENCHMARK_CAPTURE(workload_gemm, binary128, "binary128")->Arg(side)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_gemm, binary128_rtz, "binary128@rtz")->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workload_gemm, binary256, "binary256")->Arg(32)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
