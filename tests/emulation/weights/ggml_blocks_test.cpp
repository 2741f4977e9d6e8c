// ggml's blocks decoded on blocks worked by hand from the layouts of ggml-common.h and the
// dequantize_row_* formulas of ggml-quants.c.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include "emulation/weights/ggml_blocks.hpp"

namespace {

using namespace floatscope::emu;

std::array<double, 32> decode(GgmlBlock type, const std::vector<unsigned>& bytes) {
    REQUIRE(bytes.size() == ggml_block_bytes(type));
    std::vector<std::byte> raw;
    for (unsigned b : bytes) raw.push_back(static_cast<std::byte>(b));
    std::array<double, 32> out{};
    decode_ggml_block(type, raw.data(), out);
    return out;
}

/// qs[16] with every byte `b`.
std::vector<unsigned> with_qs(std::vector<unsigned> head, unsigned b) {
    head.insert(head.end(), 16, b);
    return head;
}

}  // namespace

TEST_CASE("ggml blocks: sizes and type numbers", "[weights]") {
    CHECK(ggml_block_bytes(GgmlBlock::Q8_0) == 34);
    CHECK(ggml_block_bytes(GgmlBlock::Q4_0) == 18);
    CHECK(ggml_block_bytes(GgmlBlock::Q4_1) == 20);
    CHECK(ggml_block_bytes(GgmlBlock::Q5_0) == 22);
    CHECK(ggml_block_bytes(GgmlBlock::Q5_1) == 24);
    CHECK(ggml_block_bytes(GgmlBlock::MXFP4) == 17);
    CHECK(ggml_block_of_type(2) == GgmlBlock::Q4_0);
    CHECK(ggml_block_of_type(39) == GgmlBlock::MXFP4);
    CHECK_FALSE(ggml_block_of_type(12).has_value());  // Q4_K: not decoded
}

TEST_CASE("Q8_0: d times the signed bytes", "[weights]") {
    // d = 0x3800 = 0.5; qs = 0, 1, -1 (0xFF), 127, -128 (0x80), then 2s.
    std::vector<unsigned> bytes = {0x00, 0x38, 0x00, 0x01, 0xFF, 0x7F, 0x80};
    bytes.insert(bytes.end(), 27, 0x02);
    const auto x = decode(GgmlBlock::Q8_0, bytes);
    CHECK(x[0] == 0);
    CHECK(x[1] == 0.5);
    CHECK(x[2] == -0.5);
    CHECK(x[3] == 63.5);
    CHECK(x[4] == -64);
    CHECK(x[31] == 1);
}

TEST_CASE("Q4_0: low nibbles are the first 16 values, high nibbles the last 16, minus 8", "[weights]") {
    // d = 0x4000 = 2; every qs byte 0xC3: low nibble 3 -> (3 - 8) * 2 = -10, high nibble 12 -> 8.
    const auto x = decode(GgmlBlock::Q4_0, with_qs({0x00, 0x40}, 0xC3));
    for (int j = 0; j < 16; ++j) CHECK(x[j] == -10);
    for (int j = 16; j < 32; ++j) CHECK(x[j] == 8);
}

TEST_CASE("Q4_1: d times the nibble plus m", "[weights]") {
    // d = 0x3400 = 0.25, m = 0xBC00 = -1; qs 0xF0: low 0 -> -1, high 15 -> 2.75.
    const auto x = decode(GgmlBlock::Q4_1, with_qs({0x00, 0x34, 0x00, 0xBC}, 0xF0));
    CHECK(x[0] == -1);
    CHECK(x[15] == -1);
    CHECK(x[16] == 2.75);
    CHECK(x[31] == 2.75);
}

TEST_CASE("Q5_0: bit j of qh is value j's fifth bit (bit j + 16 value j + 16's), minus 16", "[weights]") {
    // d = 1 (0x3C00); qh = 0x00010001: values 0 and 16 get the fifth bit; qs 0x21: low 1, high 2.
    const auto x = decode(GgmlBlock::Q5_0, with_qs({0x00, 0x3C, 0x01, 0x00, 0x01, 0x00}, 0x21));
    CHECK(x[0] == 17 - 16);
    CHECK(x[1] == 1 - 16);
    CHECK(x[16] == 18 - 16);
    CHECK(x[17] == 2 - 16);
}

TEST_CASE("Q5_1: the five-bit codes times d plus m", "[weights]") {
    // d = 0.5 (0x3800), m = 0.125 (0x3000); qh = 0x80000000: value 31 has the fifth bit; qs 0xFF.
    const auto x = decode(GgmlBlock::Q5_1, with_qs({0x00, 0x38, 0x00, 0x30, 0x00, 0x00, 0x00, 0x80}, 0xFF));
    CHECK(x[0] == 15 * 0.5 + 0.125);
    CHECK(x[30] == 15 * 0.5 + 0.125);
    CHECK(x[31] == 31 * 0.5 + 0.125);
}

TEST_CASE("Q4_1: d q + m exactly, where ggml's float arithmetic would round", "[weights]") {
    // d = 0x7BFF = 65504, m = 0x0001 = 2^-24: d * 15 + 2^-24 needs 45 bits.
    const auto x = decode(GgmlBlock::Q4_1, with_qs({0xFF, 0x7B, 0x01, 0x00}, 0x0F));
    CHECK(x[0] == 65504.0 * 15 + 0x1p-24);
    CHECK(static_cast<float>(x[0]) != x[0]);
}

TEST_CASE("MXFP4: E2M1 nibbles times 2^(e - 127), a scale of 0xFF NaN", "[weights]") {
    // e = 128: scale 2; qs 0x9F: low 0xF = -6 -> -12, high 0x9 = -0.5 -> -1.
    const auto x = decode(GgmlBlock::MXFP4, with_qs({128}, 0x9F));
    CHECK(x[0] == -12);
    CHECK(x[16] == -1);
    // e = 0: 2^-127 (ggml: GGML_E8M0_TO_FP32_HALF(0) * 2); qs 0x61: low 1 = 0.5, high 6 = 4.
    const auto tiny = decode(GgmlBlock::MXFP4, with_qs({0}, 0x61));
    CHECK(tiny[0] == 0x1p-128);
    CHECK(tiny[16] == 0x1p-125);
    CHECK(std::isnan(decode(GgmlBlock::MXFP4, with_qs({0xFF}, 0x11))[0]));
}
