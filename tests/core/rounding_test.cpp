// Rounding (core/rounding.hpp) against the MPFR reference and the hardware conversions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmp.h>

#include "core/catalog.hpp"
#include "core/exact_value.hpp"
#include "core/exception_flags.hpp"
#include "core/rounding.hpp"
#include "core/rounding_mode.hpp"
#include "mpfr_reference.hpp"
#include "tests/sweep_size.hpp"
#include "rounding_checks.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

namespace {

// ---- inputs ------------------------------------------------------------------------------------

/// Random doubles over the format's whole range and beyond; a quarter with few significant bits
/// (exact values and ties), one in fifty any double at all.
std::vector<double> random_inputs(const FormatSpec& spec, std::size_t count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const Reach reach = reach_of(spec);
    std::uniform_int_distribution<int> binade(std::max(reach.low_binade, -1074), std::min(reach.high_binade, 1023));
    std::vector<double> inputs;
    for (std::size_t i = 0; i < count; ++i) {
        double x = 0;
        if (i % 50 == 49) {
            do x = std::bit_cast<double>(rng());
            while (std::isnan(x));
        } else {
            std::uint64_t fraction = rng() >> 12;
            if (i % 4 == 3 && reach.fraction_bits < 52)
                fraction &= ~((std::uint64_t{1} << (52 - reach.fraction_bits)) - 1);
            x = std::ldexp(1.0 + std::ldexp(static_cast<double>(fraction), -52), binade(rng));
            const bool negative = reach.mostly_positive ? rng() % 10 == 0 : (rng() & 1) != 0;
            if (negative) x = -x;
        }
        inputs.push_back(x);
    }
    return inputs;
}

void add_with_neighbours(std::vector<double>& inputs, double x) {
    inputs.push_back(x);
    inputs.push_back(std::nextafter(x, -inf));
    inputs.push_back(std::nextafter(x, inf));
}

/// Specials and the edges of the range: around the smallest values, the normal boundary, the
/// largest value and the halfway point above it.
std::vector<double> boundary_inputs(const FormatSpec& spec) {
    const double sNaN = std::bit_cast<double>(0x7FF4000000000001ULL);
    std::vector<double> inputs = {0.0,
                                  -0.0,
                                  inf,
                                  -inf,
                                  qnan,
                                  -qnan,
                                  sNaN,
                                  1.0,
                                  -1.0,
                                  1e-300,
                                  -1e-300,
                                  std::numeric_limits<double>::denorm_min(),
                                  std::numeric_limits<double>::max(),
                                  std::numeric_limits<double>::min(),
                                  1e300,
                                  3.0,
                                  0.5,
                                  0.25};
    const double top = ref_max_finite(spec);
    std::vector<double> positive;
    if (spec.kind == FormatKind::Binary) {
        const int M = spec.mantissa_bits;
        const double min_normal = std::ldexp(1.0, 1 - spec.bias);
        const bool gradual = spec.subnormals == SubnormalPolicy::Gradual && M > 0;
        const double min_positive = gradual ? std::ldexp(1.0, 1 - spec.bias - M) : min_normal;
        const double ulp_top = std::ldexp(1.0, std::ilogb(top) - M);
        for (double k : {0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5})
            add_with_neighbours(positive, k * min_positive);
        for (double k : {0.5, 1.0, 0.25, 2.0}) add_with_neighbours(positive, min_normal - k * min_positive);
        add_with_neighbours(positive, min_normal * (1 - std::ldexp(1.0, -M - 2)));
        add_with_neighbours(positive, min_normal * (1 - std::ldexp(1.0, -M - 1)));
        add_with_neighbours(positive, min_normal);
        for (double k : {0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 4.0}) add_with_neighbours(positive, top + k * ulp_top);
        add_with_neighbours(positive, 2 * top);
        add_with_neighbours(positive, top - 0.5 * ulp_top);
    } else if (spec.kind == FormatKind::Integer) {
        const double lowest = spec.has_sign ? -std::ldexp(1.0, spec.integer_bits - 1) : 0.0;
        for (double k : {-2.0, -1.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 1.5})
            for (double edge : {lowest, top}) add_with_neighbours(inputs, edge + k);
        for (double k : {0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5}) add_with_neighbours(inputs, k);
        for (double big : {std::ldexp(1.0, 31), std::ldexp(1.0, 32), std::ldexp(1.0, 39), std::ldexp(1.0, 40),
                           std::ldexp(1.0, 63), std::ldexp(1.0, 64), 1e30})
            add_with_neighbours(positive, big);
    } else if (spec.kind == FormatKind::Lookup) {
        for (double code : spec.code_values) add_with_neighbours(inputs, code);
        for (double k : {1.0, 1.5, 2.0}) add_with_neighbours(positive, k);
    } else {
        for (int e = -spec.bias - 3; e <= std::ilogb(top) + 3; ++e)
            for (double k : {1.0, 1.25, 1.5, 1.75}) add_with_neighbours(inputs, std::ldexp(k, e));
    }
    for (double x : positive) {
        inputs.push_back(x);
        inputs.push_back(-x);
    }
    return inputs;
}

/// Every value, every midpoint between consecutive values and the doubles just around each
/// midpoint (all pairs up to 16 bits; a sample of pairs for wider formats).
std::vector<double> midpoint_inputs(const FormatSpec& spec, std::size_t sampled_pairs, std::uint64_t seed) {
    std::vector<std::pair<double, double>> pairs;
    if (spec.total_bits() <= 16) {
        std::vector<double> values = ref_sorted_values(spec);
        for (std::size_t i = 1; i < values.size(); ++i)
            if (std::isfinite(values[i - 1]) && std::isfinite(values[i])) pairs.emplace_back(values[i - 1], values[i]);
    } else if (spec.kind == FormatKind::Integer) {
        std::mt19937_64 rng(seed);
        const double lowest = ref_decode(spec, std::uint64_t{1} << (spec.integer_bits - 1));
        const double highest = ref_max_finite(spec);
        const double first = std::min(lowest, 0.0);
        for (double k : {first, first + 1, highest - 2, highest - 1, -1.0, 0.0}) pairs.emplace_back(k, k + 1);
        while (pairs.size() < sampled_pairs) {
            const double k = first + std::floor(std::ldexp(static_cast<double>(rng() >> 11), -53) * (highest - first));
            pairs.emplace_back(k, k + 1);
        }
    } else {
        std::mt19937_64 rng(seed);
        const int magnitude_bits = spec.exponent_bits + spec.mantissa_bits;
        while (pairs.size() < sampled_pairs) {
            // Denser near the bottom and top binades, where the special cases live.
            std::uint64_t pattern = rng() & ((std::uint64_t{1} << magnitude_bits) - 1);
            if (pairs.size() % 8 == 1) pattern &= (std::uint64_t{1} << (spec.mantissa_bits + 1)) - 1;
            if (pairs.size() % 8 == 2) pattern |= ((std::uint64_t{1} << spec.exponent_bits) - 2) << spec.mantissa_bits;
            const double a = ref_decode(spec, pattern), b = ref_decode(spec, pattern + 1);
            if (!std::isfinite(a) || !std::isfinite(b) || !(a < b)) continue;
            pairs.emplace_back(a, b);
            pairs.emplace_back(-b, -a);
        }
    }
    std::vector<double> inputs;
    for (const auto& [a, b] : pairs) {
        inputs.push_back(a);
        add_with_neighbours(inputs, 0.5 * a + 0.5 * b);
    }
    return inputs;
}

void sweep(const FormatSpec& spec, const std::vector<double>& inputs, Tininess tininess, Agreement& agreement) {
    for (RoundingMode mode : ref_modes) {
        const Rounder rounder(spec, {mode, tininess, nullptr});
        for (double x : inputs) {
            const Rounded got = rounder(x);
            const RefResult want = ref_round(spec, x, mode, tininess);
            agreement.check(spec, mode, tininess, hex_double(x), got, want);
        }
    }
}

/// Random, boundary and midpoint inputs in rne rna rtz rup rdn rto, tininess after rounding; a
/// slice of them again with tininess before rounding.
void check_spec_against_reference(const FormatSpec& spec) {
    INFO("format " << spec.name);
    const std::uint64_t seed = seed_of(spec.name);
    std::vector<double> inputs = random_inputs(spec, floatscope::test::sweep_size(12000), seed);
    const std::vector<double> edges = boundary_inputs(spec);
    const std::vector<double> midpoints = midpoint_inputs(spec, floatscope::test::sweep_size(12000), seed + 1);
    inputs.insert(inputs.end(), edges.begin(), edges.end());
    inputs.insert(inputs.end(), midpoints.begin(), midpoints.end());
    Agreement after;
    sweep(spec, inputs, Tininess::AfterRounding, after);
    CHECK_AGREEMENT(after);

    std::vector<double> slice = edges;
    for (std::size_t i = 0; i < inputs.size(); i += 7) slice.push_back(inputs[i]);
    Agreement before;
    sweep(spec, slice, Tininess::BeforeRounding, before);
    CHECK_AGREEMENT(before);
}

void check_format_against_reference(const std::string& name) { check_spec_against_reference(parse_format(name)); }

}  // namespace

