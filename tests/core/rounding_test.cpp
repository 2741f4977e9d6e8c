// Rounding (core/rounding.hpp) against the MPFR reference, hardware conversions, published values and statistics.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmp.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/exact_value.hpp"
#include "core/exception_flags.hpp"
#include "core/rounding.hpp"
#include "core/rounding_mode.hpp"
#include "mpfr_reference.hpp"
#include "tests/sweep_size.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double qnan = std::numeric_limits<double>::quiet_NaN();

std::uint64_t seed_of(const std::string& text) {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a: the same seed on every platform
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
    return h;
}

/// Quiet NaNs of IEEE-encoded formats have the top mantissa bit set.
bool quiet_where_ieee(const FormatSpec& spec, std::uint64_t bits) {
    if (spec.kind != FormatKind::Binary || spec.nan_encoding != NanEncoding::Ieee) return true;
    return ((bits >> (spec.mantissa_bits - 1)) & 1) != 0;
}

bool matches(const FormatSpec& spec, const Rounded& got, const RefResult& want) {
    if (got.flags.bits != want.flags) return false;
    if (want.nan)
        return std::isnan(got.value) && ref_is_nan_pattern(spec, got.bits) && quiet_where_ieee(spec, got.bits);
    if (std::isnan(got.value)) return false;
    return std::bit_cast<std::uint64_t>(got.value) == std::bit_cast<std::uint64_t>(want.value) &&
           got.bits == ref_encode(spec, want.value);
}

std::string describe(const RefResult& want) {
    return fmt::format("{} flags {:02X}", want.nan ? "nan" : hex_double(want.value), want.flags);
}

/// Counts disagreements with the reference and keeps the first few for the report.
class Agreement {
public:
    void check(const FormatSpec& spec, RoundingMode mode, Tininess tininess, const std::string& input,
               const Rounded& got, const RefResult& want) {
        ++checked_;
        if (matches(spec, got, want)) return;
        ++failed_;
        if (examples_.size() < 12)
            examples_.push_back(fmt::format("{} {} tininess-{} x={}: got {} = {} flags {}, want {}", spec.name,
                                            to_string(mode), tininess == Tininess::AfterRounding ? "after" : "before",
                                            input, fmt::format("{:X}", got.bits), hex_double(got.value),
                                            flags_hex(got.flags), describe(want)));
    }
    std::size_t checked() const { return checked_; }
    std::size_t failed() const { return failed_; }
    std::string report() const {
        std::string text = fmt::format("{} of {} roundings disagree with the reference", failed_, checked_);
        for (const std::string& e : examples_) text += "\n  " + e;
        return text;
    }

private:
    std::size_t checked_ = 0, failed_ = 0;
    std::vector<std::string> examples_;
};

#define CHECK_AGREEMENT(agreement)        \
    do {                                  \
        INFO((agreement).report());       \
        CHECK((agreement).checked() > 0); \
        CHECK((agreement).failed() == 0); \
    } while (false)

// ---- inputs ------------------------------------------------------------------------------------

struct Reach {
    int low_binade, high_binade;  ///< log2 range the random inputs cover
    int fraction_bits;  ///< significand bits that make ties and exact values
    bool mostly_positive;
};

Reach reach_of(const FormatSpec& spec) {
    switch (spec.kind) {
        case FormatKind::Binary:
            return {1 - spec.bias - spec.mantissa_bits - 4, std::ilogb(ref_max_finite(spec)) + 3,
                    spec.mantissa_bits + 1, false};
        case FormatKind::ExponentScale: return {-spec.bias - 4, std::ilogb(ref_max_finite(spec)) + 3, 2, true};
        case FormatKind::Integer: return {-4, spec.integer_bits + 2, 3, false};
        case FormatKind::Lookup: return {-10, 1, 3, false};
    }
    return {};
}

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

Rounded round_text(const std::string& format, const std::string& text, RoundingMode mode = RoundingMode::NearestEven) {
    return round_to_format(parse_format(format), parse_exact_value(text), {mode, Tininess::AfterRounding, nullptr});
}

constexpr std::uint8_t kInexact = ExceptionFlags::inexact;
constexpr std::uint8_t kUnderflow = ExceptionFlags::underflow;
constexpr std::uint8_t kOverflow = ExceptionFlags::overflow;
constexpr std::uint8_t kInvalid = ExceptionFlags::invalid;

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

// ---- (c) rounding from parsed text --------------------------------------------------------------

