// round_array, the vectorized path, against its slow exact twin Rounder, element by element.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/round_array.hpp"
#include "core/rounding.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/sweep_size.hpp"

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
    for (std::size_t i = 0; i < all.size(); i += stride * floatscope::test::sanitized_stride) in.push_back(all[i]);
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
                               "binary8p4se:satpropagate", "binary8p3se:satfinite", "binary16p11se", "fp64",
                               "fp64:ftz"}) {
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

/// Stochastic rounding of random bit patterns (every kind of input: NaNs, infinities, overflow,
/// subnormals, zeros) and the format's edges: each result is the input rounded down or up
/// (Rounder); a NaN matches a NaN of the same sign.
template <typename T>
void check_stochastic_lands_on_neighbours(const char* format) {
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    const FormatSpec spec = parse_format(format);
    const BinaryGeometry g = binary_geometry(spec);
    std::mt19937_64 rng(31);
    std::vector<T> in;
    for (int i = 0; i < 20000; ++i) in.push_back(std::bit_cast<T>(static_cast<Bits>(rng())));
    for (const double edge : {g.max_finite, g.min_normal, g.min_subnormal, 0.0})
        for (const double factor : {1.0, 1.0 + 0x1p-20, 1.5, 0.5, 1.0 - 0x1p-20})
            for (const double sign : {1.0, -1.0}) in.push_back(static_cast<T>(sign * edge * factor));
    for (const T special : {std::numeric_limits<T>::infinity(), std::numeric_limits<T>::quiet_NaN(),
                            std::numeric_limits<T>::max(), std::numeric_limits<T>::denorm_min()}) {
        in.push_back(special);
        in.push_back(-special);
    }
    std::vector<T> out(in.size());
    StochasticSource random(3);
    round_array(spec, RoundingMode::Stochastic, std::span<const T>(in), std::span<T>(out), &random);
    const Rounder down(spec, {RoundingMode::Downward}), up(spec, {RoundingMode::Upward});
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double x = in[i], y = out[i], low = down(x).value, high = up(x).value;
        INFO(format << " from " << (sizeof(T) == 4 ? "float" : "double") << ": x = " << x << " gave " << y);
        auto same = [y](double r) {
            if (std::isnan(r)) return std::isnan(y) && std::signbit(y) == std::signbit(r);
            return std::bit_cast<std::uint64_t>(y) == std::bit_cast<std::uint64_t>(r);
        };
        REQUIRE((same(low) || same(high)));
    }
}

TEST_CASE("stochastic rounding of any input, specials and overflow included, gives a neighbour", "[round_array][sr]") {
    for (const char* format : {"fp16", "bf16", "tf32", "fp8_e4m3", "fp8_e5m2"}) {
        check_stochastic_lands_on_neighbours<float>(format);
        check_stochastic_lands_on_neighbours<double>(format);
    }
}

