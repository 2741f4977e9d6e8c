// Recipe variants by hand: MX scale rules, NVFP4 as TE and torchao compute it, 16x16 tiles, the
// random Hadamard transform, DeepSeek-V3's FP8 blockwise scales; every expected number from the
// sources' formulas.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "emulation/quantize/block_format.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/fp8_blockwise.hpp"
#include "emulation/quantize/hadamard.hpp"
#include "emulation/quantize/mx.hpp"
#include "emulation/quantize/packing.hpp"
#include "emulation/quantize/quantization_scheme.hpp"

namespace {

using namespace floatscope::emu;

std::vector<float> fake(const std::string& scheme, const std::vector<float>& x, std::size_t rows, std::size_t cols) {
    std::vector<float> out(x.size());
    fake_quantize(parse_quantization_scheme(scheme), x, rows, cols, out);
    return out;
}

int exponent(float amax, ScaleRule rule, int emax, double max, int mantissa_bits) {
    return mx_shared_exponent(amax, emax, max, rule, mantissa_bits);
}

}  // namespace

TEST_CASE("MX scale rules differ just below and above a binade", "[quantize][recipes]") {
    // MXFP8 E4M3: emax 8, max 448 = 1.75 * 2^8, 3 mantissa bits (EVEN adds 2^-4 to amax's mantissa).
    const auto e4m3 = [](float amax, ScaleRule rule) { return exponent(amax, rule, 8, 448, 3); };
    // 300 = 1.171875 * 2^8: floor 8-8; 300/448 < 1 so ceil 0; ceil(log2 300) = 9 so CEIL 1; 1.234 stays in 2^8.
    CHECK(e4m3(300, ScaleRule::Floor) == 0);
    CHECK(e4m3(300, ScaleRule::Ceil) == 0);
    CHECK(e4m3(300, ScaleRule::CeilAmax) == 1);
    CHECK(e4m3(300, ScaleRule::Even) == 0);
    // 480 = 1.875 * 2^8 > 448: floor keeps 0 (480 clips to 448), ceil 1; 1.875 + 0.0625 < 2: EVEN 0.
    CHECK(e4m3(480, ScaleRule::Floor) == 0);
    CHECK(e4m3(480, ScaleRule::Ceil) == 1);
    CHECK(e4m3(480, ScaleRule::Even) == 0);
    // 500 = 1.953125 * 2^8: + 0.0625 reaches 2: EVEN moves to 1 as well.
    CHECK(e4m3(500, ScaleRule::Even) == 1);
    // A power of two: every rule agrees, ceil(log2 256) = 8.
    for (const ScaleRule rule : {ScaleRule::Floor, ScaleRule::Ceil, ScaleRule::CeilAmax, ScaleRule::Even})
        CHECK(e4m3(256, rule) == 0);

    // MXFP4 E2M1: emax 2, max 6 = 1.5 * 2^2, 1 mantissa bit (EVEN adds 0.25).
    const auto e2m1 = [](float amax, ScaleRule rule) { return exponent(amax, rule, 2, 6, 1); };
    CHECK(e2m1(5, ScaleRule::Floor) == 0);  // 1.25 * 2^2
    CHECK(e2m1(5, ScaleRule::Ceil) == 0);  // 5 <= 6
    CHECK(e2m1(5, ScaleRule::CeilAmax) == 1);  // ceil(log2 5) = 3
    CHECK(e2m1(5, ScaleRule::Even) == 0);  // 1.25 + 0.25 = 1.5
    CHECK(e2m1(6.5f, ScaleRule::Ceil) == 1);  // 6.5 / 2 = 3.25 <= 6
    CHECK(e2m1(6.5f, ScaleRule::Even) == 0);  // 1.625 + 0.25 < 2: 6.5 clips to 6
    CHECK(e2m1(7, ScaleRule::Even) == 1);  // 1.75 + 0.25 = 2
    CHECK(e2m1(7, ScaleRule::Floor) == 0);

    // Range ends: FLT_MAX = (2 - 2^-23) 2^127: floor 125, the others one more; all below E8M0's 127.
    const float big = std::numeric_limits<float>::max();
    CHECK(e2m1(big, ScaleRule::Floor) == 125);
    CHECK(e2m1(big, ScaleRule::Ceil) == 126);
    CHECK(e2m1(big, ScaleRule::CeilAmax) == 126);
    CHECK(e2m1(big, ScaleRule::Even) == 126);  // the carry makes the exponent field 255: 255 - 127 - 2
    // Saturation at the low end: 2^-149 / 2^2 is below 2^-127 for every rule.
    for (const ScaleRule rule : {ScaleRule::Floor, ScaleRule::Ceil, ScaleRule::CeilAmax, ScaleRule::Even})
        CHECK(e2m1(std::numeric_limits<float>::denorm_min(), rule) == -127);
}