namespace {

/// Decimal text of s / 10^k with the given sign, in positional notation.
std::string positional(const mpz_t s, long k, bool negative) {
    char* raw = mpz_get_str(nullptr, 10, s);
    std::string digits(raw);
    void (*free_function)(void*, std::size_t) = nullptr;
    mp_get_memory_functions(nullptr, nullptr, &free_function);
    free_function(raw, std::strlen(raw) + 1);
    if (static_cast<long>(digits.size()) <= k) digits.insert(0, static_cast<std::size_t>(k) - digits.size() + 1, '0');
    const std::size_t point = digits.size() - static_cast<std::size_t>(k);
    std::string text = negative ? "-" : "";
    text.append(digits, 0, point);
    if (k > 0) text.append(".").append(digits, point, std::string::npos);
    return text;
}

/// The exact decimal of a finite double, then optionally padded to `min_fraction` fraction digits
/// and moved by `nudge` units of 10^-nudge_exponent (nudge_exponent <= min_fraction).
std::string exact_decimal_text(double x, long min_fraction = 0, int nudge = 0, long nudge_exponent = 0) {
    int e = 0;
    const double f = std::frexp(std::fabs(x), &e);
    const auto m = static_cast<unsigned long>(std::ldexp(f, 53));
    e -= 53;
    mpz_t s;
    mpz_init_set_ui(s, m);
    long k = 0;
    if (e >= 0) {
        mpz_mul_2exp(s, s, static_cast<mp_bitcnt_t>(e));
    } else {
        mpz_t five;
        mpz_init(five);
        mpz_ui_pow_ui(five, 5, static_cast<unsigned long>(-e));
        mpz_mul(s, s, five);
        mpz_clear(five);
        k = -e;
    }
    if (min_fraction > k) {
        mpz_t ten;
        mpz_init(ten);
        mpz_ui_pow_ui(ten, 10, static_cast<unsigned long>(min_fraction - k));
        mpz_mul(s, s, ten);
        mpz_clear(ten);
        k = min_fraction;
    }
    if (nudge != 0) {
        mpz_t unit;
        mpz_init(unit);
        mpz_ui_pow_ui(unit, 10, static_cast<unsigned long>(k - nudge_exponent));
        if (nudge > 0)
            mpz_add(s, s, unit);
        else
            mpz_sub(s, s, unit);
        mpz_clear(unit);
    }
    std::string text = positional(s, k, std::signbit(x));
    mpz_clear(s);
    return text;
}

void check_text(const FormatSpec& spec, const std::string& text, Agreement& agreement) {
    RefNumber exact(4096);
    mpfr_strtofr(exact.get(), text.c_str(), nullptr, 10, MPFR_RNDN);
    const ExactValue parsed = parse_exact_value(text);
    for (RoundingMode mode : ref_modes)
        agreement.check(spec, mode, Tininess::AfterRounding, text,
                        round_to_format(spec, parsed, {mode, Tininess::AfterRounding, nullptr}),
                        ref_round(spec, exact.get(), mode));
}

}  // namespace

TEST_CASE("long decimals halfway between values, and 1e-50 off it, round as MPFR", "[rounding][parse]") {
    for (const char* name : {"fp16", "fp32", "bf16", "fp8_e4m3", "e5m2fnuz", "fp4_e2m1", "fp16:ftz"}) {
        INFO("format " << name);
        const FormatSpec spec = parse_format(name);
        std::mt19937_64 rng(seed_of(name));
        const int magnitude_bits = spec.exponent_bits + spec.mantissa_bits;
        Agreement agreement;
        for (int i = 0; i < 400; ++i) {
            std::uint64_t pattern = rng() & ((std::uint64_t{1} << magnitude_bits) - 1);
            if (i % 4 == 0) pattern &= (std::uint64_t{1} << (spec.mantissa_bits + 2)) - 1;  // subnormals
            const double a = ref_decode(spec, pattern), b = ref_decode(spec, pattern + 1);
            if (!std::isfinite(a) || !std::isfinite(b) || !(a < b)) continue;
            for (double mid : {0.5 * a + 0.5 * b, -(0.5 * a + 0.5 * b)}) {
                check_text(spec, exact_decimal_text(mid, 60), agreement);  // exact, 60+ digits
                check_text(spec, exact_decimal_text(mid, 60, +1, 50), agreement);  // + 1e-50
                check_text(spec, exact_decimal_text(mid, 60, -1, 50), agreement);  // - 1e-50
            }
        }
        CHECK_AGREEMENT(agreement);
    }
}

