// Speed of array rounding to fp16, bf16, fp8_e4m3, the P3109 8-bit formats, posits, takum16 and
// HiFloat8, beside hardware conversions and memcpy: from memory (10^7 elements, round/ and baseline/)
// and in L1 cache (4096 floats rounded again and again, l1/), where the kernels' own cost shows.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <bit>
#include <cstring>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "core/catalog.hpp"
#include "core/kernel_clones.hpp"
#include "core/round_array.hpp"

namespace {

using floatscope::core::parse_format;
using floatscope::core::RoundingMode;
using floatscope::core::StochasticSource;

constexpr std::size_t element_count = 10'000'000;
/// 16 KiB of floats in and 16 KiB out: both stay in a 32 KiB or larger L1 data cache.
constexpr std::size_t cached_count = 4096;

/// Normally distributed values (sigma 1): mostly normal numbers of every 8-bit format, with the
/// tails reaching their subnormal and overflow ranges as real tensors do.
template <typename T>
const std::vector<T>& inputs() {
    static const std::vector<T> values = [] {
        std::mt19937_64 generator(2026);
        std::normal_distribution<double> normal(0.0, 1.0);
        std::vector<T> v(element_count);
        for (T& x : v) x = static_cast<T>(normal(generator));
        return v;
    }();
    return values;
}

void set_per_element(benchmark::State& state, std::size_t count = element_count) {
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * count));
    state.counters["ns_per_element"] = benchmark::Counter(
        static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <typename T>
void round_to(benchmark::State& state, const char* format, RoundingMode mode) {
    const auto spec = parse_format(format);
    const std::vector<T>& in = inputs<T>();
    std::vector<T> out(in.size());
    StochasticSource random(7);
    for (auto _ : state) {
        floatscope::core::round_array(spec, mode, std::span<const T>(in), std::span<T>(out), &random);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_per_element(state);
    state.SetLabel(floatscope::core::round_array_is_fast(spec, mode, sizeof(T) == 8) ? "fast path" : "Rounder");
}

/// The first `count` inputs: a view into the shared vector.
template <typename T>
std::span<const T> first_inputs(std::size_t count) {
    return std::span<const T>(inputs<T>()).first(count);
}

void cached_round_to(benchmark::State& state, const char* format, RoundingMode mode) {
    const auto spec = parse_format(format);
    const std::span<const float> in = first_inputs<float>(cached_count);
    std::vector<float> out(in.size());
    StochasticSource random(7);
    for (auto _ : state) {
        floatscope::core::round_array(spec, mode, in, std::span<float>(out), &random);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_per_element(state, cached_count);
    state.SetLabel(floatscope::core::round_array_is_fast(spec, mode, false) ? "fast path" : "Rounder");
}

template <typename T>
void copy_baseline(benchmark::State& state, std::size_t count) {
    const std::span<const T> in = first_inputs<T>(count);
    std::vector<T> out(in.size());
    for (auto _ : state) {
        std::memcpy(out.data(), in.data(), in.size() * sizeof(T));
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_per_element(state, count);
}

/// bf16 by the bit trick (add 0x7FFF plus the kept last bit, truncate; NaNs not kept), back in a float:
/// what CPFloat does for bf16, the figure the array kernel's bf16 rne is set beside (cloned like it).
FLOATSCOPE_KERNEL_CLONES void bf16_bit_trick(const float* __restrict in, float* __restrict out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const auto bits = std::bit_cast<std::uint32_t>(in[i]);
        out[i] = std::bit_cast<float>((bits + 0x7FFFu + ((bits >> 16) & 1u)) & 0xFFFF0000u);
    }
}

void bf16_bit_trick_baseline(benchmark::State& state, std::size_t count) {
    const std::span<const float> in = first_inputs<float>(count);
    std::vector<float> out(in.size());
    for (auto _ : state) {
        bf16_bit_trick(in.data(), out.data(), in.size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_per_element(state, count);
}

__attribute__((target("avx2,f16c"))) void convert_f16c(const float* in, std::uint16_t* out, std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i half = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), half);
    }
    for (; i < n; ++i) out[i] = _cvtss_sh(in[i], _MM_FROUND_TO_NEAREST_INT);
}

/// float -> fp16 -> float, the hardware's equivalent of round_array to fp16 (output a float).
__attribute__((target("avx2,f16c"))) void round_trip_f16c(const float* in, float* out, std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i half = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(half));
    }
    for (; i < n; ++i) out[i] = _cvtsh_ss(_cvtss_sh(in[i], _MM_FROUND_TO_NEAREST_INT));
}

