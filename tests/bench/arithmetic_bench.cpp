// Speed of bit-exact emulated scalar arithmetic (with flags), beside native float and _Float16;
// binary128 and binary256 (emu::WideArithmetic: its fixed-size path, with GMP-integer patterns or
// limbs, and its MPFR path) beside native double and GCC's software __float128; the truth's erf and exp
// at 256 bits (correctly_rounded_erf, correctly_rounded_exp) beside mpfr_erf and mpfr_exp.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/catalog.hpp"
#include "core/mpfr_number.hpp"
#include "core/wide_format.hpp"
#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/arithmetic/table_erf.hpp"
#include "emulation/arithmetic/table_exp.hpp"
#include "emulation/arithmetic/wide_arithmetic.hpp"

namespace {

using floatscope::core::parse_format;
using floatscope::emu::Arithmetic;
using floatscope::emu::Operation;

constexpr std::size_t array_length = 4096;

/// Every benchmark iteration runs array_length operations: items per second, and their inverse,
/// the time per operation ("per_op"), which is what the goals are stated in.
void count_operations(benchmark::State& state) {
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * array_length));
    state.counters["per_op"] = benchmark::Counter(
        static_cast<double>(array_length), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// Operands near 1, values of the format, so that chains neither overflow nor underflow.
std::vector<double> operands(const Arithmetic& arithmetic, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<double> near_one(0.75, 1.25);
    std::vector<double> v(array_length);
    for (double& x : v) x = arithmetic.round(near_one(generator)).value;
    return v;
}

/// Keeps a chain's value within [0.25, 4]. A branch, taken about once in several hundred steps
/// and so predicted: a select (what GCC makes of a plain `if` here) would add its compare and blend
/// to every step of the chain (measured on native float: 2.9 rather than 0.9 ns per add).
/// The empty volatile asm keeps GCC from turning the branch into a select (it cannot run it
/// speculatively); it clobbers nothing, so x stays in its register.
template <typename T>
[[gnu::always_inline]] inline void keep_near_one(T& x) {
    if (x > T(4) || x < T(0.25)) {
        x = T(1);
        asm volatile("");
    }
}

/// A dependent chain: each result feeds the next operation (latency), x op b[i] with b near 1 (mul)
/// or near 0 (add, and fma's addend), so that the value stays near 1. The operation is known at
/// compile time, as in code that calls add, mul or fma; native and emulated chains share this loop.
/// Not inlined into the benchmark loop, where x would live across its calls and so in memory (all
/// SSE registers are caller-saved), which adds a store and a load to every step.
template <Operation op, typename T, typename Step>
[[gnu::noinline]] T run_chain(T x, const std::vector<T>& factors, const std::vector<T>& terms, Step& step) {
    for (std::size_t i = 0; i < array_length; ++i) {
        if constexpr (op == Operation::Mul) x = step(x, factors[i], T(0));
        if constexpr (op == Operation::Add) x = step(x, terms[i], T(0));
        if constexpr (op == Operation::Fma) x = step(x, factors[i], terms[i]);
        keep_near_one(x);
    }
    return x;
}

template <Operation op, typename T, typename Step>
void chain(benchmark::State& state, const std::vector<T>& factors, const std::vector<T>& terms, T x, Step step) {
    for (auto _ : state) x = run_chain<op>(x, factors, terms, step);
    benchmark::DoNotOptimize(x);
    count_operations(state);
}

/// b - 1 for each b: values of the format near 0 (exact: b is near 1).
template <typename T>
std::vector<T> minus_one(const std::vector<T>& factors) {
    std::vector<T> terms;
    for (T b : factors) terms.push_back(T(b - T(1)));
    return terms;
}

template <Operation op>
void emulated_chain(benchmark::State& state, const char* format) {
    const Arithmetic arithmetic(parse_format(format), {});
    const std::vector<double> factors = operands(arithmetic, 1), terms = minus_one(factors);
    std::uint8_t flags = 0;
    chain<op>(state, factors, terms, arithmetic.round(1.0).value, [&](double x, double b, double c) {
        floatscope::core::Rounded r;
        if constexpr (op == Operation::Mul) r = arithmetic.mul(x, b);
        if constexpr (op == Operation::Add) r = arithmetic.add(x, b);
        if constexpr (op == Operation::Fma) r = arithmetic.fma(x, b, c);
        flags |= r.flags.bits;
        return r.value;
    });
    benchmark::DoNotOptimize(flags);
}

/// The same chain in a native type (operands near 1 rounded to T); fma is x * b + c, two roundings
/// (the project's baseline x86-64 has no fma instruction).
template <typename T, Operation op>
void native_chain(benchmark::State& state) {
    std::mt19937_64 generator(1);
    std::uniform_real_distribution<double> near_one(0.75, 1.25);
    std::vector<T> factors(array_length);
    for (T& b : factors) b = T(near_one(generator));
    chain<op>(state, factors, minus_one(factors), T(1), [](T x, T b, T c) {
        if constexpr (op == Operation::Mul) return T(x * b);
        if constexpr (op == Operation::Add) return T(x + b);
        return T(x * b + c);
    });
}

/// How a benchmark calls the arithmetic: one apply_arrays call per array, or apply_values per element.
enum class Calls { Array, Loop };

/// Throughput of `op` over the operands a, b, c in `arithmetic`'s format, called as `calls` says.
void time_operations(benchmark::State& state, const Arithmetic& arithmetic, Operation op, Calls calls,
                     const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& c) {
    std::vector<double> out(array_length);
    std::uint8_t flags = 0;
    for (auto _ : state) {
        if (calls == Calls::Array) {
            flags |= arithmetic.apply_arrays(op, a, b, c, out).bits;
        } else {
            for (std::size_t i = 0; i < array_length; ++i) {
                const floatscope::core::Rounded r = arithmetic.apply_values(op, a[i], b[i], c[i]);
                out[i] = r.value;
                flags |= r.flags.bits;
            }
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(flags);
    count_operations(state);
}

/// Independent operations over arrays of operands near 1: one apply_arrays call per array
/// (throughput), or one scalar call each (what a plain loop over apply_values gets).
void emulated_operations(benchmark::State& state, const char* format, Operation op, Calls calls) {
    const Arithmetic arithmetic(parse_format(format), {});
    time_operations(state, arithmetic, op, calls, operands(arithmetic, 2), operands(arithmetic, 3),
                    operands(arithmetic, 4));
}

/// Operands a, b = +-2^u, u uniform on (-8, 8), times a significand in [1, 2), rounded to `format`
/// (fp16): about 1% of their products leave fp16's normal range (0.8% below 2^-14, 0.2% above
/// 2^15), as realistic data does; `seed` tells the operands apart.
std::vector<double> spread_operands(const Arithmetic& arithmetic, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<double> exponent(-8, 8), significand(1, 2);
    std::vector<double> v(array_length);
    for (std::size_t i = 0; i < array_length; ++i)
        v[i] = arithmetic.round((i % 2 ? -1 : 1) * significand(generator) * std::exp2(exponent(generator))).value;
    return v;
}

/// The same on the spread operands (specials among normal results).
void emulated_spread(benchmark::State& state, const char* format, Operation op, Calls calls) {
    const Arithmetic arithmetic(parse_format(format), {});
    time_operations(state, arithmetic, op, calls, spread_operands(arithmetic, 6), spread_operands(arithmetic, 7),
                    spread_operands(arithmetic, 8));
}

template <typename T>
void native_array(benchmark::State& state, Operation op) {
    std::vector<T> a(array_length, T(1.25)), b(array_length, T(0.75)), c(array_length, T(0.5)), out(array_length);
    for (auto _ : state) {
        for (std::size_t i = 0; i < array_length; ++i)
            out[i] = op == Operation::Mul   ? T(a[i] * b[i])
                     : op == Operation::Fma ? T(a[i] * b[i] + c[i])
                                            : T(a[i] + b[i]);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    count_operations(state);
}

/// Patterns of values near 1 with full significands (decimals of 17 digits), for the wide formats.
std::vector<floatscope::core::WideBits> wide_patterns(const floatscope::emu::WideArithmetic& arithmetic,
                                                      std::mt19937_64& generator) {
    std::uniform_real_distribution<double> near_one(0.75, 1.25);
    std::vector<floatscope::core::WideBits> v(array_length);
    for (auto& bits : v)
        bits = arithmetic
                   .rounder()(floatscope::core::parse_wide_value(fmt::format("{:.17g}", near_one(generator)),
                                                                 arithmetic.spec().mantissa_bits + 66))
                   .bits;
    return v;
}

/// Independent wide operations over arrays of patterns of values near 1 (throughput), through
/// WideArithmetic's GMP-integer interface on `path` (Mpfr: the path before the fixed-size one).
void wide_array(benchmark::State& state, const char* format, Operation op, floatscope::emu::WidePath path) {
    const floatscope::emu::WideArithmetic arithmetic(parse_format(format), {}, path);
    std::mt19937_64 generator(5);
    const auto a = wide_patterns(arithmetic, generator), b = wide_patterns(arithmetic, generator),
               c = wide_patterns(arithmetic, generator);
    std::uint8_t flags = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < array_length; ++i) {
            const floatscope::core::WideRounded r = arithmetic.apply(op, a[i], b[i], c[i]);
            flags |= r.flags.bits;
            benchmark::DoNotOptimize(r.bits);
        }
    }
    benchmark::DoNotOptimize(flags);
    count_operations(state);
}

/// The same operations through FixedWideArithmetic on patterns of P limbs: no allocation at all.
template <int P>
void fixed_wide_array(benchmark::State& state, const char* format, Operation op) {
    const floatscope::emu::WideArithmetic wide(parse_format(format), {});
    const floatscope::emu::FixedWideArithmetic<P> arithmetic(wide.spec(), {});
    std::mt19937_64 generator(5);
    auto limbs = [&] {
        std::vector<floatscope::core::Limbs<P>> v;
        for (const auto& bits : wide_patterns(wide, generator)) {
            floatscope::core::Limbs<P> x{};
            for (int i = 0; i < P; ++i) x[i] = mpz_getlimbn(bits.get_mpz_t(), i);
            v.push_back(x);
        }
        return v;
    };
    const auto a = limbs(), b = limbs(), c = limbs();
    std::vector<floatscope::core::Limbs<P>> out(array_length);
    std::uint8_t flags = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < array_length; ++i) {
            const floatscope::core::FixedRounded<P> r = arithmetic.apply(op, a[i], b[i], c[i]);
            out[i] = r.bits;
            flags |= r.flags.bits;
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(flags);
    count_operations(state);
}

/// The truth's elementary functions at 256 bits, y = f(x) rounded to nearest: erf on GELU's arguments
/// (x / sqrt(2) rounded at 256 bits, x uniform in [-10, 10] or normal with deviation 2), exp on Softmax's
/// (x - max, uniform in [-60, 0]); through MPFR or the table-driven functions (after one pass over the
/// arguments, which makes their tables).
enum class TruthArguments { GeluUniform, GeluNormal, Softmax };

void truth_function(benchmark::State& state, void (*f)(mpfr_ptr, mpfr_srcptr), TruthArguments kind) {
    constexpr mpfr_prec_t precision = 256;
    std::mt19937_64 generator(37);
    std::uniform_real_distribution<double> uniform(-10, 10), softmax(-60, 0);
    std::normal_distribution<double> normal(0, 2);
    std::vector<std::unique_ptr<floatscope::core::MpfrNumber>> arguments;
    floatscope::core::MpfrNumber root2(precision), result(precision);
    mpfr_sqrt_ui(root2.get(), 2, MPFR_RNDN);
    for (std::size_t i = 0; i < array_length; ++i) {
        auto x = std::make_unique<floatscope::core::MpfrNumber>(precision);
        if (kind == TruthArguments::Softmax) {
            mpfr_set_d(x->get(), softmax(generator), MPFR_RNDN);
        } else {
            mpfr_set_d(x->get(), kind == TruthArguments::GeluUniform ? uniform(generator) : normal(generator),
                       MPFR_RNDN);
            mpfr_div(x->get(), x->get(), root2.get(), MPFR_RNDN);
        }
        arguments.push_back(std::move(x));
    }
    for (const auto& x : arguments) f(result.get(), x->get());
    for (auto _ : state)
        for (const auto& x : arguments) f(result.get(), x->get());
    benchmark::DoNotOptimize(result.get());
    count_operations(state);
}

/// Calls f(std::integral_constant<Operation, op>{}) for the operations chains are built for.
template <typename F>
void with_operation(Operation op, F&& f) {
    if (op == Operation::Add) f(std::integral_constant<Operation, Operation::Add>{});
    if (op == Operation::Mul) f(std::integral_constant<Operation, Operation::Mul>{});
    if (op == Operation::Fma) f(std::integral_constant<Operation, Operation::Fma>{});
}

void register_all() {
    using floatscope::emu::correctly_rounded_erf, floatscope::emu::correctly_rounded_exp;
    const auto mpfr_erf_nearest = [](mpfr_ptr y, mpfr_srcptr x) { mpfr_erf(y, x, MPFR_RNDN); };
    const auto mpfr_exp_nearest = [](mpfr_ptr y, mpfr_srcptr x) { mpfr_exp(y, x, MPFR_RNDN); };
    // Named pairs rather than a structured binding, which clang 14's lambdas cannot capture.
    for (const auto& arguments : {std::pair{"gelu_uniform", TruthArguments::GeluUniform},
                                  std::pair{"gelu_normal", TruthArguments::GeluNormal}}) {
        const TruthArguments kind = arguments.second;
        const std::string prefix = std::string("truth/erf256/") + arguments.first;
        benchmark::RegisterBenchmark((prefix + "/mpfr_erf").c_str(),
                                     [=](auto& s) { truth_function(s, mpfr_erf_nearest, kind); });
        benchmark::RegisterBenchmark((prefix + "/correctly_rounded_erf").c_str(),
                                     [=](auto& s) { truth_function(s, correctly_rounded_erf, kind); });
    }
    benchmark::RegisterBenchmark("truth/exp256/softmax/mpfr_exp",
                                 [=](auto& s) { truth_function(s, mpfr_exp_nearest, TruthArguments::Softmax); });
    benchmark::RegisterBenchmark("truth/exp256/softmax/correctly_rounded_exp",
                                 [](auto& s) { truth_function(s, correctly_rounded_exp, TruthArguments::Softmax); });
    for (Operation op : {Operation::Add, Operation::Mul, Operation::Fma}) {
        const std::string name = floatscope::emu::to_string(op);
        with_operation(op, [&](auto o) {
            benchmark::RegisterBenchmark(("native/float/chain/" + name).c_str(), native_chain<float, o()>);
            benchmark::RegisterBenchmark(("native/_Float16/chain/" + name).c_str(), native_chain<_Float16, o()>);
        });
        benchmark::RegisterBenchmark(("native/float/array/" + name).c_str(),
                                     [op](auto& s) { native_array<float>(s, op); });
        benchmark::RegisterBenchmark(("native/_Float16/array/" + name).c_str(),
                                     [op](auto& s) { native_array<_Float16>(s, op); });
        benchmark::RegisterBenchmark(("native/double/array/" + name).c_str(),
                                     [op](auto& s) { native_array<double>(s, op); });
        benchmark::RegisterBenchmark(("native/__float128/array/" + name).c_str(),
                                     [op](auto& s) { native_array<__float128>(s, op); });
        using floatscope::emu::WidePath;
        for (const char* format : {"binary128", "binary256"}) {
            const std::string prefix = "emulated/" + std::string(format);
            benchmark::RegisterBenchmark((prefix + "/mpfr_array/" + name).c_str(),
                                         [=](auto& s) { wide_array(s, format, op, WidePath::Mpfr); });
            benchmark::RegisterBenchmark((prefix + "/array/" + name).c_str(),
                                         [=](auto& s) { wide_array(s, format, op, WidePath::FixedLimbs); });
        }
        benchmark::RegisterBenchmark(("emulated/binary128/fixed_array/" + name).c_str(),
                                     [op](auto& s) { fixed_wide_array<2>(s, "binary128", op); });
        benchmark::RegisterBenchmark(("emulated/binary256/fixed_array/" + name).c_str(),
                                     [op](auto& s) { fixed_wide_array<4>(s, "binary256", op); });
        for (const char* format : {"fp16", "bf16", "fp8_e4m3", "e6m9"}) {
            with_operation(op, [&](auto o) {
                benchmark::RegisterBenchmark(("emulated/" + std::string(format) + "/chain/" + name).c_str(),
                                             [=](auto& s) { emulated_chain<o()>(s, format); });
            });
            benchmark::RegisterBenchmark(("emulated/" + std::string(format) + "/array/" + name).c_str(),
                                         [=](auto& s) { emulated_operations(s, format, op, Calls::Array); });
            benchmark::RegisterBenchmark(("emulated/" + std::string(format) + "/loop/" + name).c_str(),
                                         [=](auto& s) { emulated_operations(s, format, op, Calls::Loop); });
        }
        // About 1% of the results out of range: the array path against the plain loop.
        benchmark::RegisterBenchmark(("emulated/fp16/spread_array/" + name).c_str(),
                                     [op](auto& s) { emulated_spread(s, "fp16", op, Calls::Array); });
        benchmark::RegisterBenchmark(("emulated/fp16/spread_loop/" + name).c_str(),
                                     [op](auto& s) { emulated_spread(s, "fp16", op, Calls::Loop); });
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
