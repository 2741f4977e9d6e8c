// Block format names and OCP MX quantization: hand-computed blocks, edge cases, and every element
// against core::Rounder applied to the exact quotient V_i / X.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/rounding.hpp"
#include "emulation/quantize/block_format.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/mx.hpp"

namespace {

using floatscope::Error;
using floatscope::core::RoundingMode;
using namespace floatscope::emu;

std::vector<float> dequantized(const BlockQuantized& q) {
    std::vector<float> out(q.size());
    dequantize_blocks(q, out);
    return out;
}

constexpr float not_a_number = std::numeric_limits<float>::quiet_NaN();
constexpr float infinity = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("block format names parse with their modifiers", "[quantize]") {
    CHECK(block_format_names() == std::vector<std::string>{"mxfp8_e4m3", "mxfp8_e5m2", "mxfp6_e2m3", "mxfp6_e3m2",
                                                           "mxfp4", "mxint8", "nvfp4", "nf4", "bnb_fp4",
                                                           "fp8_blockwise"});
    const BlockFormat mxfp4 = parse_block_format("mxfp4");
    CHECK(mxfp4.family == BlockFamily::Mx);
    CHECK(mxfp4.block_size == 32);
    CHECK(mxfp4.element.name == "fp4_e2m1");
    CHECK(mxfp4.scale.name == "e8m0");
    const BlockFormat variant = parse_block_format("mxfp8_e4m3:ceil:rna:block=64");
    CHECK(variant.scale_rule == ScaleRule::Ceil);
    CHECK(variant.element_rounding == RoundingMode::NearestAway);
    CHECK(variant.block_size == 64);
    CHECK(variant.name == "mxfp8_e4m3:ceil:rna:block=64");
    CHECK(parse_block_format("nvfp4").block_size == 16);
    CHECK(parse_block_format("nf4").block_size == 64);
    CHECK(parse_block_format("nf4:dq").double_quantization);

    CHECK_THROWS_WITH(parse_block_format("mxfp5"), Catch::Contains("mxfp4") && Catch::Contains("unknown"));
    CHECK_THROWS_WITH(parse_block_format("mxfp4:block=48"), Catch::Contains("not a power of two"));
    CHECK_THROWS_WITH(parse_block_format("mxfp4:block=1"), Catch::Contains("2..4096"));
    CHECK_THROWS_WITH(parse_block_format("mxfp4:block=x"), Catch::Contains("not a number"));
    CHECK_THROWS_WITH(parse_block_format("nvfp4:block=32"), Catch::Contains("16"));
    CHECK_THROWS_WITH(parse_block_format("nvfp4:rtz"), Catch::Contains("rne or sr"));
    CHECK_THROWS_WITH(parse_block_format("nf4:ceil"), Catch::Contains("dq"));
    CHECK_THROWS_WITH(parse_block_format("mxfp4:fast"), Catch::Contains("floor, ceil"));
}

TEST_CASE("MXFP4 block by hand: floor scale, clamping between 6 and 8 times X, ties", "[quantize]") {
    // amax = 7: floor(log2 7) = 2, emax(E2M1) = 2, so X = 2^0 and the scale byte is 0 + 127.
    // E2M1 values 0 0.5 1 1.5 2 3 4 6 have codes 0..7, the sign in bit 3.
    std::vector<float> x(32, 0.0f);
    x[0] = 1.0f;  // exact: code 2
    x[1] = -2.5f;  // tie of 2 and 3: even mantissa -> -2 (code 8|4)
    x[2] = 7.0f;  // 7 X lies between 6 X and 8 X: clamped to 6 (code 7)
    x[3] = 0.3f;  // above the midpoint 0.25 of 0 and 0.5: 0.5 (code 1)
    x[4] = 6.5f;  // clamped to 6
    x[5] = -0.2f;  // below 0.25: -0 (code 8, E2M1 keeps -0)
    const BlockQuantized q = quantize_blocks(parse_block_format("mxfp4"), x);
    REQUIRE(q.scale_codes.size() == 1);
    CHECK(q.scale_codes[0] == 127);
    CHECK(std::vector<int>(q.codes.begin(), q.codes.begin() + 6) == std::vector<int>{2, 12, 7, 1, 7, 8});
    const std::vector<float> v = dequantized(q);
    CHECK(std::vector<float>(v.begin(), v.begin() + 5) == std::vector<float>{1.0f, -2.0f, 6.0f, 0.5f, 6.0f});

    // Ties away from zero (the reference emulator's "nearest"): -2.5 -> -3 (code 8|5).
    const BlockQuantized away = quantize_blocks(parse_block_format("mxfp4:rna"), x);
    CHECK(away.codes[1] == 13);

    // The round-up scale rule: 7 / 2^0 > 6, so X = 2^1 (byte 128), nothing is clamped:
    // 7/2 = 3.5 ties to 4 (even), 1/2 = 0.5, -2.5/2 = -1.25 ties to -1, 0.3/2 = 0.15 -> 0.
    const BlockQuantized ceil = quantize_blocks(parse_block_format("mxfp4:ceil"), x);
    CHECK(ceil.scale_codes[0] == 128);
    const std::vector<float> c = dequantized(ceil);
    CHECK(std::vector<float>(c.begin(), c.begin() + 4) == std::vector<float>{1.0f, -2.0f, 8.0f, 0.0f});
}

TEST_CASE("MX scale rules at powers of two and at the element maximum", "[quantize]") {
    // amax = 8 = 2^3: floor gives X = 2^(3-2) = 2, and 8 / 2 = 4 is exact.
    CHECK(mx_shared_exponent(8.0f, 2, 6.0, ScaleRule::Floor) == 1);
    CHECK(mx_shared_exponent(8.0f, 2, 6.0, ScaleRule::Ceil) == 1);  // 8 / 2 = 4 <= 6
    // amax = 6 = 1.5 * 2^2: X = 1 under both rules (6 fits exactly).
    CHECK(mx_shared_exponent(6.0f, 2, 6.0, ScaleRule::Ceil) == 0);
    // amax just above 6: floor keeps X = 1 (and clamps), ceil moves to X = 2.
    CHECK(mx_shared_exponent(std::nextafter(6.0f, 7.0f), 2, 6.0, ScaleRule::Floor) == 0);
    CHECK(mx_shared_exponent(std::nextafter(6.0f, 7.0f), 2, 6.0, ScaleRule::Ceil) == 1);
    // MXFP8 E4M3: emax 8, so amax = 1 gives X = 2^-8; E5M2: emax 15.
    CHECK(mx_shared_exponent(1.0f, mx_element_emax(parse_block_format("mxfp8_e4m3").element), 448, ScaleRule::Floor) ==
          -8);
    CHECK(mx_element_emax(parse_block_format("mxfp8_e5m2").element) == 15);
    CHECK(mx_element_emax(parse_block_format("mxfp6_e3m2").element) == 4);
    CHECK(mx_element_emax(parse_block_format("mxfp6_e2m3").element) == 2);
    CHECK(mx_element_emax(parse_block_format("mxint8").element) == 0);
    // E8M0 clamping: FLT_MAX = (2 - 2^-23) 2^127 over MXINT8's max 127/64 needs 2^128: clamped to 2^127.
    CHECK(mx_shared_exponent(std::numeric_limits<float>::max(), 0, 127.0 / 64, ScaleRule::Ceil) == 127);
    // 2^-149 (the smallest float): floor(log2) - 2 = -151, clamped to -127.
    CHECK(mx_shared_exponent(std::numeric_limits<float>::denorm_min(), 2, 6.0, ScaleRule::Floor) == -127);
}

TEST_CASE("MX edge cases: all-zero block, NaN and inf blocks, E8M0 clamping of tiny blocks", "[quantize]") {
    std::vector<float> x(96, 0.0f);  // block 0 all zero
    x[32] = 1.0f;
    x[33] = not_a_number;  // block 1: NaN scale
    x[64] = -infinity;  // block 2: NaN scale
    x[65] = 2.0f;
    const BlockQuantized q = quantize_blocks(parse_block_format("mxfp8_e5m2"), x);
    REQUIRE(q.scale_codes.size() == 3);
    CHECK(q.scale_codes[0] == 0);  // zero block: the smallest scale 2^-127
    CHECK(q.scale_codes[1] == 0xFF);
    CHECK(q.scale_codes[2] == 0xFF);
    const std::vector<float> v = dequantized(q);
    for (int i = 0; i < 32; ++i) CHECK(v[i] == 0.0f);
    for (int i = 32; i < 96; ++i) CHECK(std::isnan(v[i]));

    // A block of tiny floats: floor(log2 2^-130) - 8 = -138 is clamped to -127, so the elements are
    // 2^-130 / 2^-127 = 2^-3: E4M3 holds it (exponent field -3 + 7 = 4: 0x20), E2M1 flushes it to 0.
    std::vector<float> tiny(32, std::ldexp(1.0f, -130));
    const BlockQuantized e4m3 = quantize_blocks(parse_block_format("mxfp8_e4m3"), tiny);
    CHECK(e4m3.scale_codes[0] == 0);
    CHECK(e4m3.codes[0] == 0x20);
    CHECK(dequantized(e4m3)[0] == std::ldexp(1.0f, -130));
    CHECK(dequantized(quantize_blocks(parse_block_format("mxfp4"), tiny))[0] == 0.0f);
}

TEST_CASE("MXFP8 E5M2 ties and MXINT8 fixed point by hand, a partial last block", "[quantize]") {
    // amax = 1.125: floor(log2) = 0, X = 2^-15, elements x * 2^15. 1.125 lies halfway between the
    // E5M2 neighbours 1.0 and 1.25 (two mantissa bits): rne gives 1.0, rna 1.25.
    std::vector<float> x(40, 0.0f);
    x[0] = 1.125f;
    x[35] = 3.0f;  // second, partial block (8 values): X = 2^(1-15), 3.0 exact
    const BlockQuantized rne = quantize_blocks(parse_block_format("mxfp8_e5m2"), x);
    CHECK(rne.scale_codes == std::vector<std::uint8_t>{127 - 15, 127 - 14});
    CHECK(dequantized(rne)[0] == 1.0f);
    CHECK(dequantized(rne)[35] == 3.0f);
    CHECK(dequantized(quantize_blocks(parse_block_format("mxfp8_e5m2:rna"), x))[0] == 1.25f);

    // MXINT8: emax 0, so amax in [1, 2) gives X = 1 and elements k / 64, k = round(64 x) in -127..127.
    std::vector<float> y(32, 0.0f);
    y[0] = 1.99f;  // 127.36 -> 127 (0x7F)
    y[1] = -1.999f;  // -127.94 -> -128, clamped to -127 (0x81)
    y[2] = 0.5f;  // 32 (0x20)
    y[3] = -1.0f;  // -64 (0xC0)
    y[4] = 0.01f;  // 0.64 -> 1
    const BlockQuantized q = quantize_blocks(parse_block_format("mxint8"), y);
    CHECK(q.scale_codes[0] == 127);
    CHECK(std::vector<int>(q.codes.begin(), q.codes.begin() + 5) == std::vector<int>{0x7F, 0x81, 0x20, 0xC0, 0x01});
    CHECK(dequantized(q)[1] == -127.0f / 64);
}

TEST_CASE("MX elements equal core::Rounder on the exact quotient, every format and mode", "[quantize]") {
    std::mt19937 rng(7);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_int_distribution<int> binade(-20, 20);
    for (const char* base : {"mxfp8_e4m3", "mxfp8_e5m2", "mxfp6_e2m3", "mxfp6_e3m2", "mxfp4"}) {
        for (const char* mode : {"rne", "rna", "rtz", "rup", "rdn", "rto"}) {
            for (const char* rule : {"floor", "ceil"}) {
                const BlockFormat format = parse_block_format(std::string(base) + ":" + mode + ":" + rule);
                std::vector<float> x(32 * 20);
                for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::ldexp(normal(rng), binade(rng) * (i % 7 == 0));
                const BlockQuantized q = quantize_blocks(format, x);
                const std::vector<float> v = dequantized(q);
                const floatscope::core::Rounder rounder(format.element, {format.element_rounding});
                const double max_elem = element_max_magnitude(format);
                for (std::size_t b = 0; b < 20; ++b) {
                    float amax = 0;
                    for (int i = 0; i < 32; ++i) amax = std::max(amax, std::fabs(x[b * 32 + i]));
                    // The independent scale: frexp gives amax = m 2^f with m in [0.5, 1).
                    int f = 0;
                    std::frexp(amax, &f);
                    const int emax = mx_element_emax(format.element);
                    int e = (f - 1) - emax;
                    if (format.scale_rule == ScaleRule::Ceil && amax / std::ldexp(1.0, e) > max_elem) ++e;
                    REQUIRE(q.scale_codes[b] == e + 127);
                    for (int i = 0; i < 32; ++i) {
                        const std::size_t k = b * 32 + i;
                        const double expected =
                            rounder(std::ldexp(static_cast<double>(x[k]), -e)).value * std::ldexp(1.0, e);
                        INFO(format.name << " value " << x[k]);
                        REQUIRE(v[k] == expected);
                    }
                }
            }
        }
    }
}

TEST_CASE("MXINT8 elements equal core::Rounder to int8 on the exact quotient, every mode", "[quantize]") {
    std::mt19937 rng(8);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    const floatscope::core::FormatSpec int8 = floatscope::core::parse_format("int8");
    for (const char* mode : {"rne", "rna", "rtz", "rup", "rdn", "rto"}) {
        const BlockFormat format = parse_block_format(std::string("mxint8:") + mode);
        std::vector<float> x(32 * 50);
        for (float& v : x) v = normal(rng);
        const std::vector<float> v = dequantized(quantize_blocks(format, x));
        const floatscope::core::Rounder rounder(int8, {format.element_rounding});
        for (std::size_t b = 0; b < 50; ++b) {
            float amax = 0;
            for (int i = 0; i < 32; ++i) amax = std::max(amax, std::fabs(x[b * 32 + i]));
            int f = 0;
            std::frexp(amax, &f);
            const int e = f - 1;  // emax_elem = 0; elements count in 2^(e - 6)
            for (int i = 0; i < 32; ++i) {
                const std::size_t k = b * 32 + i;
                // int8 rounding clamps to -128..127; MXINT8 clamps symmetrically to -127.
                const double level = std::max(-127.0, rounder(std::ldexp(static_cast<double>(x[k]), 6 - e)).value);
                INFO(format.name << " value " << x[k]);
                REQUIRE(v[k] == level * std::ldexp(1.0, e - 6));
            }
        }
    }
}

TEST_CASE("MXFP4 stochastic elements are unbiased", "[quantize]") {
    // Each block: 4.0 sets X = 1; 0.3 lies between 0 and 0.5 and rounds up with probability 0.6.
    std::vector<float> x(32 * 1000, 0.3f);
    for (std::size_t b = 0; b < 1000; ++b) x[b * 32] = 4.0f;
    floatscope::core::StochasticSource random(11);
    const BlockQuantized q = quantize_blocks(parse_block_format("mxfp4:sr"), x, &random);
    const std::vector<float> v = dequantized(q);
    double sum = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i % 32 == 0) continue;
        REQUIRE((v[i] == 0.0f || v[i] == 0.5f));
        sum += v[i];
    }
    // 31000 draws of 0.5 * Bernoulli(0.6): standard deviation of the mean 0.5 * sqrt(0.24 / 31000) = 0.0014.
    CHECK(sum / 31000 == Approx(0.3).margin(0.007));
    CHECK_THROWS_WITH(quantize_blocks(parse_block_format("mxfp4:sr"), x), Catch::Contains("random source"));
}

