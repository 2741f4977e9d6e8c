// Bit-stream packing of codes through a 64-bit accumulator, and storage accounting.
#include "emulation/quantize/packing.hpp"

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

std::uint64_t storage_bits(const BlockFormat& format, std::size_t count) {
    const std::uint64_t block = static_cast<std::uint64_t>(format.block_size);
    const std::uint64_t blocks = (count + block - 1) / block;
    const std::uint64_t element_bits = static_cast<std::uint64_t>(format.element.total_bits());
    std::uint64_t bits = count * element_bits;
    switch (format.family) {
        case BlockFamily::Mx: return bits + blocks * 8;  // one E8M0 per block
        case BlockFamily::Nvfp4: return bits + blocks * 8 + 32;  // E4M3 per block, FP32 per tensor
        case BlockFamily::Absmax:
            if (!format.double_quantization) return bits + blocks * 32;  // FP32 absmax per block
            // 8-bit absmax codes, an FP32 scale per 256 of them, and the FP32 mean.
            return bits + blocks * 8 + ((blocks + 255) / 256) * 32 + 32;
    }
    return bits;
}

double bits_per_value(const BlockFormat& format) {
    const double block = format.block_size;
    const double element = format.element.total_bits();
    switch (format.family) {
        case BlockFamily::Mx:
        case BlockFamily::Nvfp4: return element + 8 / block;
        case BlockFamily::Absmax:
            return format.double_quantization ? element + 8 / block + 32 / (block * 256) : element + 32 / block;
    }
    return element;
}

}  // namespace floatscope::emu
