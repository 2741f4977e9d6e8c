// Decoding of ggml's blocks, after ggml/src/ggml-quants.c (dequantize_row_q8_0, _q4_0, _q4_1,
// _q5_0, _q5_1, _mxfp4) and the block structs of ggml/src/ggml-common.h; written from those layouts.
#include "emulation/weights/ggml_blocks.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace floatscope::emu {

namespace {

std::uint16_t u16(const std::byte* p) {
    return static_cast<std::uint16_t>(std::to_integer<unsigned>(p[0]) | (std::to_integer<unsigned>(p[1]) << 8));
}

std::uint32_t u32(const std::byte* p) { return std::uint32_t{u16(p)} | (std::uint32_t{u16(p + 2)} << 16); }

/// IEEE binary16 to double, exactly.
double half_value(std::uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    double magnitude = 0;
    if (exponent == 0x1F)
        magnitude = mantissa == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    else if (exponent == 0)
        magnitude = std::ldexp(mantissa, -24);
    else
        magnitude = std::ldexp(mantissa | 0x400, exponent - 25);
    return (bits & 0x8000) != 0 ? -magnitude : magnitude;
}

/// FP4 E2M1 (OCP MX v1.0): sign, 2 exponent bits (bias 1), 1 mantissa bit; 0 0.5 1 1.5 2 3 4 6.
double e2m1_value(unsigned code) {
    static constexpr double magnitudes[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
    return (code & 8) != 0 ? -magnitudes[code & 7] : magnitudes[code & 7];
}

unsigned low(std::byte b) { return std::to_integer<unsigned>(b) & 0xF; }
unsigned high(std::byte b) { return std::to_integer<unsigned>(b) >> 4; }

/// The 32 codes of a 4-bit block (qs[16]): the low nibbles are values 0..15, the high nibbles 16..31;
/// with `qh`, bit j of qh is the 5th bit of value j.
void nibble_codes(const std::byte* qs, std::uint32_t qh, unsigned codes[32]) {
    for (std::size_t j = 0; j < 16; ++j) {
        codes[j] = low(qs[j]) | (((qh >> j) & 1U) << 4);
        codes[j + 16] = high(qs[j]) | (((qh >> (j + 16)) & 1U) << 4);
    }
}

}  // namespace

std::size_t ggml_block_bytes(GgmlBlock block) {
    switch (block) {
        case GgmlBlock::Q8_0: return 2 + 32;
        case GgmlBlock::Q4_0: return 2 + 16;
        case GgmlBlock::Q4_1: return 2 + 2 + 16;
        case GgmlBlock::Q5_0: return 2 + 4 + 16;
        case GgmlBlock::Q5_1: return 2 + 2 + 4 + 16;
        case GgmlBlock::MXFP4: return 1 + 16;
    }
    return 0;
}

const char* ggml_block_name(GgmlBlock block) {
    switch (block) {
        case GgmlBlock::Q8_0: return "Q8_0";
        case GgmlBlock::Q4_0: return "Q4_0";
        case GgmlBlock::Q4_1: return "Q4_1";
        case GgmlBlock::Q5_0: return "Q5_0";
        case GgmlBlock::Q5_1: return "Q5_1";
        case GgmlBlock::MXFP4: return "MXFP4";
    }
    return "?";
}

std::optional<GgmlBlock> ggml_block_of_type(std::uint32_t ggml_type) {
    switch (ggml_type) {
        case 2: return GgmlBlock::Q4_0;
        case 3: return GgmlBlock::Q4_1;
        case 6: return GgmlBlock::Q5_0;
        case 7: return GgmlBlock::Q5_1;
        case 8: return GgmlBlock::Q8_0;
        case 39: return GgmlBlock::MXFP4;
        default: return std::nullopt;
    }
}

void decode_ggml_block(GgmlBlock block, const std::byte* data, std::span<double, ggml_block_values> out) {
    unsigned codes[32];
    switch (block) {
        case GgmlBlock::Q8_0: {
            const double d = half_value(u16(data));
            for (std::size_t j = 0; j < 32; ++j) {
                const auto q = static_cast<std::int8_t>(std::to_integer<std::uint8_t>(data[2 + j]));
                out[j] = d * q;
            }
            return;
        }
        case GgmlBlock::Q4_0:
        case GgmlBlock::Q5_0: {
            const double d = half_value(u16(data));
            const bool five = block == GgmlBlock::Q5_0;
            nibble_codes(data + (five ? 6 : 2), five ? u32(data + 2) : 0, codes);
            const int offset = five ? 16 : 8;
            for (std::size_t j = 0; j < 32; ++j) out[j] = d * (static_cast<int>(codes[j]) - offset);
            return;
        }
        case GgmlBlock::Q4_1:
        case GgmlBlock::Q5_1: {
            const double d = half_value(u16(data));
            const double m = half_value(u16(data + 2));
            const bool five = block == GgmlBlock::Q5_1;
            nibble_codes(data + (five ? 8 : 4), five ? u32(data + 4) : 0, codes);
            for (std::size_t j = 0; j < 32; ++j) out[j] = d * codes[j] + m;  // exact in double: no fma needed
            return;
        }
        case GgmlBlock::MXFP4: {
            const unsigned e = std::to_integer<unsigned>(data[0]);
            const double scale =
                e == 0xFF ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, static_cast<int>(e) - 127);
            nibble_codes(data + 1, 0, codes);
            for (std::size_t j = 0; j < 32; ++j) out[j] = e2m1_value(codes[j]) * scale;
            return;
        }
    }
}

}  // namespace floatscope::emu
