// Stochastic rounding: unbiased, P3109 SR-A/B/C, sr-equal, reproducible.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/exception_flags.hpp"
#include "core/rounding.hpp"
#include "core/rounding_mode.hpp"
#include "mpfr_reference.hpp"
#include "rounding_checks.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

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