TEST_CASE("round_array's stochastic rounding stays between neighbours, is unbiased and repeats", "[round_array][sr]") {
    for (const char* format : {"fp16", "bf16", "tf32"}) {
        const FormatSpec spec = parse_format(format);
        // Values strictly between two neighbours, in the normal and the subnormal range.
        for (const double x : {1.0 + 0x1p-12, 1.0 + 0x1p-10 * 0.3, 3e-6, -0x1p-20 * 1.7, 0x1p-130 * 1.3}) {
            const int n = 200000;
            const std::vector<float> in(n, static_cast<float>(x));
            std::vector<float> out(n);
            StochasticSource random(99);
            round_array(spec, RoundingMode::Stochastic, std::span<const float>(in), std::span<float>(out), &random);
            const double xf = static_cast<float>(x);
            const double low = Rounder(spec, {RoundingMode::Downward})(xf).value;
            const double high = Rounder(spec, {RoundingMode::Upward})(xf).value;
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
            round_array(spec, RoundingMode::Stochastic, std::span<const float>(in), std::span<float>(again),
                        &same_seed);
            CHECK(again == out);
        }
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

namespace {

namespace test = floatscope::test;

/// Floats at the edges of a binary format's grid, both signs: every grid point and midpoint from 0
/// through the subnormals into the first binades (at most 2^12 of them), the first and last points and
/// midpoints of the binades at 1 and at the top (max finite, the overflow threshold and beyond),
/// each with its float neighbours; then 2^k around the smallest subnormal, the largest magnitude
/// whose magic constant 2^(e + 23 - m) is finite, and the floats' own extremes.
std::vector<float> grid_edge_inputs(const FormatSpec& spec) {
    const BinaryGeometry g = binary_geometry(spec);
    const int m = spec.mantissa_bits;
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> values;
    auto around = [&](double v) {
        const float f = static_cast<float>(v);
        for (const float x : {f, std::nextafter(f, inf), std::nextafter(f, 0.0f)})
            if (std::isfinite(x)) values.insert(values.end(), {x, -x});
    };
    const double half_quantum = std::ldexp(1.0, g.emin - m - 1);
    for (long j = 0; j <= std::min(long{1} << (m + 3), 4096L); ++j) around(static_cast<double>(j) * half_quantum);
    for (int e : {-1, 0, 1, g.emax - 1, g.emax, g.emax + 1}) {
        const double quantum_half = std::ldexp(1.0, std::max(e, g.emin) - m - 1);
        for (int j = 0; j < 16; ++j) {
            around(std::ldexp(1.0, e) + j * quantum_half);
            around(std::ldexp(1.0, e + 1) - j * quantum_half);
        }
    }
    for (int e = g.emin - m - 3; e <= g.emin - m + 1; ++e) around(std::ldexp(1.0, e));
    around(std::ldexp(1.0, 127 - 23 + m + 1));
    for (const float x :
         {std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
          std::numeric_limits<float>::denorm_min(), std::nextafter(std::numeric_limits<float>::min(), 0.0f)})
        around(x);
    return values;
}

/// NaNs (quiet, signaling, with payloads, both signs) and infinities.
std::vector<float> special_inputs() {
    std::vector<float> values = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
    for (const std::uint32_t nan : {0x7FC00000u, 0x7F800001u, 0x7FBFFFFFu, 0x7FFFFFFFu, 0x7FC0FFFFu})
        values.insert(values.end(), {std::bit_cast<float>(nan), std::bit_cast<float>(nan | 0x80000000u)});
    return values;
}

/// The bits of a float, or one pattern for every NaN: the bits the results must match.
std::uint64_t comparable_bits(double x) {
    return std::isnan(x) ? 0x7FF8000000000000ull : std::bit_cast<std::uint64_t>(x);
}

/// round_array of `in` (in T) against Rounder and the MPFR reference, bit for bit (NaNs as NaN).
template <typename T>
std::size_t count_mismatches(const FormatSpec& spec, RoundingMode mode, const std::string& name,
                             const std::vector<float>& values) {
    const std::vector<T> in(values.begin(), values.end());
    std::vector<T> out(in.size());
    round_array(spec, mode, std::span<const T>(in), std::span<T>(out));
    std::vector<T> in_place = in;  // in and out the same array
    round_array(spec, mode, std::span<const T>(in_place), std::span<T>(in_place));
    const Rounder rounder(spec, {mode});
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double x = static_cast<double>(in[i]);
        const double expected = static_cast<T>(rounder(x).value);
        const test::RefResult ref = test::ref_round(spec, x, mode);
        const double reference = ref.nan ? std::nan("") : static_cast<double>(static_cast<T>(ref.value));
        const auto got = comparable_bits(static_cast<double>(out[i]));
        const bool bad = got != comparable_bits(expected) || got != comparable_bits(reference) ||
                         got != comparable_bits(static_cast<double>(in_place[i]));
        if (bad && mismatches++ < 5)
            UNSCOPED_INFO(name << " " << to_string(mode) << " from " << (sizeof(T) == 4 ? "float " : "double ")
                               << test::hex_double(x) << " -> " << test::hex_double(static_cast<double>(out[i]))
                               << ", Rounder " << test::hex_double(expected) << ", MPFR "
                               << test::hex_double(reference));
    }
    return mismatches;
}

}  // namespace

TEST_CASE("round_array equals Rounder and MPFR on every format's grid edges, ties and overflow thresholds",
          "[round_array][edges]") {
    for (const char* name : {"fp16", "bf16", "tf32", "fp8_e4m3", "fp8_e5m2", "e4m3fnuz", "fp6_e2m3", "fp6_e3m2",
                             "fp4_e2m1", "e6m9", "binary8p4se", "binary8p3se:satfinite", "fp8_e4m3:sat", "fp16:sat"}) {
        const FormatSpec spec = parse_format(name);
        const double max_finite = binary_geometry(spec).max_finite;
        // Magnitudes the in-range kernel takes run together, so that whole blocks of them take it; the others
        // follow, alone and one in every 300 of the first ones, so that blocks mixing both go the other way.
        std::vector<float> in_range, out_of_range = special_inputs();
        for (const float x : grid_edge_inputs(spec))
            (std::fabs(x) <= max_finite && std::fabs(x) < 0x1p100f ? in_range : out_of_range).push_back(x);
        std::vector<float> mixed = in_range;
        for (std::size_t i = 0; i < out_of_range.size() && (i + 1) * 300 < mixed.size(); ++i)
            mixed[(i + 1) * 300] = out_of_range[i];
        std::vector<float> all = in_range;
        all.insert(all.end(), out_of_range.begin(), out_of_range.end());
        for (const RoundingMode mode : test::ref_modes) {
            for (const auto* values : {&all, &mixed}) {
                CHECK(count_mismatches<float>(spec, mode, name, *values) == 0);
                CHECK(count_mismatches<double>(spec, mode, name, *values) == 0);
            }
        }
    }
}

// Every float, 2^32 of them, through round_array against Rounder: hours, so hidden from ctest
// (scripts/round-array-exhaustive.sh runs it).
TEST_CASE("round_array equals Rounder on every float", "[.exhaustive][round_array]") {
    constexpr std::uint64_t chunk = std::uint64_t{1} << 20;
    std::vector<float> in(chunk), out(chunk);
    for (const char* name : {"fp16", "bf16", "fp8_e4m3", "fp8_e5m2"}) {
        const FormatSpec spec = parse_format(name);
        for (const RoundingMode mode : test::ref_modes) {
            const Rounder rounder(spec, {mode});
            std::size_t mismatches = 0;
            for (std::uint64_t start = 0; start < (std::uint64_t{1} << 32); start += chunk) {
                for (std::uint64_t i = 0; i < chunk; ++i)
                    in[i] = std::bit_cast<float>(static_cast<std::uint32_t>(start + i));
                round_array(spec, mode, std::span<const float>(in), std::span<float>(out));
                for (std::uint64_t i = 0; i < chunk; ++i) {
                    const double expected = static_cast<float>(rounder(static_cast<double>(in[i])).value);
                    if (comparable_bits(out[i]) != comparable_bits(expected) && mismatches++ < 5)
                        UNSCOPED_INFO(name << " " << to_string(mode) << ": " << test::hex_double(in[i]) << " -> "
                                           << test::hex_double(out[i]) << ", Rounder " << test::hex_double(expected));
                }
            }
            CHECK(mismatches == 0);
        }
    }
}

TEST_CASE("doubles to binary32 in rne: IEEE's value bit for bit, NaN the quiet NaN of its sign", "[round_array]") {
    // Random bit patterns and values over every range, then the midpoints between neighbouring floats
    // (ties: normal, subnormal, the overflow threshold between max finite and 2^128), each signed.
    std::vector<double> in = test_inputs<double>();
    std::mt19937 generator(37);
    std::vector<float> floats;
    for (int i = 0; i < 20000; ++i) floats.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(generator())));
    for (float f : {0.0f, std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
                    std::numeric_limits<float>::max(), 1.0f})
        floats.push_back(f);
    for (float f : floats) {
        if (!std::isfinite(f)) continue;
        const double up = f == std::numeric_limits<float>::max()
                              ? 0x1p128
                              : static_cast<double>(std::nextafter(std::fabs(f), INFINITY));
        const double midpoint = (std::fabs(static_cast<double>(f)) + up) / 2;  // exact in double
        in.push_back(midpoint);
        in.push_back(-midpoint);
    }
    std::vector<double> out(in.size());
    round_array(parse_format("fp32"), RoundingMode::NearestEven, std::span<const double>(in), std::span<double>(out));
    const Rounder rounder(parse_format("fp32"), {RoundingMode::NearestEven});
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double expected = std::isnan(in[i]) ? std::copysign(std::numeric_limits<double>::quiet_NaN(), in[i])
                                                  : rounder(in[i]).value;
        if (std::bit_cast<std::uint64_t>(out[i]) != std::bit_cast<std::uint64_t>(expected) && mismatches++ < 5)
            UNSCOPED_INFO(std::hexfloat << in[i] << " -> " << out[i] << ", Rounder " << expected);
    }
    CHECK(mismatches == 0);
}