TEST_CASE("the 1e-50 nudge decides a tie: above goes up, below goes down", "[rounding][parse]") {
    // 1 + 2^-11 is halfway between fp16's 1 and 1 + 2^-10; ties-to-even picks 1.
    CHECK(round_text("fp16", "1.00048828125").bits == 0x3C00);
    CHECK(round_text("fp16", "1.00048828125000000000000000000000000000000000000001").bits == 0x3C01);
    CHECK(round_text("fp16", "1.00048828124999999999999999999999999999999999999999").bits == 0x3C00);
    CHECK(round_text("fp16", "1.00048828125", RoundingMode::NearestAway).bits == 0x3C01);
    // 1 + 3*2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9: even is up.
    CHECK(round_text("fp16", "1.00146484375").bits == 0x3C02);
    CHECK(round_text("fp16", "1.00146484374999999999999999999999999999999999999999").bits == 0x3C01);
}

TEST_CASE("0.1 to fp32 is 0x3DCCCCCD", "[rounding][parse][published]") {
    const Rounded r = round_text("fp32", "0.1");
    CHECK(r.bits == 0x3DCCCCCD);
    CHECK(r.value == static_cast<double>(0.1f));
    CHECK(r.flags.bits == kInexact);
    CHECK(round_text("fp32", "0.1", RoundingMode::TowardZero).bits == 0x3DCCCCCC);
    CHECK(round_text("fp16", "0.1").bits == 0x2E66);
    CHECK(round_text("bf16", "0.1").bits == 0x3DCD);
}

TEST_CASE("200-digit decimals round as MPFR, the last digit deciding", "[rounding][parse]") {
    std::mt19937_64 rng(2024);
    Agreement agreement;
    for (const char* name : {"fp64", "fp32", "fp16", "bf16", "fp8_e5m2"}) {
        const FormatSpec spec = parse_format(name);
        for (int i = 0; i < 60; ++i) {
            std::string digits;
            for (int d = 0; d < 200; ++d) digits += static_cast<char>('0' + rng() % 10);
            if (digits[0] == '0') digits[0] = '7';
            const int exponent = static_cast<int>(rng() % 80) - 40;
            check_text(spec, digits.substr(0, 1) + "." + digits.substr(1) + "e" + std::to_string(exponent), agreement);
            check_text(spec, "-0." + digits + "e" + std::to_string(exponent), agreement);
        }
        // Exact midpoints written with 199 digits, then one unit at the 200th digit above and below.
        for (int i = 0; i < 40; ++i) {
            const std::uint64_t pattern =
                (rng() & ((std::uint64_t{1} << (spec.exponent_bits + spec.mantissa_bits - 1)) - 1)) |
                (std::uint64_t{1} << (spec.exponent_bits + spec.mantissa_bits - 2));
            const double a = ref_decode(spec, pattern), b = ref_decode(spec, pattern + 1);
            if (!std::isfinite(b) || spec.total_bits() > 32) continue;
            const double mid = 0.5 * a + 0.5 * b;
            const std::string exact = exact_decimal_text(mid);
            const long fraction =
                exact.find('.') == std::string::npos ? 0 : static_cast<long>(exact.size() - exact.find('.') - 1);
            const long target = fraction + 200 - static_cast<long>(exact.size());
            check_text(spec, exact_decimal_text(mid, std::max(target, fraction), +1, std::max(target, fraction)),
                       agreement);
            check_text(spec, exact_decimal_text(mid, std::max(target, fraction), -1, std::max(target, fraction)),
                       agreement);
        }
    }
    CHECK_AGREEMENT(agreement);
}

TEST_CASE("hex floats round as the value they spell", "[rounding][parse]") {
    std::mt19937_64 rng(16);
    Agreement agreement;
    for (const char* name : {"fp16", "fp32", "bf16", "fp8_e4m3", "fp4_e2m1", "fp64"}) {
        const FormatSpec spec = parse_format(name);
        for (int i = 0; i < 300; ++i) {
            // An integer of up to 90 bits times a power of two, built exactly with GMP, then spelled in hex.
            mpz_t n;
            mpz_init(n);
            mpz_set_ui(n, static_cast<unsigned long>(rng() >> 1) | 1);
            mpz_mul_2exp(n, n, static_cast<mp_bitcnt_t>(rng() % 30));
            mpz_add_ui(n, n, static_cast<unsigned long>(rng() % 2));
            const Reach reach = reach_of(spec);
            const long binade =
                reach.low_binade +
                static_cast<long>(rng() % static_cast<std::uint64_t>(reach.high_binade - reach.low_binade + 1));
            const long exponent = binade - static_cast<long>(mpz_sizeinbase(n, 2)) + 1;
            RefNumber exact(256);
            mpfr_set_z_2exp(exact.get(), n, exponent, MPFR_RNDN);
            const bool negative = (rng() & 1) != 0;
            if (negative) mpfr_neg(exact.get(), exact.get(), MPFR_RNDN);
            char* raw = mpz_get_str(nullptr, 16, n);
            const std::string hex(raw);
            void (*free_function)(void*, std::size_t) = nullptr;
            mp_get_memory_functions(nullptr, nullptr, &free_function);
            free_function(raw, hex.size() + 1);
            const std::string sign = negative ? "-" : "";
            const std::string plain = sign + "0x" + hex + "p" + std::to_string(exponent);
            const std::string pointed = sign + "0X" + hex.substr(0, 1) + "." + hex.substr(1) + "P" +
                                        std::to_string(exponent + 4 * static_cast<long>(hex.size() - 1));
            for (const std::string& text : {plain, pointed}) {
                const ExactValue parsed = parse_exact_value(text);
                for (RoundingMode mode : ref_modes)
                    agreement.check(spec, mode, Tininess::AfterRounding, text,
                                    round_to_format(spec, parsed, {mode, Tininess::AfterRounding, nullptr}),
                                    ref_round(spec, exact.get(), mode));
            }
            mpz_clear(n);
        }
    }
    CHECK_AGREEMENT(agreement);
    CHECK(round_text("fp16", "0x1.8p-3").value == 0.1875);
    CHECK(round_text("fp16", "0x1.002p0").bits == 0x3C00);  // tie, to even
    CHECK(round_text("fp16", "0x1.0020000000000000000001p0").bits == 0x3C01);  // just above the tie
    const Rounded half_min = round_text("fp16", "-0x1p-25");  // half the smallest subnormal
    CHECK(half_min.bits == 0x8000);
    CHECK(half_min.flags.bits == (kUnderflow | kInexact));
}