// ---- (b) rounding of doubles, every mode, against MPFR ------------------------------------------

TEST_CASE("fp16 rounds as MPFR in every mode", "[rounding][mpfr]") { check_format_against_reference("fp16"); }
TEST_CASE("bf16 rounds as MPFR in every mode", "[rounding][mpfr]") { check_format_against_reference("bf16"); }
TEST_CASE("tf32 rounds as MPFR in every mode", "[rounding][mpfr]") { check_format_against_reference("tf32"); }
TEST_CASE("fp32 rounds as MPFR in every mode", "[rounding][mpfr]") { check_format_against_reference("fp32"); }
TEST_CASE("OCP FP8 E4M3 and E5M2 round as MPFR in every mode", "[rounding][mpfr]") {
    check_format_against_reference("fp8_e4m3");
    check_format_against_reference("fp8_e5m2");
}
TEST_CASE("FNUZ FP8 formats round as MPFR in every mode", "[rounding][mpfr]") {
    check_format_against_reference("e4m3fnuz");
    check_format_against_reference("e5m2fnuz");
    check_format_against_reference("e4m3b11fnuz");
}
TEST_CASE("IEEE-like FP8 (e3m4, e4m3) round as MPFR in every mode", "[rounding][mpfr]") {
    check_format_against_reference("e3m4");
    check_format_against_reference("e4m3");
}
TEST_CASE("OCP MX FP6 and FP4 round as MPFR in every mode", "[rounding][mpfr]") {
    check_format_against_reference("fp6_e2m3");
    check_format_against_reference("fp6_e3m2");
    check_format_against_reference("fp4_e2m1");
}
TEST_CASE("16-bit custom formats round as MPFR in every mode", "[rounding][mpfr]") {
    check_format_against_reference("e6m9");
    check_format_against_reference("e5m10:bias=10");
    check_format_against_reference("fp16:ftz");
}
TEST_CASE("small custom formats and modifiers round as MPFR in every mode", "[rounding][mpfr]") {
    for (const char* name : {"e7m4", "e3m2fn", "e5m2fnuz:ftz", "e4m3:sat", "e2m1", "e5m2fn", "e4m3fnuz:ftz", "e4m0fn",
                             "e3m0fnuz", "e3m4:bias=1", "fp6_e2m3:ieee", "fp8_e4m3:sat", "bf16:ftz"})
        check_format_against_reference(name);
}