TEST_CASE("MXFP4 stochastic rounding of elements scaled below float's normal range gives zero", "[quantize]") {
    // 2^100 sets X = 2^98: +-1.2345 * 2^-30 scales to about 2^-128, where the float product the
    // quantizer works with is inexact; rounding it up has a chance under 2^-127, below the 2^-31
    // that stochastic rounding resolves, so it rounds to zero. 0.3 * 2^98 in the same blocks keeps
    // its chance of 0.6 of rounding up to 0.5 * 2^98.
    std::vector<float> x;
    for (int b = 0; b < 1000; ++b) {
        x.push_back(0x1p100f);
        for (int i = 1; i < 32; ++i)
            x.push_back(i % 3 == 0 ? 0.3f * 0x1p98f : (i % 3 == 1 ? 1.2345f : -1.2345f) * 0x1p-30f);
    }
    floatscope::core::StochasticSource random(12);
    const std::vector<float> v = dequantized(quantize_blocks(parse_block_format("mxfp4:sr"), x, &random));
    double ups = 0, draws = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i % 32 == 0) continue;
        INFO("element " << i << ": " << x[i] << " -> " << v[i]);
        if (i % 32 % 3 != 0) {
            REQUIRE(v[i] == 0.0f);
            continue;
        }
        REQUIRE((v[i] == 0.0f || v[i] == 0.5f * 0x1p98f));
        ups += v[i] != 0 ? 1 : 0;
        ++draws;
    }
    // 10000 Bernoulli(0.6) draws: standard deviation of the rate 0.0049.
    CHECK(ups / draws == Approx(0.6).margin(0.025));
}
