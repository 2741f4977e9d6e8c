// round_array, the vectorized path, against its slow exact twin Rounder, element by element.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "core/catalog.hpp"
#include "core/round_array.hpp"
#include "core/rounding.hpp"

namespace {

using namespace floatscope::core;

/// Random bit patterns (every class: NaN, inf, subnormals of the native type) and values spread
/// over the formats' ranges (their subnormals, normals and overflow).
template <typename T>
std::vector<T> test_inputs() {
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    std::mt19937_64 generator(20261129);
    std::vector<T> values;
    for (int i = 0; i < 100000; ++i) values.push_back(std::bit_cast<T>(static_cast<Bits>(generator())));
    std::uniform_real_distribution<double> exponent(-160.0, 140.0), significand(1.0, 2.0), small_exponent(-30.0, 20.0);
    for (int i = 0; i < 100000; ++i) {
        const double e = (i % 2) ? exponent(generator) : small_exponent(generator);
        const double x = std::ldexp(significand(generator), static_cast<int>(std::floor(e)));
        values.push_back(static_cast<T>((generator() & 1) ? -x : x));
    }
    return values;
}

bool same_value(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

template <typename T>
void check_against_rounder(const char* format_name, RoundingMode mode, std::size_t stride = 1) {
    const FormatSpec spec = parse_format(format_name);
    std::vector<T> in;
    const std::vector<T> all = test_inputs<T>();
    for (std::size_t i = 0; i < all.size(); i += stride) in.push_back(all[i]);
    std::vector<T> out(in.size());
    round_array(spec, mode, std::span<const T>(in), std::span<T>(out));
    const Rounder rounder(spec, {mode});
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        // As stored in T: a float rounded to takum16 may reach 2^128, an inf as a float.
        const double expected = static_cast<T>(rounder(static_cast<double>(in[i])).value);
        if (!same_value(out[i], expected) && mismatches++ < 5)
            UNSCOPED_INFO(format_name << " " << to_string(mode) << ": " << std::hexfloat << static_cast<double>(in[i])
                                      << " -> " << static_cast<double>(out[i]) << ", Rounder " << expected);
    }
    CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("round_array equals Rounder for floats and doubles in every deterministic mode", "[round_array]") {
    for (const char* format : {"fp16", "bf16", "tf32", "fp8_e4m3", "fp8_e5m2", "e4m3fnuz", "e3m4", "fp6_e2m3",
                               "fp4_e2m1", "fp8_e4m3:sat", "e6m9", "fp32", "binary8p4se", "binary8p1se", "binary8p3sf",
                               "binary8p4se:satpropagate", "binary8p3se:satfinite", "binary16p11se"}) {
        for (RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::NearestAway, RoundingMode::TowardZero,
                                  RoundingMode::Upward, RoundingMode::Downward, RoundingMode::ToOdd}) {
            if (std::string(format) != "fp32") check_against_rounder<float>(format, mode);
            check_against_rounder<double>(format, mode);
        }
    }
}

TEST_CASE("round_array falls back to Rounder where no fast path applies", "[round_array]") {
    CHECK_FALSE(round_array_is_fast(parse_format("fp16:ftz"), RoundingMode::NearestEven, false));
    CHECK_FALSE(round_array_is_fast(parse_format("int8"), RoundingMode::NearestEven, true));
    CHECK_FALSE(round_array_is_fast(parse_format("fp64"), RoundingMode::NearestEven, true));
    CHECK(round_array_is_fast(parse_format("fp16"), RoundingMode::Stochastic, false));
    for (const char* format : {"fp16:ftz", "int8", "nf4", "e8m0", "fp64", "e11m20", "binary8p4ue"})
        check_against_rounder<double>(format, RoundingMode::NearestEven);
    CHECK_FALSE(round_array_is_fast(parse_format("binary8p4ue"), RoundingMode::NearestEven, false));  // unsigned
    // No mantissa bits: parity is the exponent field's (binary8p1se's bias 64 and fp32's 127 differ by an odd number).
    CHECK_FALSE(round_array_is_fast(parse_format("binary8p1se"), RoundingMode::ToOdd, false));
}

TEST_CASE("round_array's stochastic rounding stays between neighbours, is unbiased and repeats", "[round_array][sr]") {
    const FormatSpec fp16 = parse_format("fp16");
    // Values strictly between two fp16 neighbours, in the normal and the subnormal range.
    for (const double x : {1.0 + 0x1p-12, 1.0 + 0x1p-10 * 0.3, 3e-6, -0x1p-20 * 1.7}) {
        const int n = 200000;
        const std::vector<float> in(n, static_cast<float>(x));
        std::vector<float> out(n);
        StochasticSource random(99);
        round_array(fp16, RoundingMode::Stochastic, std::span<const float>(in), std::span<float>(out), &random);
        const double xf = static_cast<float>(x);
        const double low = Rounder(fp16, {RoundingMode::Downward})(xf).value;
        const double high = Rounder(fp16, {RoundingMode::Upward})(xf).value;
        double sum = 0;
        for (float y : out) {
            REQUIRE((y == low || y == high));
            sum += y;
        }
        // The mean of n draws has standard deviation sqrt((high-x)(x-low)/n); allow 5 of them.
        const double bound = 5 * std::sqrt((high - xf) * (xf - low) / n);
        CHECK(std::fabs(sum / n - xf) <= bound);
        std::vector<float> again(n);
        StochasticSource same_seed(99);
        round_array(fp16, RoundingMode::Stochastic, std::span<const float>(in), std::span<float>(again), &same_seed);
        CHECK(again == out);
    }
}

TEST_CASE("posits and takums: the bit-manipulation kernel equals Rounder in every deterministic mode",
          "[round_array][tapered]") {
    for (const char* format : {"posit8", "posit16", "posit32", "posit8_es0", "posit16_es1", "posit24_es3",
                               "posit32_es4", "takum8", "takum16", "takum32"}) {
        CHECK(round_array_is_fast(parse_format(format), RoundingMode::NearestEven, false));
        for (RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::NearestAway, RoundingMode::TowardZero,
                                  RoundingMode::Upward, RoundingMode::Downward, RoundingMode::ToOdd}) {
            check_against_rounder<float>(format, mode, 5);  // a fifth of the inputs: ctest time
            check_against_rounder<double>(format, mode, 5);
        }
    }
    // HiF8 from floats: the float's rounding at its exponent's mantissa width; doubles through Rounder.
    CHECK(round_array_is_fast(parse_format("hifloat8"), RoundingMode::NearestEven, false));
    CHECK_FALSE(round_array_is_fast(parse_format("hifloat8"), RoundingMode::NearestEven, true));
    for (RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::NearestAway, RoundingMode::TowardZero,
                              RoundingMode::Upward, RoundingMode::Downward, RoundingMode::ToOdd})
        check_against_rounder<float>("hifloat8", mode);
    check_against_rounder<float>("posit30", RoundingMode::NearestEven);  // 25 fraction bits at 1: floats stay
}