TEST_CASE("P3109 8-bit formats round as MPFR in every mode, SatNone", "[rounding][mpfr][p3109]") {
    for (int P = 1; P <= 8; ++P)
        for (const char* kind : {"se", "sf", "ue", "uf"})
            if (P < 8 || kind[0] == 'u') check_format_against_reference(fmt::format("binary8p{}{}", P, kind));
}

TEST_CASE("P3109 formats round as MPFR under SatPropagate and SatFinite", "[rounding][mpfr][p3109]") {
    for (const char* base : {"binary8p3se", "binary8p4sf", "binary8p1se", "binary8p4ue", "binary8p8uf", "binary4p2sf",
                             "binary16p11se", "binary12p5ue"})
        for (const char* sat : {":satpropagate", ":satfinite"}) check_format_against_reference(std::string(base) + sat);
    // The same saturation on a format that is not P3109: infinities saturate too.
    check_format_against_reference("fp16:satfinite");
    check_format_against_reference("fp8_e4m3:satfinite");
}

TEST_CASE("unsigned binary formats round as MPFR, negative results being invalid", "[rounding][mpfr]") {
    // No catalog name makes one, but FormatSpec allows it (a custom format designer may).
    for (const char* base : {"e5m3", "e4m3fn", "e3m2", "e4m3:ftz"}) {
        FormatSpec spec = parse_format(base);
        spec.name = std::string("unsigned ") + base;
        spec.has_sign = false;
        spec.has_negative_zero = false;
        REQUIRE_NOTHROW(validate(spec));
        check_spec_against_reference(spec);
    }
}