TEST_CASE("MX scale rules through the parser and a quantized block", "[quantize][recipes]") {
    CHECK(parse_block_format("mxfp8_e4m3:rceil").scale_rule == ScaleRule::Ceil);
    CHECK(parse_block_format("mxfp4:ceil_amax").scale_rule == ScaleRule::CeilAmax);
    CHECK(parse_block_format("mxfp4:even").scale_rule == ScaleRule::Even);
    CHECK_THROWS_WITH(parse_block_format("mxfp4:nearest"), Catch::Contains("ceil_amax") && Catch::Contains("even"));
    // Block {7, 1, 0...}: floor keeps X = 1, 7 clamps to 6; EVEN (1.75 + 0.25 = 2) takes X = 2:
    // 7 / 2 = 3.5 ties between 3 and 4 to 4 (even mantissa), so 8; 1 / 2 = 0.5 stays, so 1.
    std::vector<float> x(32, 0.0f);
    x[0] = 7;
    x[1] = 1;
    CHECK(fake("mxfp4", x, 1, 32)[0] == 6.0f);
    const std::vector<float> even = fake("mxfp4:even", x, 1, 32);
    CHECK(even[0] == 8.0f);
    CHECK(even[1] == 1.0f);
}

TEST_CASE("NVFP4 as Transformer Engine and as torchao compute it", "[quantize][recipes]") {
    // Tensor amax 2688: TE's S_enc = 448 * 6 / 2688 = 1 and torchao's per-tensor scale 2688 / 2688 = 1.
    // Block 1 has amax 0.03: 0.03 / 6 = 0.005.
    // TE: E4M3(0.005): subnormal steps of 2^-9, 0.005 / 2^-9 = 2.56 -> 3 * 2^-9 = 0.005859375 (code 0x03);
    //   0.03 / 0.005859375 = 5.12 -> 6, 0.01 / 0.005859375 = 1.71 -> 1.5: 0.03515625, 0.0087890625.
    // torchao: 0.005 is clamped to 2^-6 = 0.015625 (code 0x08); 0.03 / 2^-6 = 1.92 -> 2,
    //   0.01 / 2^-6 = 0.64 -> 0.5: 0.03125, 0.0078125.
    std::vector<float> x(32, 0.0f);
    x[0] = 2688;
    x[16] = 0.03f;
    x[17] = 0.01f;
    const BlockQuantized te = quantize_blocks(parse_block_format("nvfp4:te"), x);
    const BlockQuantized torchao = quantize_blocks(parse_block_format("nvfp4:torchao"), x);
    CHECK(te.scale_codes == std::vector<std::uint8_t>{0x7E, 0x03});
    CHECK(torchao.scale_codes == std::vector<std::uint8_t>{0x7E, 0x08});
    std::vector<float> v(32);
    dequantize_blocks(te, v);
    CHECK(v[0] == 2688.0f);
    CHECK(v[16] == 0.03515625f);
    CHECK(v[17] == 0.0087890625f);
    dequantize_blocks(torchao, v);
    CHECK(v[0] == 2688.0f);
    CHECK(v[16] == 0.03125f);
    CHECK(v[17] == 0.0078125f);
    // What each stores per tensor: TE the encode scale 2688 / amax, torchao the decode scale amax / 2688.
    const std::vector<float> one = {1.0f, 0.5f};
    CHECK(quantize_blocks(parse_block_format("nvfp4"), one).tensor_scale == 2688.0f);
    CHECK(quantize_blocks(parse_block_format("nvfp4:torchao"), one).tensor_scale == 1.0f / 2688.0f);
    CHECK(parse_block_format("nvfp4").nvfp4_recipe == Nvfp4Recipe::TransformerEngine);
    CHECK_THROWS_WITH(parse_block_format("nvfp4:cublas"), Catch::Contains("te, torchao, 2d, rht, rne, sr"));
}