TEST_CASE("round_array's per-thread memo of the last format tells formats apart by every field that rounds",
          "[round_array]") {
    // Formats that differ from e4m3 in one field only (overflow, subnormals, bias, the mantissa) and one that differs
    // in its description alone, each rounded right after e4m3 on one thread: each call as Rounder gives it for its
    // own format.
    const FormatSpec e4m3 = parse_format("e4m3");
    FormatSpec saturating = e4m3, flushing = e4m3, biased = e4m3, wider = e4m3, described = e4m3;
    saturating.overflow = OverflowPolicy::SaturateFinite;
    flushing.subnormals = SubnormalPolicy::Flush;
    biased.bias = e4m3.bias + 1;
    wider.mantissa_bits = 4;
    described.description = "the same format, told otherwise";
    const std::vector<double> values = {1000.0, -1000.0, 0x1p-8, -0x1p-9, 0x1.1p0, 0x1.3p0, 200.0, 0.1};
    for (const RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::TowardZero})
        for (int round = 0; round < 2; ++round)
            for (const FormatSpec* spec :
                 std::initializer_list<const FormatSpec*>{&e4m3, &saturating, &e4m3, &flushing, &e4m3, &biased, &e4m3,
                                                          &wider, &e4m3, &described}) {
                const Rounder rounder(*spec, {mode, Tininess::AfterRounding, nullptr});
                std::vector<double> out(values.size());
                round_array(*spec, mode, values, out);
                for (std::size_t i = 0; i < values.size(); ++i) {
                    INFO("overflow " << static_cast<int>(spec->overflow) << ", bias " << spec->bias << ", "
                                     << spec->mantissa_bits << " mantissa bits, mode " << to_string(mode) << ": "
                                     << values[i]);
                    CHECK(std::bit_cast<std::uint64_t>(out[i]) ==
                          std::bit_cast<std::uint64_t>(rounder(values[i]).value));
                }
            }
}
