// Element decoding: 16-bit floats through core's codec (one table per format), wider types by bit_cast.
#include "emulation/workloads/onnx/element_decoding.hpp"

#include <bit>
#include <vector>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/npy_header.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The values of all 2^16 patterns of `format_name`: decoding a large tensor is one lookup per element.
std::vector<double> value_table(const char* format_name) {
    const core::FormatSpec format = core::parse_format(format_name);
    std::vector<double> table(std::size_t{1} << 16);
    for (std::size_t bits = 0; bits < table.size(); ++bits) table[bits] = core::decode_bits(format, bits).value;
    return table;
}

double floating_value(ElementType type, std::uint64_t bits) {
    switch (type) {
        case ElementType::Float16: return float16_value(static_cast<std::uint16_t>(bits));
        case ElementType::BFloat16: return bfloat16_value(static_cast<std::uint16_t>(bits));
        case ElementType::Float: return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
        default: return std::bit_cast<double>(bits);
    }
}

std::int64_t integer_value(ElementType type, std::uint64_t bits) {
    switch (type) {
        case ElementType::Int8: return static_cast<std::int8_t>(bits);
        case ElementType::Int32: return static_cast<std::int32_t>(bits);
        case ElementType::Bool: return bits != 0;
        default: return static_cast<std::int64_t>(bits);  // uint8, int64
    }
}

}  // namespace

double float16_value(std::uint16_t bits) {
    static const std::vector<double> table = value_table("fp16");
    return table[bits];
}

double bfloat16_value(std::uint16_t bits) {
    static const std::vector<double> table = value_table("bf16");
    return table[bits];
}

std::size_t element_width(ElementType type) {
    switch (type) {
        case ElementType::Double:
        case ElementType::Int64: return 8;
        case ElementType::Float:
        case ElementType::Int32: return 4;
        case ElementType::Float16:
        case ElementType::BFloat16: return 2;
        default: return 1;  // int8, uint8, bool
    }
}

void decode_little_endian(std::string_view bytes, Tensor<double>& t) {
    const std::size_t width = element_width(t.type), count = bytes.size() / width;
    const bool floating = t.floating();
    if (floating)
        t.numbers.resize(count);
    else
        t.integers.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t bits = core::little_endian_bits(bytes, i * width, width);
        if (floating)
            t.numbers[i] = floating_value(t.type, bits);
        else
            t.integers[i] = integer_value(t.type, bits);
    }
}

}  // namespace floatscope::emu::onnx