TEST_CASE("HiFloat8's float kernel equals Rounder inside its range, ties, overflow and denormals included",
          "[round_array][tapered]") {
    // Values of 2^-22 .. 2^16 and their midpoints, so that whole chunks take the fast path.
    const FormatSpec h = parse_format("hifloat8");
    std::vector<float> in;
    std::mt19937_64 generator(8);
    for (int i = 0; i < 40000; ++i) {
        const int e = static_cast<int>(generator() % 38) - 22;
        const float x = std::ldexp(1.0f + static_cast<float>(generator() % 64) / 64, e);
        in.push_back((generator() & 1) ? -x : x);
    }
    in.push_back(40960.0f);  // the tie above 32768
    in.push_back(0.0f);
    std::vector<float> out(in.size());
    for (RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::NearestAway, RoundingMode::TowardZero,
                              RoundingMode::Upward, RoundingMode::Downward, RoundingMode::ToOdd}) {
        round_array(h, mode, std::span<const float>(in), std::span<float>(out));
        const Rounder rounder(h, {mode});
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < in.size(); ++i)
            mismatches += !same_value(out[i], static_cast<float>(rounder(static_cast<double>(in[i])).value));
        CHECK(mismatches == 0);
    }
}

TEST_CASE("the posit kernel's stochastic rounding stays between neighbours and is unbiased", "[round_array][sr]") {
    for (const char* format : {"posit16", "takum16"}) {
        const FormatSpec spec = parse_format(format);
        const double x = 1.0 + 0x1p-12 * 0.3;
        const int n = 100000;
        const std::vector<double> in(n, x);
        std::vector<double> out(n);
        StochasticSource random(5);
        round_array(spec, RoundingMode::Stochastic, std::span<const double>(in), std::span<double>(out), &random);
        const double low = Rounder(spec, {RoundingMode::Downward})(x).value;
        const double high = Rounder(spec, {RoundingMode::Upward})(x).value;
        double sum = 0;
        for (double y : out) {
            REQUIRE((y == low || y == high));
            sum += y;
        }
        CHECK(std::fabs(sum / n - x) <= 5 * std::sqrt((high - x) * (x - low) / n));
    }
}