TEST_CASE("text beyond any range, and the specials, round as their values", "[rounding][parse]") {
    const FormatSpec fp32 = parse_format("fp32");
    RefNumber huge(64), tiny(64);
    mpfr_set_str(huge.get(), "1e400000", 10, MPFR_RNDN);
    mpfr_set_str(tiny.get(), "1e-400000", 10, MPFR_RNDN);
    Agreement agreement;
    for (RoundingMode mode : ref_modes) {
        const RoundingOptions options{mode, Tininess::AfterRounding, nullptr};
        for (const auto& [text, sign] :
             {std::pair{"1e99999999999999999999", 1}, {"-1e99999999999999999999", -1}, {"1e400", 1}, {"-1e400", -1}}) {
            mpfr_setsign(huge.get(), huge.get(), sign < 0, MPFR_RNDN);
            agreement.check(fp32, mode, Tininess::AfterRounding, text,
                            round_to_format(fp32, parse_exact_value(text), options), ref_round(fp32, huge.get(), mode));
        }
        for (const auto& [text, sign] : {std::pair{"1e-99999999999999999999", 1},
                                         {"-1e-99999999999999999999", -1},
                                         {"1e-400", 1},
                                         {"-1e-400", -1}}) {
            mpfr_setsign(tiny.get(), tiny.get(), sign < 0, MPFR_RNDN);
            agreement.check(fp32, mode, Tininess::AfterRounding, text,
                            round_to_format(fp32, parse_exact_value(text), options), ref_round(fp32, tiny.get(), mode));
        }
    }
    CHECK_AGREEMENT(agreement);
    CHECK(round_text("fp16", "inf").value == inf);
    CHECK(round_text("fp16", "-Infinity").value == -inf);
    CHECK(std::isnan(round_text("fp16", "nan").value));
    CHECK(round_text("fp16", "snan").flags.bits == kInvalid);
    CHECK(round_text("fp16", "-0").bits == 0x8000);
}

// ---- (d) published facts about rounding ---------------------------------------------------------

TEST_CASE("typing 100000000 and tiny numbers gives the published results", "[rounding][published]") {
    const Rounded fp16 = round_text("fp16", "100000000");
    CHECK(fp16.value == inf);
    CHECK(fp16.bits == 0x7C00);
    CHECK(fp16.flags.bits == (kOverflow | kInexact));
    const Rounded e4m3 = round_text("fp8_e4m3", "100000000");
    CHECK(std::isnan(e4m3.value));
    CHECK(e4m3.bits == 0x7F);
    CHECK(e4m3.flags.bits == (kOverflow | kInexact));
    const Rounded e4m3_sat = round_text("fp8_e4m3:sat", "100000000");
    CHECK(e4m3_sat.value == 448);
    CHECK(e4m3_sat.bits == 0x7E);
    CHECK(e4m3_sat.flags.bits == (kOverflow | kInexact));
    const Rounded bf16 = round_text("bf16", "100000000");
    CHECK(bf16.value == 100139008);
    CHECK(bf16.bits == 0x4CBF);
    CHECK(bf16.flags.bits == kInexact);

    const Rounded small = round_text("fp16", "1e-8");
    CHECK(small.bits == 0x0000);
    CHECK_FALSE(std::signbit(small.value));
    CHECK(small.flags.bits == (kUnderflow | kInexact));
    const Rounded up = round_text("fp16", "5e-8");
    CHECK(up.bits == 0x0001);
    CHECK(up.value == 5.9604644775390625e-08);
    CHECK(up.flags.bits == (kUnderflow | kInexact));
}

