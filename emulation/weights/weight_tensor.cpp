// Sizes and exact decoding of the tensor encodings; narrow codes through a value table per format.
#include "emulation/weights/weight_tensor.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "core/codec.hpp"
#include "core/error.hpp"

namespace floatscope::emu {

static_assert(std::endian::native == std::endian::little, "the readers take little-endian files as they lie");

namespace {

/// Every code's value of a format of at most 16 bits, built once per format (threads share it).
const std::vector<double>& value_table(const core::FormatSpec& format) {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<const std::vector<double>>> tables;
    const std::lock_guard<std::mutex> lock(mutex);
    auto& table = tables[format.name];
    if (!table) {
        std::vector<double> values(std::size_t{1} << format.total_bits());
        for (std::size_t code = 0; code < values.size(); ++code) {
            const core::Decoded d = core::decode_bits(format, code);
            values[code] = d.value_class == core::ValueClass::NaN ? std::numeric_limits<double>::quiet_NaN() : d.value;
        }
        table = std::make_unique<const std::vector<double>>(std::move(values));
    }
    return *table;
}

std::uint64_t checked_multiply(std::string_view tensor, std::uint64_t a, std::uint64_t b, std::string_view what) {
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product))
        throw Error(fmt::format("tensor '{}': {} overflows 64 bits ({} * {})", tensor, what, a, b));
    return product;
}

}  // namespace

std::uint64_t element_count(std::string_view tensor, std::span<const std::uint64_t> shape) {
    std::uint64_t count = 1;
    for (std::uint64_t d : shape) count = checked_multiply(tensor, count, d, "the element count (shape)");
    return count;
}

std::uint64_t encoded_bytes(std::string_view tensor, TensorEncoding encoding, const core::FormatSpec& format,
                            GgmlBlock block, std::uint64_t count) {
    switch (encoding) {
        case TensorEncoding::F64: return checked_multiply(tensor, count, 8, "the byte size");
        case TensorEncoding::F32: return checked_multiply(tensor, count, 4, "the byte size");
        case TensorEncoding::Codes:
            return checked_multiply(tensor, count, format.total_bits() > 8 ? 2 : 1, "the byte size");
        case TensorEncoding::Fp4Pairs:
            if (count % 2 != 0)
                throw Error(
                    fmt::format("tensor '{}': {} FP4 elements do not fill whole bytes (two a byte)", tensor, count));
            return count / 2;
        case TensorEncoding::Blocks:
            if (count % ggml_block_values != 0)
                throw Error(fmt::format("tensor '{}': {} elements are not whole {} blocks of {}", tensor, count,
                                        ggml_block_name(block), ggml_block_values));
            return checked_multiply(tensor, count / ggml_block_values, ggml_block_bytes(block), "the byte size");
    }
    return 0;
}

void decode_elements(const WeightTensor& t, std::uint64_t first, std::span<double> out) {
    if (first > t.count || out.size() > t.count - first)
        throw Error(fmt::format("tensor '{}': elements [{}, {}) leave its {} elements", t.name, first,
                                first + out.size(), t.count));
    const std::byte* bytes = t.data.data();
    switch (t.encoding) {
        case TensorEncoding::F64: std::memcpy(out.data(), bytes + first * 8, out.size() * 8); return;
        case TensorEncoding::F32:
            for (std::size_t i = 0; i < out.size(); ++i) {
                float v = 0;
                std::memcpy(&v, bytes + (first + i) * 4, 4);
                out[i] = v;
            }
            return;
        case TensorEncoding::Codes: {
            const std::vector<double>& table = value_table(t.format);
            if (t.format.total_bits() > 8) {
                for (std::size_t i = 0; i < out.size(); ++i) {
                    std::uint16_t code = 0;
                    std::memcpy(&code, bytes + (first + i) * 2, 2);
                    out[i] = table[code];
                }
            } else {
                for (std::size_t i = 0; i < out.size(); ++i)
                    out[i] = table[std::to_integer<std::uint8_t>(bytes[first + i]) & (table.size() - 1)];
            }
            return;
        }
        case TensorEncoding::Fp4Pairs: {
            const std::vector<double>& table = value_table(t.format);
            for (std::size_t i = 0; i < out.size(); ++i) {
                const std::uint64_t e = first + i;
                const unsigned byte = std::to_integer<unsigned>(bytes[e / 2]);
                out[i] = table[(e % 2 == 0 ? byte : byte >> 4) & 0xF];
            }
            return;
        }
        case TensorEncoding::Blocks: {
            const std::size_t block_bytes = ggml_block_bytes(t.block);
            std::array<double, ggml_block_values> values{};
            for (std::size_t i = 0; i < out.size();) {
                const std::uint64_t e = first + i;
                const std::uint64_t b = e / ggml_block_values;
                decode_ggml_block(t.block, bytes + b * block_bytes, values);
                const std::size_t from = e % ggml_block_values;
                const std::size_t n = std::min(ggml_block_values - from, out.size() - i);
                std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(from), n,
                            out.begin() + static_cast<std::ptrdiff_t>(i));
                i += n;
            }
            return;
        }
    }
}

}  // namespace floatscope::emu
