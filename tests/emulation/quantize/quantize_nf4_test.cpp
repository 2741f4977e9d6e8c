// bitsandbytes blockwise absmax: NF4 codes as published, bitsandbytes' FP4 table, nearest codes
// with ties to the lower code (core::Rounder on the catalog's nf4 as the slow twin), double
// quantization.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/catalog.hpp"
#include "core/rounding.hpp"
#include "emulation/quantize/block_format.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/nf4.hpp"
#include "emulation/quantize/packing.hpp"
#include "tests/core/published_nf4.hpp"

namespace {

using namespace floatscope::emu;

std::vector<float> dequantized(const BlockQuantized& q) {
    std::vector<float> out(q.size());
    dequantize_blocks(q, out);
    return out;
}

}  // namespace

TEST_CASE("NF4 code values are the published ones to the last digit", "[quantize]") {
    const auto& published = floatscope::test::published_nf4;  // QLoRA appendix E, bitsandbytes
    for (int c = 0; c < 16; ++c) CHECK(static_cast<double>(nf4_code_values()[c]) == published[c]);
}

TEST_CASE("bitsandbytes FP4 is its own table, not OCP E2M1", "[quantize]") {
    // csrc/kernels.cu dDequantizeFP4Tree: codes 0..7 -> 0, 5.208333333e-03, 0.66666667, 1,
    // 0.33333333, 0.5, 0.16666667, 0.25 (float literals); bit 3 is the sign.
    const float by_code[8] = {0.0f, 5.208333333e-03f, 0.66666667f, 1.0f, 0.33333333f, 0.5f, 0.16666667f, 0.25f};
    for (int c = 0; c < 8; ++c) {
        CHECK(bnb_fp4_code_values()[c] == by_code[c]);
        CHECK(bnb_fp4_code_values()[c + 8] == -by_code[c]);
    }
    // Block absmax 12: 12 -> 1 (code 3); -6 -> -0.5 (8|5); 1 -> 0.0833, below the midpoint
    // 0.0859375 of 0.0052 and 0.1667 (code 1); 9 -> 0.75, below the midpoint 0.8333 (code 2).
    std::vector<float> x(64, 0.0f);
    x[0] = 12.0f;
    x[1] = -6.0f;
    x[2] = 1.0f;
    x[3] = 9.0f;
    const BlockQuantized q = quantize_blocks(parse_block_format("bnb_fp4"), x);
    CHECK(q.block_scales[0] == 12.0f);
    CHECK(std::vector<int>(q.codes.begin(), q.codes.begin() + 4) == std::vector<int>{3, 13, 1, 2});
    const std::vector<float> v = dequantized(q);
    CHECK(v[0] == 12.0f);
    CHECK(v[1] == -6.0f);
    CHECK(v[3] == 0.66666667f * 12.0f);
}

TEST_CASE("NF4 block by hand, ties to the lower code", "[quantize]") {
    // absmax 2: y = x / 2. 2 -> 1 (code 15), -2 -> -1 (code 0), 0 -> code 7, 0.5 -> 0.25 between
    // 0.2461 (code 10) and 0.3379: code 10. Then absmax 1 blocks with exact midpoints:
    // c8 / 2 is halfway between 0 (code 7) and c8: code 7; c6 / 2 halfway between c6 and 0: code 6.
    std::vector<float> x(128, 0.0f);
    x[0] = 2.0f;
    x[1] = -2.0f;
    x[2] = 0.5f;
    x[64] = 1.0f;
    x[65] = nf4_code_values()[8] / 2;
    x[66] = nf4_code_values()[6] / 2;
    const BlockQuantized q = quantize_blocks(parse_block_format("nf4"), x);
    CHECK(std::vector<int>(q.codes.begin(), q.codes.begin() + 4) == std::vector<int>{15, 0, 10, 7});
    CHECK(q.codes[65] == 7);
    CHECK(q.codes[66] == 6);
    CHECK(dequantized(q)[2] == nf4_code_values()[10] * 2.0f);
}

