// Bit-stream packing of codes through a 64-bit accumulator, and storage accounting.
#include "emulation/quantize/packing.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::emu {

namespace {

void check_width(int bits) {
    if (bits < 1 || bits > 16) throw Error(fmt::format("packing: code width {} bits is outside 1..16", bits));
}

template <typename Code>
std::vector<std::uint8_t> pack(std::span<const Code> codes, int bits) {
    check_width(bits);
    std::vector<std::uint8_t> stream(packed_bytes(codes.size(), bits));
    const unsigned limit = 1u << bits;
    std::uint64_t pending = 0;  // bits not yet written, lowest first
    int held = 0;
    std::size_t out = 0;
    for (std::size_t i = 0; i < codes.size(); ++i) {
        if (codes[i] >= limit)
            throw Error(fmt::format("packing: code {} at index {} does not fit in {} bits", codes[i], i, bits));
        pending |= static_cast<std::uint64_t>(codes[i]) << held;
        held += bits;
        while (held >= 8) {
            stream[out++] = static_cast<std::uint8_t>(pending);
            pending >>= 8;
            held -= 8;
        }
    }
    if (held > 0) stream[out] = static_cast<std::uint8_t>(pending);
    return stream;
}

}  // namespace

std::size_t packed_bytes(std::size_t count, int bits) {
    check_width(bits);
    return (count * static_cast<std::size_t>(bits) + 7) / 8;
}

std::vector<std::uint8_t> pack_codes(std::span<const std::uint16_t> codes, int bits) { return pack(codes, bits); }
std::vector<std::uint8_t> pack_codes(std::span<const std::uint8_t> codes, int bits) { return pack(codes, bits); }

std::vector<std::uint16_t> unpack_codes(std::span<const std::uint8_t> stream, int bits, std::size_t count) {
    if (stream.size() < packed_bytes(count, bits))
        throw Error(fmt::format("unpacking: {} bytes hold fewer than {} codes of {} bits", stream.size(), count, bits));
    std::vector<std::uint16_t> codes(count);
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    std::uint64_t pending = 0;
    int held = 0;
    std::size_t in = 0;
    for (std::size_t i = 0; i < count; ++i) {
        while (held < bits) {
            pending |= static_cast<std::uint64_t>(stream[in++]) << held;
            held += 8;
        }
        codes[i] = static_cast<std::uint16_t>(pending & mask);
        pending >>= bits;
        held -= bits;
    }
    return codes;
}

namespace {

/// Bits of one block's (or tile's) scale.
std::uint64_t scale_bits(const BlockFormat& format) {
    switch (format.family) {
        case BlockFamily::Mx:
        case BlockFamily::Nvfp4: return 8;  // E8M0, E4M3
        case BlockFamily::Absmax: return format.double_quantization ? 8 : 32;
        case BlockFamily::Fp8Blockwise: return static_cast<std::uint64_t>(format.scale.total_bits());  // fp32, e8m0
    }
    return 0;
}

/// Bits stored once per tensor: NVFP4's FP32 tensor scale; with double quantization the FP32 mean
/// and one FP32 scale per 256 blocks.
std::uint64_t tensor_bits(const BlockFormat& format, std::uint64_t blocks) {
    if (format.family == BlockFamily::Nvfp4) return 32;
    if (format.double_quantization) return ((blocks + 255) / 256) * 32 + 32;
    return 0;
}

}  // namespace

std::uint64_t storage_bits(const BlockFormat& format, std::size_t count) {
    if (format.tile_rows > 0) return tiled_storage_bits(format, 1, count);
    const std::uint64_t block = static_cast<std::uint64_t>(format.block_size);
    const std::uint64_t blocks = (count + block - 1) / block;
    const std::uint64_t element_bits = static_cast<std::uint64_t>(format.element.total_bits());
    return count * element_bits + blocks * scale_bits(format) + tensor_bits(format, blocks);
}

std::uint64_t tiled_storage_bits(const BlockFormat& format, std::size_t rows, std::size_t cols) {
    if (format.tile_rows == 0) return storage_bits(format, rows * cols);
    const std::uint64_t tile_rows = static_cast<std::uint64_t>(format.tile_rows);
    const std::uint64_t tile_cols = static_cast<std::uint64_t>(format.block_size);
    const std::uint64_t tiles = ((rows + tile_rows - 1) / tile_rows) * ((cols + tile_cols - 1) / tile_cols);
    const std::uint64_t element_bits = static_cast<std::uint64_t>(format.element.total_bits());
    return std::uint64_t{rows} * cols * element_bits + tiles * scale_bits(format) + tensor_bits(format, tiles);
}

double bits_per_value(const BlockFormat& format) {
    const double values = static_cast<double>(format.block_size) * std::max(1, format.tile_rows);
    const double element = format.element.total_bits();
    const double second_level = format.double_quantization ? 32 / (values * 256) : 0;
    return element + static_cast<double>(scale_bits(format)) / values + second_level;
}

}  // namespace floatscope::emu
