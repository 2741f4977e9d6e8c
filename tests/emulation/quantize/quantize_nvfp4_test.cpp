// NVFP4 in Transformer Engine's order: tensor scale, E4M3 block scales and E2M1 elements by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "emulation/quantize/block_format.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/nvfp4.hpp"

namespace {

using namespace floatscope::emu;

std::vector<float> dequantized(const BlockQuantized& q) {
    std::vector<float> out(q.size());
    dequantize_blocks(q, out);
    return out;
}

}  // namespace

TEST_CASE("NVFP4 tensor encode scale follows Transformer Engine's rules", "[quantize]") {
    CHECK(nvfp4_tensor_encode_scale(2688.0f) == 1.0f);  // 448 * 6 / 2688
    CHECK(nvfp4_tensor_encode_scale(1.0f) == 2688.0f);
    CHECK(nvfp4_tensor_encode_scale(0.0f) == 1.0f);  // amax 0
    CHECK(nvfp4_tensor_encode_scale(std::numeric_limits<float>::infinity()) == 1.0f);  // 2688 / inf = 0
    // 2688 / 2^-149 overflows: capped at FLT_MAX.
    CHECK(nvfp4_tensor_encode_scale(std::numeric_limits<float>::denorm_min()) == std::numeric_limits<float>::max());
}

TEST_CASE("NVFP4 blocks by hand", "[quantize]") {
    // Tensor amax 2688, so S_enc = 1. Block 0 (amax 2688): s = 2688 / 6 = 448 = E4M3 max
    // (1.75 * 2^8: 0 1111 110 = 0x7E); elements x / 448. Block 1 (amax 100): s = 16.67, E4M3
    // neighbours 16 and 18, so 16 (0 1011 000 = 0x58); elements x / 16: 100 -> 6.25 saturates to 6,
    // 50 -> 3.125 -> 3, 10 -> 0.625 -> 0.5, 20 -> 1.25 ties to 1 (even). Block 2 (amax 1e-4):
    // s = 1.7e-5 is below half of E4M3's smallest subnormal 2^-9: scale 0, elements flushed.
    std::vector<float> x(48, 0.0f);
    x[0] = 2688.0f;
    x[1] = -448.0f * 1.5f;
    x[2] = 448.0f * 0.5f;
    x[16] = 100.0f;
    x[17] = 50.0f;
    x[18] = -10.0f;
    x[19] = 20.0f;
    x[32] = 1e-4f;
    const BlockQuantized q = quantize_blocks(parse_block_format("nvfp4"), x);
    CHECK(q.tensor_scale == 1.0f);
    CHECK(q.scale_codes == std::vector<std::uint8_t>{0x7E, 0x58, 0x00});
    // E2M1 codes: 6 -> 7, 1.5 -> 3 (negative: 8|3), 0.5 -> 1, 3 -> 5, 1 -> 2.
    CHECK(std::vector<int>(q.codes.begin(), q.codes.begin() + 3) == std::vector<int>{7, 11, 1});
    CHECK(std::vector<int>(q.codes.begin() + 16, q.codes.begin() + 20) == std::vector<int>{7, 5, 9, 2});
    const std::vector<float> v = dequantized(q);
    CHECK(v[0] == 2688.0f);
    CHECK(v[1] == -672.0f);
    CHECK(v[2] == 224.0f);
    CHECK(std::vector<float>(v.begin() + 16, v.begin() + 20) == std::vector<float>{96.0f, 48.0f, -8.0f, 16.0f});
    CHECK(v[32] == 0.0f);
}

TEST_CASE("NVFP4 with a tensor scale other than one, zeros and NaN", "[quantize]") {
    // amax 1: S_enc = 2688; block scale (1/6) * 2688 = 448 (float rounding of 1/6 stays within half
    // an ulp of 448); element factor 2688 / 448 = 6, so 1.0 -> 6 (code 7) and -0.25 -> -1.5.
    std::vector<float> x(16, 0.0f);
    x[0] = 1.0f;
    x[1] = -0.25f;
    const BlockQuantized q = quantize_blocks(parse_block_format("nvfp4"), x);
    CHECK(q.tensor_scale == 2688.0f);
    CHECK(q.scale_codes[0] == 0x7E);
    CHECK(q.codes[0] == 7);
    CHECK(q.codes[1] == 11);
    const std::vector<float> v = dequantized(q);
    CHECK(v[0] == Approx(1.0).epsilon(1e-6));
    CHECK(v[1] == Approx(-0.25).epsilon(1e-6));

    const std::vector<float> zeros(32, 0.0f);
    const BlockQuantized z = quantize_blocks(parse_block_format("nvfp4"), zeros);
    CHECK(z.tensor_scale == 1.0f);
    for (const float value : dequantized(z)) CHECK(value == 0.0f);

    std::vector<float> with_nan(32, 1.0f);
    with_nan[20] = std::numeric_limits<float>::quiet_NaN();
    const BlockQuantized n = quantize_blocks(parse_block_format("nvfp4"), with_nan);
    CHECK(n.scale_codes[1] == 0x7F);  // E4M3 NaN
    const std::vector<float> nv = dequantized(n);
    CHECK(nv[0] == Approx(1.0).epsilon(1e-6));
    CHECK(std::isnan(nv[16]));
    CHECK(std::isnan(nv[31]));
}
