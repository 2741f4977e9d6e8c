// Speed of bit-exact emulated scalar arithmetic (with flags), beside native float and _Float16;
// binary128 through MPFR (emu::WideArithmetic) beside native double and GCC's software __float128.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <random>
#include <vector>

#include "core/catalog.hpp"
#include "core/wide_format.hpp"
#include "emulation/arithmetic.hpp"
#include "emulation/wide_arithmetic.hpp"

namespace {

using floatscope::core::parse_format;
using floatscope::emu::Arithmetic;
using floatscope::emu::Operation;

constexpr std::size_t array_length = 4096;

/// Operands near 1, values of the format, so that chains neither overflow nor underflow.
std::vector<double> operands(const Arithmetic& arithmetic, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<double> near_one(0.75, 1.25);
    std::vector<double> v(array_length);
    for (double& x : v) x = arithmetic.round(near_one(generator)).value;
    return v;
}

/// A dependent chain: each result feeds the next operation (latency). The operation is known at
/// compile time, as in code that calls add, mul or fma.
template <Operation op>
void emulated_chain(benchmark::State& state, const char* format) {
    const Arithmetic arithmetic(parse_format(format), {});
    const std::vector<double> b = operands(arithmetic, 1);
    double x = arithmetic.round(1.0).value;
    std::size_t i = 0;
    for (auto _ : state) {
        // x op b stays near 1: multiply by values near 1, add values near 0 (b - 1 is exact here).
        floatscope::core::Rounded r;
        if constexpr (op == Operation::Mul) r = arithmetic.mul(x, b[i]);
        if constexpr (op == Operation::Add) r = arithmetic.add(x, b[i] - 1.0);
        if constexpr (op == Operation::Fma) r = arithmetic.fma(x, b[i], b[i] - 1.0);
        x = r.value;
        if (x > 4 || x < 0.25) x = 1;
        i = (i + 1) % array_length;
        benchmark::DoNotOptimize(r.flags);
    }
    benchmark::DoNotOptimize(x);
    state.SetItemsProcessed(state.iterations());
}

/// Independent operations over arrays (throughput): one call per array (Arithmetic::apply_arrays).
void emulated_array(benchmark::State& state, const char* format, Operation op) {
    const Arithmetic arithmetic(parse_format(format), {});
    const std::vector<double> a = operands(arithmetic, 2), b = operands(arithmetic, 3), c = operands(arithmetic, 4);
    std::vector<double> out(array_length);
    std::uint8_t flags = 0;
    for (auto _ : state) {
        flags |= arithmetic.apply_arrays(op, a, b, c, out).bits;
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(flags);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * array_length));
}

/// Independent operations over arrays, one scalar call each (what a plain loop over apply_values gets).
void emulated_loop(benchmark::State& state, const char* format, Operation op) {
    const Arithmetic arithmetic(parse_format(format), {});
    const std::vector<double> a = operands(arithmetic, 2), b = operands(arithmetic, 3), c = operands(arithmetic, 4);
    std::vector<double> out(array_length);
    std::uint8_t flags = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < array_length; ++i) {
            const floatscope::core::Rounded r = arithmetic.apply_values(op, a[i], b[i], c[i]);
            out[i] = r.value;
            flags |= r.flags.bits;
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(flags);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * array_length));
}

template <typename T>
void native_chain(benchmark::State& state, Operation op) {
    T x = T(1);
    const T b = T(1.0009765625), c = T(0.0009765625);
    for (auto _ : state) {
        x = op == Operation::Mul ? T(x * b) : op == Operation::Fma ? T(x * b - c) : T(x + c);
        if (x > T(4)) x = T(1);
        benchmark::DoNotOptimize(x);
    }
    state.SetItemsProcessed(state.iterations());
}

template <typename T>
void native_array(benchmark::State& state, Operation op) {
    std::vector<T> a(array_length, T(1.25)), b(array_length, T(0.75)), c(array_length, T(0.5)), out(array_length);
    for (auto _ : state) {
        for (std::size_t i = 0; i < array_length; ++i)
            out[i] = op == Operation::Mul ? T(a[i] * b[i]) : op == Operation::Fma ? T(a[i] * b[i] + c[i]) : T(a[i] + b[i]);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * array_length));
}

/// Independent binary128 operations over arrays of patterns of values near 1 (throughput).
void wide_array(benchmark::State& state, const char* format, Operation op) {
    const floatscope::core::FormatSpec spec = parse_format(format);
    const floatscope::emu::WideArithmetic arithmetic(spec, {});
    std::mt19937_64 generator(5);
    std::uniform_real_distribution<double> near_one(0.75, 1.25);
    auto patterns = [&] {
        // Decimals of 17 digits: binary128 values with full significands.
        std::vector<floatscope::core::WideBits> v(array_length);
        for (auto& bits : v)
            bits = arithmetic.rounder()(floatscope::core::parse_wide_value(fmt::format("{:.17g}", near_one(generator)),
                                                                           spec.mantissa_bits + 66))
                       .bits;
        return v;
    };
    const auto a = patterns(), b = patterns(), c = patterns();
    std::uint8_t flags = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < array_length; ++i) {
            const floatscope::core::WideRounded r = arithmetic.apply(op, a[i], b[i], c[i]);
            flags |= r.flags.bits;
            benchmark::DoNotOptimize(r.bits);
        }
    }
    benchmark::DoNotOptimize(flags);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * array_length));
}

void register_all() {
    for (Operation op : {Operation::Add, Operation::Mul, Operation::Fma}) {
        const std::string name = floatscope::emu::to_string(op);
        benchmark::RegisterBenchmark(("native/float/chain/" + name).c_str(), [op](auto& s) { native_chain<float>(s, op); });
        benchmark::RegisterBenchmark(("native/_Float16/chain/" + name).c_str(),
                                     [op](auto& s) { native_chain<_Float16>(s, op); });
        benchmark::RegisterBenchmark(("native/float/array/" + name).c_str(), [op](auto& s) { native_array<float>(s, op); });
        benchmark::RegisterBenchmark(("native/_Float16/array/" + name).c_str(),
                                     [op](auto& s) { native_array<_Float16>(s, op); });
        benchmark::RegisterBenchmark(("native/double/array/" + name).c_str(), [op](auto& s) { native_array<double>(s, op); });
        benchmark::RegisterBenchmark(("native/__float128/array/" + name).c_str(),
                                     [op](auto& s) { native_array<__float128>(s, op); });
        benchmark::RegisterBenchmark(("emulated/binary128/array/" + name).c_str(),
                                     [op](auto& s) { wide_array(s, "binary128", op); });
        for (const char* format : {"fp16", "bf16", "fp8_e4m3", "e6m9"}) {
            benchmark::RegisterBenchmark(("emulated/" + std::string(format) + "/chain/" + name).c_str(), [=](auto& s) {
                if (op == Operation::Add) emulated_chain<Operation::Add>(s, format);
                if (op == Operation::Mul) emulated_chain<Operation::Mul>(s, format);
                if (op == Operation::Fma) emulated_chain<Operation::Fma>(s, format);
            });
            benchmark::RegisterBenchmark(("emulated/" + std::string(format) + "/array/" + name).c_str(),
                                         [=](auto& s) { emulated_array(s, format, op); });
            benchmark::RegisterBenchmark(("emulated/" + std::string(format) + "/loop/" + name).c_str(),
                                         [=](auto& s) { emulated_loop(s, format, op); });
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
