// Speed of quantize + dequantize of 10^7 values in each block-scaled format and INT8, one thread,
// beside a plain std::copy of the same array (the memory-bandwidth limit).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "emulation/quantize/block_format.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/integer_quantizer.hpp"

namespace {

using namespace floatscope::emu;

constexpr std::size_t element_count = 10'000'000;

/// Normally distributed weights (sigma 1).
const std::vector<float>& inputs() {
    static const std::vector<float> values = [] {
        std::mt19937_64 generator(2026);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        std::vector<float> v(element_count);
        for (float& x : v) x = normal(generator);
        return v;
    }();
    return values;
}

void set_per_value(benchmark::State& state) {
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * element_count));
}

void block_round_trip(benchmark::State& state, const char* name) {
    const BlockFormat format = parse_block_format(name);
    const std::vector<float>& in = inputs();
    std::vector<float> out(in.size());
    floatscope::core::StochasticSource random(7);
    for (auto _ : state) {
        const BlockQuantized q = quantize_blocks(format, in, &random);
        dequantize_blocks(q, out);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_per_value(state);
}

void int8_round_trip(benchmark::State& state, Granularity granularity) {
    IntegerQuantizerConfig config;
    config.granularity = granularity;
    const std::vector<float>& in = inputs();
    std::vector<float> out(in.size());
    for (auto _ : state) {
        const IntegerQuantized q = quantize_integer(config, in, 10'000, 1'000);
        dequantize_integer(q, out);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_per_value(state);
}

void copy_baseline(benchmark::State& state) {
    const std::vector<float>& in = inputs();
    std::vector<float> out(in.size());
    for (auto _ : state) {
        std::copy(in.begin(), in.end(), out.begin());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_per_value(state);
}

}  // namespace

BENCHMARK(copy_baseline)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, mxfp8_e4m3, "mxfp8_e4m3")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, mxfp8_e5m2, "mxfp8_e5m2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, mxfp6_e2m3, "mxfp6_e2m3")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, mxfp6_e3m2, "mxfp6_e3m2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, mxfp4, "mxfp4")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, mxfp4_sr, "mxfp4:sr")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, mxint8, "mxint8")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, nvfp4, "nvfp4")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, nvfp4_sr, "nvfp4:sr")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, nf4, "nf4")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, nf4_dq, "nf4:dq")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(block_round_trip, bnb_fp4, "bnb_fp4")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(int8_round_trip, per_tensor, Granularity::PerTensor)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(int8_round_trip, per_row, Granularity::PerRow)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