template <typename Out, void (*convert)(const float*, Out*, std::size_t)>
void hardware_fp16(benchmark::State& state, std::size_t count) {
    if (!__builtin_cpu_supports("f16c")) {
        state.SkipWithError("CPU has no F16C");
        return;
    }
    const std::span<const float> in = first_inputs<float>(count);
    std::vector<Out> out(in.size());
    for (auto _ : state) {
        convert(in.data(), out.data(), in.size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_per_element(state, count);
}

__attribute__((target("avx512f,avx512bf16"))) void convert_avx512_bf16(const float* in, std::uint16_t* out,
                                                                       std::size_t n) {
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256bh packed = _mm512_cvtneps_pbh(_mm512_loadu_ps(in + i));
        std::memcpy(out + i, &packed, sizeof(packed));
    }
    for (; i < n; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, in + i, 4);
        out[i] = static_cast<std::uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
    }
}

void hardware_bf16(benchmark::State& state, std::size_t count) {
    if (!__builtin_cpu_supports("avx512bf16")) {
        state.SkipWithError("CPU has no AVX512-BF16");
        return;
    }
    const std::span<const float> in = first_inputs<float>(count);
    std::vector<std::uint16_t> out(in.size());
    for (auto _ : state) {
        convert_avx512_bf16(in.data(), out.data(), in.size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_per_element(state, count);
}

void double_to_float_baseline(benchmark::State& state) {
    const std::vector<double>& in = inputs<double>();
    std::vector<float> out(in.size());
    for (auto _ : state) {
        for (std::size_t i = 0; i < in.size(); ++i) out[i] = static_cast<float>(in[i]);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_per_element(state);
}

void register_all() {
    for (const auto& [prefix, count] :
         {std::pair{"baseline/", element_count}, std::pair{"l1/baseline/", cached_count}}) {
        const std::string p = prefix;
        const std::size_t n = count;
        benchmark::RegisterBenchmark((p + "memcpy/float").c_str(), [n](auto& s) { copy_baseline<float>(s, n); });
        benchmark::RegisterBenchmark((p + "memcpy/double").c_str(), [n](auto& s) { copy_baseline<double>(s, n); });
        benchmark::RegisterBenchmark((p + "f16c_vcvtps2ph/float").c_str(),
                                     [n](auto& s) { hardware_fp16<std::uint16_t, convert_f16c>(s, n); });
        benchmark::RegisterBenchmark((p + "f16c_round_trip/float").c_str(),
                                     [n](auto& s) { hardware_fp16<float, round_trip_f16c>(s, n); });
        benchmark::RegisterBenchmark((p + "avx512bf16_vcvtneps2bf16/float").c_str(),
                                     [n](auto& s) { hardware_bf16(s, n); });
        benchmark::RegisterBenchmark((p + "bf16_bit_trick/float").c_str(),
                                     [n](auto& s) { bf16_bit_trick_baseline(s, n); });
    }
    benchmark::RegisterBenchmark("baseline/cvtpd2ps/double", double_to_float_baseline);
    // binary8p4se is P3109's E4M3 (bias 8, NaN at 0x80, inf at 0x7F): the figure to set beside fp8_e4m3's.
    // posit16 (bit-manipulation kernel) is the tapered figure to set beside fp8_e4m3's; posit8, takum16
    // (the same kernel) and hifloat8 (element by element through Rounder) beside it.
    for (const char* format : {"fp16", "bf16", "fp8_e4m3", "binary8p4se", "binary8p3se", "binary8p4se:satfinite",
                               "posit16", "posit8", "takum16", "hifloat8"}) {
        for (RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Stochastic}) {
            const std::string suffix = std::string(format) + "/" + floatscope::core::to_string(mode);
            benchmark::RegisterBenchmark(("round/float/" + suffix).c_str(),
                                         [=](benchmark::State& s) { round_to<float>(s, format, mode); });
            benchmark::RegisterBenchmark(("round/double/" + suffix).c_str(),
                                         [=](benchmark::State& s) { round_to<double>(s, format, mode); });
        }
    }
    for (const char* format : {"fp16", "bf16", "fp8_e4m3", "fp8_e5m2", "fp6_e2m3", "fp4_e2m1"}) {
        for (RoundingMode mode :
             {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward, RoundingMode::Downward,
              RoundingMode::NearestAway, RoundingMode::ToOdd, RoundingMode::Stochastic}) {
            const std::string name = std::string("l1/round/float/") + format + "/" + floatscope::core::to_string(mode);
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) { cached_round_to(s, format, mode); });
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