TEST_CASE("MPFR numbers of 120 bits round as MPFR, through ExactValue", "[rounding][mpfr]") {
    std::mt19937_64 rng(120);
    for (const char* name : {"fp64", "fp32", "bf16", "fp16", "fp16:ftz", "fp8_e4m3", "e5m2fnuz", "fp4_e2m1", "e4m0fn",
                             "int32", "uint8", "nf4", "e8m0"}) {
        const FormatSpec spec = parse_format(name);
        const Reach reach = reach_of(spec);
        Agreement agreement;
        for (int i = 0; i < 3000; ++i) {
            RefNumber x(120);
            mpz_t n;
            mpz_init(n);
            mpz_set_ui(n, static_cast<unsigned long>(rng()));
            mpz_mul_2exp(n, n, 56);
            mpz_add_ui(n, n, static_cast<unsigned long>(rng() >> 8));
            // A quarter near ties: a few significant bits, then one far-away bit or none.
            if (i % 4 == 0) {
                mpz_tdiv_q_2exp(n, n, 100);
                mpz_mul_2exp(n, n, 100);
                if (i % 8 == 0) mpz_setbit(n, rng() % 40);
            }
            mpz_setbit(n, 119);
            const long binade =
                reach.low_binade +
                static_cast<long>(rng() % static_cast<std::uint64_t>(reach.high_binade - reach.low_binade + 1));
            mpfr_set_z_2exp(x.get(), n, binade - 119, MPFR_RNDN);
            mpz_clear(n);
            if (!reach.mostly_positive && (rng() & 1) != 0) mpfr_neg(x.get(), x.get(), MPFR_RNDN);
            const ExactValue exact = ExactValue::from_mpfr(x.get());
            for (RoundingMode mode : ref_modes)
                agreement.check(spec, mode, Tininess::AfterRounding, "mpfr value",
                                round_to_format(spec, exact, {mode, Tininess::AfterRounding, nullptr}),
                                ref_round(spec, x.get(), mode));
        }
        INFO("format " << name);
        CHECK_AGREEMENT(agreement);
    }
}

// ---- (g) integers, NF4 and E8M0 against their own references -----------------------------------

TEST_CASE("integers round as mpfr_rint/mpfr_round and clamp", "[rounding][integer]") {
    for (const char* name :
         {"int8", "int3", "int4", "int5", "int6", "uint4", "uint8", "uint2", "int16", "int32", "uint32"})
        check_format_against_reference(name);
}