TEST_CASE("NF4 nearest codes agree with core::Rounder on the catalog's nf4", "[quantize]") {
    const floatscope::core::Rounder rounder(floatscope::core::parse_format("nf4"), {});
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> uniform(-1.2f, 1.2f);
    std::vector<float> probes;
    for (int i = 0; i < 200000; ++i) probes.push_back(uniform(rng));
    // Every midpoint and its float neighbours, where ties and near-ties decide.
    for (int c = 0; c < 15; ++c) {
        const double middle = (static_cast<double>(nf4_code_values()[c]) + nf4_code_values()[c + 1]) / 2;
        float f = static_cast<float>(middle);
        for (int k = 0; k < 3; ++k) f = std::nextafter(f, -2.0f);
        for (int k = 0; k < 7; ++k, f = std::nextafter(f, 2.0f)) probes.push_back(f);
    }
    for (const float y : probes) {
        INFO(y);
        REQUIRE(nf4_code(y) == rounder(static_cast<double>(y)).bits);
    }
}

TEST_CASE("NF4 edge cases: all-zero block, NaN, inf", "[quantize]") {
    std::vector<float> x(192, 0.0f);
    x[64] = std::numeric_limits<float>::quiet_NaN();
    x[65] = 1.0f;
    x[128] = std::numeric_limits<float>::infinity();
    x[129] = 1.0f;
    const BlockQuantized q = quantize_blocks(parse_block_format("nf4"), x);
    const std::vector<float> v = dequantized(q);
    CHECK(q.codes[0] == 7);
    CHECK(v[0] == 0.0f);
    CHECK(std::isnan(v[65]));
    // absmax inf: y = x * (1/inf) = 0 for finite x, so 1.0 gets the zero code and decodes as
    // 0 * inf = NaN: bitsandbytes' arithmetic, reproduced.
    CHECK(std::isnan(v[129]));
}

TEST_CASE("NF4 double quantization of the absmax values", "[quantize]") {
    // The dynamic map: 256 ascending values, 0 and 1 included; the smallest positive is
    // 10^-6 * (0.1 + 1) / 2 = 5.5e-7, the largest below 1 is (0.9859375 + 1) / 2 = 0.99296875.
    const auto& map = bnb_dynamic_map_values();
    for (std::size_t k = 1; k < 256; ++k) REQUIRE(map[k - 1] < map[k]);
    CHECK(map[255] == 1.0f);
    CHECK(map[254] == 0.99296875f);
    CHECK(map[0] == -0.99296875f);
    CHECK(map[127] == 0.0f);  // 127 negative values below it
    CHECK(map[128] == static_cast<float>(5.5e-7));

    // Equal absmax values: the mean is each of them and the residuals are 0, so dequantized
    // absmax values are exact and the tensor decodes as without double quantization.
    std::mt19937 rng(5);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(64 * 300);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = i % 64 == 0 ? 4.0f : std::clamp(normal(rng), -3.9f, 3.9f);
    const BlockQuantized plain = quantize_blocks(parse_block_format("nf4"), x);
    const BlockQuantized dq = quantize_blocks(parse_block_format("nf4:dq"), x);
    CHECK(dq.scale_codes.size() == 300);
    CHECK(dq.second_level_scales.size() == 2);  // ceil(300 / 256)
    CHECK(dq.tensor_scale == 4.0f);
    CHECK(dequantized(dq) == dequantized(plain));

    // Varied absmax values: each decodes within the map's resolution of the original.
    for (std::size_t i = 0; i < x.size(); i += 64) x[i] = 1.0f + static_cast<float>(i % 640) / 640;
    const BlockQuantized varied = quantize_blocks(parse_block_format("nf4:dq"), x);
    const BlockQuantized exact = quantize_blocks(parse_block_format("nf4"), x);
    for (std::size_t b = 0; b < varied.block_count(); ++b)
        CHECK(varied.block_scales[b] == Approx(exact.block_scales[b]).epsilon(0.02));
    CHECK(bits_per_value(parse_block_format("nf4:dq")) == Approx(4.127).margin(5e-4));
}