TEST_CASE("the generalised overflow rule", "[rounding][published]") {
    const auto round = [](const char* format, double x, RoundingMode mode) {
        return round_to_format(parse_format(format), x, {mode, Tininess::AfterRounding, nullptr});
    };
    using M = RoundingMode;
    // fn formats: where IEEE gives inf, NaN; directed roundings that IEEE sends to max keep max.
    CHECK(std::isnan(round("fp8_e4m3", 1000, M::NearestEven).value));
    CHECK(std::isnan(round("fp8_e4m3", 1000, M::Upward).value));
    CHECK(round("fp8_e4m3", 1000, M::TowardZero).value == 448);
    CHECK(round("fp8_e4m3", 1000, M::Downward).value == 448);
    CHECK(round("fp8_e4m3", -1000, M::Upward).value == -448);
    CHECK(std::isnan(round("fp8_e4m3", -1000, M::Downward).value));
    // 464 is halfway between 448 (mantissa 110, even) and 480: ties-to-even stays at 448.
    CHECK(round("fp8_e4m3", 464, M::NearestEven).value == 448);
    CHECK(round("fp8_e4m3", 464, M::NearestEven).flags.bits == kInexact);
    CHECK(std::isnan(round("fp8_e4m3", 464.5, M::NearestEven).value));
    // Saturating formats and formats with neither inf nor NaN give +-max.
    CHECK(round("fp8_e4m3:sat", 1000, M::NearestEven).value == 448);
    CHECK(round("fp4_e2m1", 1000, M::NearestEven).value == 6);
    CHECK(round("fp4_e2m1", -7, M::NearestEven).value == -6);
    CHECK(round("fp4_e2m1", -7, M::NearestEven).flags.bits == (kOverflow | kInexact));
    CHECK(round("fp6_e3m2", 1e9, M::Upward).value == 28);
    CHECK(round("fp6_e2m3:ieee", 1e9, M::NearestEven).value == 7.5);
    CHECK(std::isnan(round("e5m2fnuz", 1e6, M::NearestEven).value));
    CHECK(round("e5m2fnuz", 1e6, M::NearestEven).bits == 0x80);
    // IEEE formats: directed roundings toward zero stop at max.
    CHECK(round("fp16", 1e6, M::TowardZero).value == 65504);
    CHECK(round("fp16", 1e6, M::ToOdd).value == 65504);
    CHECK(round("fp16", -1e6, M::Upward).value == -65504);
    CHECK(round("fp16", -1e6, M::Downward).value == -inf);
    CHECK(round("e4m3:sat", 1e6, M::NearestEven).value == 240);
    // No -0: negative results that round to zero give +0.
    const Rounded fnuz_zero = round("e4m3fnuz", -1e-9, M::NearestEven);
    CHECK(fnuz_zero.bits == 0);
    CHECK_FALSE(std::signbit(fnuz_zero.value));
    CHECK(round("e4m3fnuz", -0.0, M::NearestEven).bits == 0);
}

TEST_CASE("tininess after and before rounding differ just below the smallest normal", "[rounding][published]") {
    const FormatSpec fp16 = parse_format("fp16");
    const double x = std::ldexp(1.0, -14) * (1 - std::ldexp(1.0, -12));  // rounds up to 2^-14
    const Rounded after = round_to_format(fp16, x, {RoundingMode::NearestEven, Tininess::AfterRounding, nullptr});
    const Rounded before = round_to_format(fp16, x, {RoundingMode::NearestEven, Tininess::BeforeRounding, nullptr});
    CHECK(after.bits == 0x0400);
    CHECK(after.flags.bits == kInexact);
    CHECK(before.bits == 0x0400);
    CHECK(before.flags.bits == (kUnderflow | kInexact));
    // Exact subnormals raise no underflow (IEEE 754-2019 7.5: only inexact tiny results do).
    CHECK(round_to_format(fp16, std::ldexp(3.0, -24)).flags.bits == 0);
    // Flushed formats: the same x flushes only under tininess before rounding.
    const FormatSpec ftz = parse_format("fp16:ftz");
    CHECK(round_to_format(ftz, x, {RoundingMode::NearestEven, Tininess::AfterRounding, nullptr}).bits == 0x0400);
    CHECK(round_to_format(ftz, x, {RoundingMode::NearestEven, Tininess::BeforeRounding, nullptr}).bits == 0x0000);
    const Rounded flushed = round_to_format(ftz, -std::ldexp(3.0, -24));
    CHECK(flushed.bits == 0x8000);
    CHECK(flushed.flags.bits == (kUnderflow | kInexact));
}