TEST_CASE("NF4 takes the nearest code, ties to the lower code, clamps outside", "[rounding][nf4]") {
    check_format_against_reference("nf4");
    // The tie convention on the exact midpoint of two codes (bitsandbytes' `x > threshold`).
    const FormatSpec nf4 = parse_format("nf4");
    const double lo = nf4.code_values[8], hi = nf4.code_values[9];
    const double mid = 0.5 * lo + 0.5 * hi;
    CHECK(round_to_format(nf4, mid).value == lo);
    CHECK(round_to_format(nf4, mid, {RoundingMode::NearestAway}).value == hi);
    // On the negative side the lower code is the one farther from zero.
    const double neg_mid = 0.5 * nf4.code_values[5] + 0.5 * nf4.code_values[6];
    CHECK(round_to_format(nf4, neg_mid).value == nf4.code_values[5]);
    CHECK(round_to_format(nf4, neg_mid, {RoundingMode::TowardZero}).value == nf4.code_values[6]);
}

TEST_CASE("E8M0 rounds to the nearest power of two, ties to the even exponent field", "[rounding][e8m0]") {
    check_format_against_reference("e8m0");
    check_format_against_reference("e8m0:sat");
    const FormatSpec e8m0 = parse_format("e8m0");
    // 1.5 = 1.5 * 2^0 lies halfway between 1 (field 127, odd) and 2 (field 128, even).
    CHECK(round_to_format(e8m0, 1.5).value == 2.0);
    CHECK(round_to_format(e8m0, 3.0).value == 2.0);  // 2 (field 128) against 4 (field 129)
    CHECK(round_to_format(e8m0, 0.0).flags.bits == kInvalid);
    CHECK(std::isnan(round_to_format(e8m0, -1.0).value));
    const Rounded tiny = round_to_format(e8m0, std::ldexp(1.0, -140));
    CHECK(tiny.value == std::ldexp(1.0, -127));
    CHECK(tiny.bits == 0);
    CHECK(tiny.flags.bits == (kUnderflow | kInexact));
}

TEST_CASE("fp32 and fp16 ties-to-even agree with the hardware and libgcc conversions", "[rounding][hardware]") {
    std::mt19937_64 rng(32);
    const Rounder fp32(parse_format("fp32"), {});
    const Rounder fp16(parse_format("fp16"), {});
    std::size_t value_mismatches = 0, flag_mismatches = 0, half_mismatches = 0;
    const std::vector<double> inputs = random_inputs(parse_format("fp32"), 100000, 7);
    for (double x : inputs) {
        volatile double in = x;
        std::feclearexcept(FE_ALL_EXCEPT);
        volatile float out = static_cast<float>(in);
        const int raised = std::fetestexcept(FE_INEXACT | FE_UNDERFLOW | FE_OVERFLOW | FE_INVALID);
        const Rounded r = fp32(x);
        if (r.bits != std::bit_cast<std::uint32_t>(static_cast<float>(out))) ++value_mismatches;
        [[maybe_unused]] const std::uint8_t hardware_flags = static_cast<std::uint8_t>(
            ((raised & FE_INEXACT) ? kInexact : 0) | ((raised & FE_UNDERFLOW) ? kUnderflow : 0) |
            ((raised & FE_OVERFLOW) ? kOverflow : 0) | ((raised & FE_INVALID) ? kInvalid : 0));
#if defined(__x86_64__)  // SSE detects tininess after rounding, as FloatScope's default does
        if (r.flags.bits != hardware_flags) ++flag_mismatches;
#endif
#if defined(__FLT16_MAX__)  // libgcc's soft-fp conversion to _Float16
        const _Float16 half = static_cast<_Float16>(x);
        if (fp16(x).bits != std::bit_cast<std::uint16_t>(half)) ++half_mismatches;
#else
        (void)fp16;
#endif
    }
    CHECK(value_mismatches == 0);
    CHECK(flag_mismatches == 0);
    CHECK(half_mismatches == 0);
    // NaN payloads: x86 keeps the sign and the leading payload bits, and quiets.
    for (int i = 0; i < 1000; ++i) {
        const double nan = std::bit_cast<double>(0x7FF0000000000000ULL | (rng() & 0x800FFFFFFFFFFFFFULL) | 1);
        volatile double in = nan;
        volatile float out = static_cast<float>(in);
        CHECK(fp32(nan).bits == std::bit_cast<std::uint32_t>(static_cast<float>(out)));
    }
}