TEST_CASE("NVFP4 16x16 tiles: one scale per tile of a 32 x 32 matrix", "[quantize][recipes]") {
    // Tile amaxes 2688, 96, 12, 3 (tensor amax 2688, S_enc = 1): E4M3 scales 448, 16, 2, 0.5.
    std::vector<float> x(32 * 32, 0.0f);
    const auto at = [&](std::size_t r, std::size_t c) -> float& { return x[r * 32 + c]; };
    at(0, 0) = 2688;
    at(5, 3) = 224;  // 224 / 448 = 0.5
    at(0, 16) = 96;  // 96 / 16 = 6
    at(16, 0) = 12;  // tile (1, 0): 12 / 2 = 6
    at(17, 1) = 5;  // 5 / 2 = 2.5 ties to 2 (even mantissa): 4
    at(31, 31) = 3;  // 3 / 0.5 = 6
    const std::vector<float> tiles = fake("nvfp4:2d", x, 32, 32);
    CHECK(tiles[0] == 2688.0f);
    CHECK(tiles[5 * 32 + 3] == 224.0f);
    CHECK(tiles[16] == 96.0f);
    CHECK(tiles[16 * 32] == 12.0f);
    CHECK(tiles[17 * 32 + 1] == 4.0f);
    CHECK(tiles[31 * 32 + 31] == 3.0f);
    // In 1x16 blocks row 17's first block holds 5 alone: E4M3(5/6 = 0.833) = 0.8125, 5 / 0.8125 =
    // 6.15 -> 6, so 4.875.
    CHECK(fake("nvfp4", x, 32, 32)[17 * 32 + 1] == 4.875f);
    // Storage: 1024 codes of 4 bits, 4 tile scales of 8 bits, the FP32 tensor scale; 1-D: 64 scales.
    const QuantizationScheme tiled = parse_quantization_scheme("nvfp4:2d");
    CHECK(scheme_storage_bits(tiled, 32, 32) == 4096 + 4 * 8 + 32);
    CHECK(scheme_storage_bits(parse_quantization_scheme("nvfp4"), 32, 32) == 4096 + 64 * 8 + 32);
    CHECK(bits_per_value(tiled.block) == 4.03125);  // 4 + 8 / 256
    // A 17 x 17 matrix has 2 x 2 tiles, three of them partial.
    CHECK(scheme_storage_bits(tiled, 17, 17) == 289 * 4 + 4 * 8 + 32);
}

TEST_CASE("NVFP4 with the random Hadamard transform", "[quantize][recipes]") {
    // H D e_0 = d_0 * (first column of H_16 / 4) = (1/4, ..., 1/4) as d_0 = 1.
    std::vector<float> e0(16, 0.0f);
    e0[0] = 1;
    random_hadamard_transform(e0, false);
    for (const float v : e0) CHECK(v == 0.25f);
    // e_1: column 1 of H_16 alternates +1/4, -1/4 and d_1 = -1.
    std::vector<float> e1(16, 0.0f);
    e1[1] = 1;
    random_hadamard_transform(e1, false);
    for (std::size_t i = 0; i < 16; ++i) CHECK(e1[i] == (i % 2 == 0 ? -0.25f : 0.25f));
    // A round trip of arbitrary values returns them up to the transform's float rounding.
    std::vector<float> x = {3.5f, -1.25f, 0.1f, 7, -0.3f, 2, 0, 1e-3f, -5, 4.75f, 0.6f, -2.2f, 1, 9, -0.01f, 0.5f, 42};
    std::vector<float> y = x;
    random_hadamard_transform(y, false);
    random_hadamard_transform(y, true);
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(y[i] == Approx(x[i]).margin(9 * 4e-7));
    CHECK(y[16] == 42.0f);  // the partial last run is left alone

    // 16 e_0 becomes sixteen 4s: tensor amax 4, S_enc = 2688 / 4 = 672, s = 4/6 * 672 = 448, every
    // element 6: exact, so the round trip gives 16 e_0 back; plain NVFP4 is exact on it as well.
    std::vector<float> spike(16, 0.0f);
    spike[0] = 16;
    CHECK(fake("nvfp4:rht", spike, 1, 16) == spike);
    // An outlier with small neighbours: without the transform the neighbours flush (s = E4M3(16/6)
    // = 2.75, 0.1 / 2.75 < 0.25), with it they are spread over the block and partly survive.
    std::vector<float> outlier(16, 0.1f);
    outlier[0] = 16;
    const std::vector<float> plain = fake("nvfp4", outlier, 1, 16);
    const std::vector<float> rht = fake("nvfp4:rht", outlier, 1, 16);
    CHECK(plain[1] == 0.0f);
    CHECK(rht != plain);
    CHECK(bits_per_value(parse_block_format("nvfp4:rht")) == 4.5);  // the signs are fixed: nothing stored
}