TEST_CASE("NaN and infinity inputs follow the documented conventions", "[rounding][nan]") {
    const double signaling = std::bit_cast<double>(0x7FF0000000000001ULL | (std::uint64_t{0x5A} << 40));
    const double payload = std::bit_cast<double>(0xFFF8000000000000ULL | (std::uint64_t{0x2B5} << 41));
    // IEEE formats: quiet NaN out, the sign and the leading payload bits kept, sNaN raises invalid.
    const Rounded s = round_to_format(parse_format("fp16"), signaling);
    CHECK(std::isnan(s.value));
    CHECK(s.flags.bits == kInvalid);
    CHECK((s.bits & 0x7E00) == 0x7E00);
    const Rounded q = round_to_format(parse_format("fp16"), payload);
    CHECK(q.flags.bits == 0);
    CHECK((q.bits & 0x8000) == 0x8000);
    CHECK((q.bits & 0x7E00) == 0x7E00);
    // fn / fnuz formats: their one NaN; inputs of inf raise invalid.
    const Rounded fn_inf = round_to_format(parse_format("fp8_e4m3"), inf);
    CHECK(std::isnan(fn_inf.value));
    CHECK(fn_inf.flags.bits == kInvalid);
    CHECK(round_to_format(parse_format("e4m3fnuz"), -inf).bits == 0x80);
    CHECK(round_to_format(parse_format("fp8_e4m3:sat"), -inf).value == -448);
    CHECK(round_to_format(parse_format("fp8_e4m3:sat"), -inf).flags.bits == kInvalid);
    // Formats without NaN: NaN gives +0 and invalid; inf gives max and invalid.
    const Rounded none = round_to_format(parse_format("fp4_e2m1"), -qnan);
    CHECK(none.bits == 0);
    CHECK(none.flags.bits == kInvalid);
    CHECK(round_to_format(parse_format("fp4_e2m1"), inf).value == 6);
    CHECK(round_to_format(parse_format("fp4_e2m1"), inf).flags.bits == kInvalid);
    CHECK(round_to_format(parse_format("nf4"), qnan).value == 0);
    CHECK(round_to_format(parse_format("nf4"), qnan).flags.bits == kInvalid);
    CHECK(round_to_format(parse_format("int8"), qnan).value == 0);
    CHECK(round_to_format(parse_format("int8"), -inf).value == -128);
    CHECK(round_to_format(parse_format("int8"), -inf).flags.bits == kInvalid);
    CHECK(std::isnan(round_to_format(parse_format("e8m0"), inf).value));
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

// ---- stochastic rounding ---------------------------------------------------------------------

namespace {

struct Draws {
    std::size_t count = 0, ups = 0, strays = 0, wrong_flags = 0;
    double lo = 0, hi = 0;
};

Draws draw(const FormatSpec& spec, RoundingMode mode, double x, std::size_t count, std::uint64_t seed) {
    Draws d;
    d.lo = ref_round(spec, x, RoundingMode::Downward).value;
    d.hi = ref_round(spec, x, RoundingMode::Upward).value;
    const std::uint8_t flags_down = ref_round(spec, x, RoundingMode::Downward).flags;
    const std::uint8_t flags_up = ref_round(spec, x, RoundingMode::Upward).flags;
    StochasticSource source(seed);
    const Rounder rounder(spec, {mode, Tininess::AfterRounding, &source});
    for (std::size_t i = 0; i < count; ++i) {
        const Rounded r = rounder(x);
        ++d.count;
        if (r.value == d.hi && r.flags.bits == flags_up && r.bits == ref_encode(spec, d.hi)) {
            ++d.ups;
        } else if (r.value == d.lo && r.bits == ref_encode(spec, d.lo)) {
            if (r.flags.bits != flags_down) ++d.wrong_flags;
        } else {
            ++d.strays;
        }
    }
    return d;
}

/// The mean of the draws is within 5 binomial standard deviations of the expected mean.
void check_mean(const Draws& d, double x, double p_up) {
    const double gap = d.hi - d.lo;
    const double mean = d.lo + gap * static_cast<double>(d.ups) / static_cast<double>(d.count);
    const double expected = d.lo + gap * p_up;
    const double sigma = gap * std::sqrt(p_up * (1 - p_up) / static_cast<double>(d.count));
    INFO("x = " << hex_double(x) << ", neighbours " << d.lo << " and " << d.hi << ", " << d.ups << " of " << d.count
                << " up, expected p = " << p_up);
    CHECK(d.strays == 0);
    CHECK(d.wrong_flags == 0);
    CHECK(std::fabs(mean - expected) <= 5 * sigma + gap / static_cast<double>(d.count));
}

}  // namespace

TEST_CASE("stochastic rounding is unbiased: the mean of many draws is the exact value", "[rounding][stochastic]") {
    struct Case {
        const char* format;
        double x;
    };
    const double fp16_ulp = std::ldexp(1.0, -10);
    const Case cases[] = {
        {"fp16", 1 + 0.3 * fp16_ulp},
        {"fp16", -(3 + 0.9 * 2 * fp16_ulp)},
        {"fp16", 1 + 0.01 * fp16_ulp},
        {"fp16", std::ldexp(2.25, -24)},  // subnormal
        {"bf16", 3.14159265358979},
        {"fp8_e4m3", 0.3},
        {"fp8_e5m2", -1000.0},
        {"fp4_e2m1", 2.6},
        {"e5m2fnuz", 0.07},
        {"int8", 3.25},
        {"int8", -7.8},
        {"uint4", 0.5},
        {"nf4", 0.2},
        {"nf4", -0.5},
        {"e8m0", 1.25},
        {"e8m0", 1e-20},
    };
    for (const Case& c : cases) {
        const FormatSpec spec = parse_format(c.format);
        const Draws d = draw(spec, RoundingMode::Stochastic, c.x, 20000, seed_of(c.format) + 3);
        RefNumber share(4096), offset(4096);
        mpfr_set_d(offset.get(), c.x, MPFR_RNDN);
        mpfr_sub_d(offset.get(), offset.get(), d.lo, MPFR_RNDN);
        mpfr_set_d(share.get(), d.hi, MPFR_RNDN);
        mpfr_sub_d(share.get(), share.get(), d.lo, MPFR_RNDN);
        mpfr_div(share.get(), offset.get(), share.get(), MPFR_RNDN);
        INFO("format " << c.format);
        check_mean(d, c.x, mpfr_get_d(share.get(), MPFR_RNDN));
    }
}

TEST_CASE("P3109's stochastic rounding A, B and C with N random bits round up as often as their rules say",
          "[rounding][stochastic][p3109]") {
    // x = 1 + f ulp in binary8p4se (ulp 1/8 at 1). The chance of rounding up is the share of R in
    // 0 .. 2^N - 1 that satisfy the variant's inequality (P3109 Interim Report v4.0, 4.7.4), counted here.
    const FormatSpec spec = parse_format("binary8p4se");
    auto share_up = [](StochasticVariant variant, int n, double f) {
        const double two_n = std::ldexp(1.0, n);
        int count = 0;
        for (int r = 0; r < (1 << n); ++r) {
            switch (variant) {
                case StochasticVariant::A: count += std::floor(f * two_n) + r >= two_n; break;
                case StochasticVariant::B: count += std::floor(f * 2 * two_n) + 2 * r + 1 >= 2 * two_n; break;
                case StochasticVariant::C: count += std::nearbyint(f * two_n) + r >= two_n; break;
            }
        }
        return count / two_n;
    };
    std::uint64_t seed = 4;
    for (StochasticVariant variant : {StochasticVariant::A, StochasticVariant::B, StochasticVariant::C})
        for (int n : {1, 2, 3, 5})
            for (double f : {0.1, 0.2, 0.4, 0.5, 0.7, 0.95}) {
                const double x = 1 + f / 8;
                const double p = share_up(variant, n, f);
                StochasticSource random(seed++, {variant, n});
                const Rounder rounder(spec, {RoundingMode::Stochastic, Tininess::AfterRounding, &random});
                int ups = 0, strays = 0;
                constexpr int draws = 20000;
                for (int i = 0; i < draws; ++i) {
                    const double v = rounder(x).value;
                    ups += v == 1.125;
                    strays += v != 1.125 && v != 1.0;
                }
                INFO("variant " << to_string(variant) << ", N = " << n << ", f = " << f << ": " << ups << " of "
                                << draws << " up, expected p = " << p);
                CHECK(strays == 0);
                // A share of 0 or 1 is exact: no draw may stray from it.
                if (p == 0 || p == 1)
                    CHECK(ups == (p == 1 ? draws : 0));
                else
                    CHECK(std::fabs(ups / double(draws) - p) <= 5 * std::sqrt(p * (1 - p) / draws));
            }
    CHECK_THROWS_WITH(StochasticSource(1, {StochasticVariant::B, 64}), Catch::Contains("1..63"));
    CHECK_THROWS_WITH(StochasticSource(1, {StochasticVariant::A, 0}), Catch::Contains("1..64"));
    CHECK(parse_stochastic_variant("c") == StochasticVariant::C);
    CHECK_THROWS_WITH(parse_stochastic_variant("d"), Catch::Contains("a, b, c"));
}

TEST_CASE("sr-equal picks either neighbour with probability 1/2", "[rounding][stochastic]") {
    for (const auto& [format, x] : {std::pair{"fp16", 1 + 0.01 * std::ldexp(1.0, -10)},
                                    {"bf16", -0.1},
                                    {"int8", 5.9},
                                    {"nf4", 0.9},
                                    {"e8m0", 1.01}}) {
        INFO("format " << format);
        const Draws d = draw(parse_format(format), RoundingMode::StochasticEqual, x, 20000, 99);
        check_mean(d, x, 0.5);
    }
}

TEST_CASE("stochastic rounding is reproducible and exact values stay exact", "[rounding][stochastic]") {
    const FormatSpec fp16 = parse_format("fp16");
    const double x = 1 + 0.5 * std::ldexp(1.0, -10);
    auto sequence = [&](StochasticSource& source, RoundingMode mode) {
        const Rounder rounder(fp16, {mode, Tininess::AfterRounding, &source});
        std::vector<std::uint64_t> bits;
        for (int i = 0; i < 1000; ++i) bits.push_back(rounder(x).bits);
        return bits;
    };
    for (RoundingMode mode : {RoundingMode::Stochastic, RoundingMode::StochasticEqual}) {
        StochasticSource a(1234), b(1234), c(4321);
        const auto first = sequence(a, mode);
        CHECK(first == sequence(b, mode));
        CHECK(first != sequence(c, mode));
        a.reseed(1234);
        CHECK(first == sequence(a, mode));
    }
    // The source is the published mt19937_64 generator.
    StochasticSource source(77);
    std::mt19937_64 engine(77);
    for (int i = 0; i < 100; ++i) CHECK(source.next() == engine());
    // Values of the format need no rounding.
    StochasticSource any;
    const Rounder sr(fp16, {RoundingMode::Stochastic, Tininess::AfterRounding, &any});
    for (double exact : {1.0, -65504.0, std::ldexp(1.0, -24), 0.0}) {
        CHECK(sr(exact).value == exact);
        CHECK(sr(exact).flags.bits == 0);
    }
    // Stochastic overflow behaves as round-to-nearest: beyond max it heads for infinity.
    std::size_t to_max = 0, to_inf = 0;
    for (int i = 0; i < 2000; ++i) {
        const Rounded r = sr(65510.0);
        if (r.value == 65504) to_max += r.flags.bits == kInexact;
        if (r.value == inf) to_inf += r.flags.bits == (kOverflow | kInexact);
    }
    CHECK(to_max + to_inf == 2000);
    CHECK(to_inf > 0);
    CHECK(to_max > 0);
    CHECK_THROWS_AS(Rounder(fp16, {RoundingMode::Stochastic, Tininess::AfterRounding, nullptr}), Error);
}

// ---- rounding modes and flags ------------------------------------------------------------------

TEST_CASE("rounding mode names parse and print", "[rounding][names]") {
    const char* names[] = {"rne", "rna", "rtz", "rup", "rdn", "rto", "sr", "sr-equal"};
    for (std::size_t i = 0; i < all_rounding_modes.size(); ++i) {
        CHECK(std::string(to_string(all_rounding_modes[i])) == names[i]);
        CHECK(parse_rounding_mode(names[i]) == all_rounding_modes[i]);
        CHECK(is_stochastic(all_rounding_modes[i]) == (i >= 6));
    }
    try {
        parse_rounding_mode("nearest");
        FAIL("no error");
    } catch (const Error& e) {
        const std::string message = e.what();
        CHECK(message.find("nearest") != std::string::npos);
        CHECK(message.find("rne") != std::string::npos);
        CHECK(message.find("sr-equal") != std::string::npos);
    }
}

TEST_CASE("exception flags print with TestFloat's bits", "[rounding][flags]") {
    CHECK(flags_hex(ExceptionFlags{}) == "00");
    CHECK(flags_hex(ExceptionFlags{0x03}) == "03");
    CHECK(flags_hex(ExceptionFlags{0x1F}) == "1F");
    CHECK(flags_names(ExceptionFlags{}) == "none");
    CHECK(flags_names(ExceptionFlags{0x03}) == "inexact|underflow");
    CHECK(flags_names(ExceptionFlags{0x14}) == "overflow|invalid");
    ExceptionFlags f;
    f.raise(ExceptionFlags::divide_by_zero);
    CHECK(f.has(ExceptionFlags::divide_by_zero));
    CHECK(flags_hex(f) == "08");
}