TEST_CASE("DeepSeek-V3 FP8 blockwise scales", "[quantize][recipes]") {
    // s = max(amax, 1e-4) * fl(1/448): 448 * fl(1/448) rounds to 1; with ue8m0 the power of two at or above.
    CHECK(fp8_blockwise_scale(448, false) == 1.0f);
    CHECK(fp8_blockwise_scale(448, true) == 1.0f);
    CHECK(fp8_blockwise_scale(100, true) == 0.25f);  // 100/448 = 0.223 -> 2^-2
    CHECK(fp8_blockwise_scale(1, true) == 0x1p-8f);  // 0.00223 -> 2^-8
    CHECK(fp8_blockwise_scale(0, true) == 0x1p-22f);  // 1e-4 / 448 = 2.2e-7 -> 2^-22
    CHECK(fp8_blockwise_scale(0, false) == 1e-4f * (1.0f / 448.0f));

    // 2 x 256, 1x128 tiles with UE8M0 scales: row 0 tiles amax 100 and 1, row 1 amax 448.
    // 100 / 0.25 = 400 ties between 384 and 416 to 384 (even): 96; 1 / 2^-8 = 256: exact; 448 / 1: exact.
    std::vector<float> x(512, 0.0f);
    x[0] = 100;
    x[128] = 1;
    x[256] = 448;
    const std::vector<float> ue8m0 = fake("fp8_blockwise:ue8m0", x, 2, 256);
    CHECK(ue8m0[0] == 96.0f);
    CHECK(ue8m0[128] == 1.0f);
    CHECK(ue8m0[256] == 448.0f);
    // FP32 scales: 100 / (100 fl(1/448)) rounds to 448 (within 448's half-ulp), so 100 comes back to
    // within the scale's float rounding.
    CHECK(fake("fp8_blockwise", x, 2, 256)[0] == Approx(100).epsilon(1e-6));

    // 128 x 128 block with 100 and 1.7e-3: one scale 0.25, 1.7e-3 / 0.25 = 0.0068 = 3.48 * 2^-9 ->
    // 3 * 2^-9, so 3 * 2^-11. In 1x128 tiles its row alone: s = 2^-18 (1.7e-3/448 = 3.79e-6 <= 3.81e-6),
    // 1.7e-3 * 2^18 = 445.6 -> 448, so 448 * 2^-18.
    std::vector<float> w(128 * 128, 0.0f);
    w[0] = 100;
    w[5 * 128 + 7] = 1.7e-3f;
    CHECK(fake("fp8_blockwise:128x128:ue8m0", w, 128, 128)[5 * 128 + 7] == 3 * 0x1p-11f);
    CHECK(fake("fp8_blockwise:1x128:ue8m0", w, 128, 128)[5 * 128 + 7] == 448 * 0x1p-18f);

    // Storage: codes of 8 bits, one FP32 (or E8M0) scale per tile.
    CHECK(scheme_storage_bits(parse_quantization_scheme("fp8_blockwise"), 2, 256) == 512 * 8 + 4 * 32);
    CHECK(scheme_storage_bits(parse_quantization_scheme("fp8_blockwise:128x128"), 130, 130) == 16900 * 8 + 4 * 32);
    CHECK(bits_per_value(parse_block_format("fp8_blockwise")) == 8.25);
    CHECK(bits_per_value(parse_block_format("fp8_blockwise:ue8m0")) == 8.0625);
    CHECK(bits_per_value(parse_block_format("fp8_blockwise:128x128")) == 8 + 32.0 / 16384);
    CHECK_THROWS_WITH(parse_block_format("fp8_blockwise:64x64"), Catch::Contains("1x128, 128x128, ue8m0"));
}

TEST_CASE("Recipe variants combine and list in scheme lists", "[quantize][recipes]") {
    const std::vector<QuantizationScheme> schemes =
        parse_scheme_list("mxfp4:even:rna,nvfp4:2d:rht:sr,fp8_blockwise:128x128:ue8m0,nvfp4:torchao");
    REQUIRE(schemes.size() == 4);
    CHECK(schemes[0].block.scale_rule == ScaleRule::Even);
    CHECK(schemes[1].block.tile_rows == 16);
    CHECK(schemes[1].block.hadamard);
    CHECK(schemes[2].block.tile_rows == 128);
    CHECK(schemes[2].code_bits() == 8);
    CHECK(schemes[3].block.nvfp4_recipe == Nvfp4Recipe::Torchao);
    // Modifiers of one family are refused on another, with the valid ones named.
    CHECK_THROWS_WITH(parse_block_format("mxfp4:torchao"), Catch::Contains("ceil_amax"));
    CHECK_THROWS_WITH(parse_block_format("nf4:2d"), Catch::Contains("block=N, dq"));
    // torchao on an all-zero tensor: its division by a zero per-tensor scale would give NaN; zeros stay zeros.
    for (const float v : fake("nvfp4:torchao", std::vector<float>(16, 0.0f), 1, 16)) CHECK(v == 0.0f);
}
