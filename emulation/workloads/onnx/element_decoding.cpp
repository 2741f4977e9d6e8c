// Element decoding: 16-bit and narrower floats through core's codec (one table per format), wider
// types by bit_cast.
#include "emulation/workloads/onnx/element_decoding.hpp"

#include <bit>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/npy_header.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The values of all 2^bits patterns of `format_name`: decoding a large tensor is one lookup per element.
std::vector<double> value_table(const char* format_name, int bits = 16) {
    const core::FormatSpec format = core::parse_format(format_name);
    std::vector<double> table(std::size_t{1} << bits);
    for (std::size_t code = 0; code < table.size(); ++code) table[code] = core::decode_bits(format, code).value;
    return table;
}

std::vector<double> value_table(ElementType type, int bits) {
    return value_table(narrow_float_format_name(type), bits);
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

const char* narrow_float_format_name(ElementType type) {
    switch (type) {
        case ElementType::Float8E4M3FN: return "float8_e4m3fn";
        case ElementType::Float8E4M3FNUZ: return "float8_e4m3fnuz";
        case ElementType::Float8E5M2: return "float8_e5m2";
        case ElementType::Float8E5M2FNUZ: return "float8_e5m2fnuz";
        case ElementType::Float4E2M1: return "float4_e2m1fn";
        default: return "float8_e8m0fnu";
    }
}

double narrow_float_value(ElementType type, std::uint8_t code) {
    static const std::vector<double> e4m3fn = value_table(ElementType::Float8E4M3FN, 8),
                                     e4m3fnuz = value_table(ElementType::Float8E4M3FNUZ, 8),
                                     e5m2 = value_table(ElementType::Float8E5M2, 8),
                                     e5m2fnuz = value_table(ElementType::Float8E5M2FNUZ, 8),
                                     e2m1 = value_table(ElementType::Float4E2M1, 4),
                                     e8m0 = value_table(ElementType::Float8E8M0, 8);
    switch (type) {
        case ElementType::Float8E4M3FN: return e4m3fn[code];
        case ElementType::Float8E4M3FNUZ: return e4m3fnuz[code];
        case ElementType::Float8E5M2: return e5m2[code];
        case ElementType::Float8E5M2FNUZ: return e5m2fnuz[code];
        case ElementType::Float4E2M1: return e2m1[code & 0xF];
        default: return e8m0[code];
    }
}

double floating_value(ElementType type, std::uint64_t bits) {
    switch (type) {
        case ElementType::Float16: return float16_value(static_cast<std::uint16_t>(bits));
        case ElementType::BFloat16: return bfloat16_value(static_cast<std::uint16_t>(bits));
        case ElementType::Float: return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
        case ElementType::Double: return std::bit_cast<double>(bits);
        default: return narrow_float_value(type, static_cast<std::uint8_t>(bits));
    }
}

std::int64_t uint64_value(std::uint64_t bits) {
    if (bits > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw Unsupported(fmt::format("the uint64 value {} is past 2^63 - 1, the largest FloatScope holds", bits));
    return static_cast<std::int64_t>(bits);
}

std::int64_t integer_value(ElementType type, std::uint64_t bits) {
    switch (type) {
        case ElementType::Int8: return static_cast<std::int8_t>(bits);
        case ElementType::Int16: return static_cast<std::int16_t>(bits);
        case ElementType::UInt16: return static_cast<std::uint16_t>(bits);
        case ElementType::Int32: return static_cast<std::int32_t>(bits);
        case ElementType::UInt32: return static_cast<std::uint32_t>(bits);
        case ElementType::UInt64: return uint64_value(bits);
        case ElementType::Int4: return static_cast<std::int64_t>(bits & 0xF) - ((bits & 0x8) != 0 ? 16 : 0);
        case ElementType::UInt4: return static_cast<std::int64_t>(bits & 0xF);
        case ElementType::Bool: return bits != 0;
        default: return static_cast<std::int64_t>(bits);  // uint8, int64
    }
}

std::size_t element_width(ElementType type) {
    switch (type) {
        case ElementType::Double:
        case ElementType::Int64:
        case ElementType::UInt64: return 8;
        case ElementType::Float:
        case ElementType::Int32:
        case ElementType::UInt32: return 4;
        case ElementType::Float16:
        case ElementType::BFloat16:
        case ElementType::Int16:
        case ElementType::UInt16: return 2;
        default: return 1;  // int8, uint8, bool, the float8 types; the 4-bit types share their byte
    }
}

bool is_packed_4_bit(ElementType type) {
    return type == ElementType::Int4 || type == ElementType::UInt4 || type == ElementType::Float4E2M1;
}

std::size_t packed_bytes(ElementType type, std::size_t count) {
    return is_packed_4_bit(type) ? count / 2 + count % 2 : count * element_width(type);
}

void decode_little_endian(std::string_view bytes, Tensor<double>& t) {
    const bool floating = t.floating();
    if (is_packed_4_bit(t.type)) {
        // Two elements per byte, the first in the low nibble (onnx.proto).
        const std::size_t count = 2 * bytes.size();
        if (floating)
            t.numbers.resize(count);
        else
            t.integers.resize(count);
        for (std::size_t i = 0; i < count; ++i) {
            const auto byte = static_cast<std::uint8_t>(bytes[i / 2]);
            const std::uint64_t nibble = i % 2 == 0 ? byte & 0xF : byte >> 4;
            if (floating)
                t.numbers[i] = floating_value(t.type, nibble);
            else
                t.integers[i] = integer_value(t.type, nibble);
        }
        return;
    }
    const std::size_t width = element_width(t.type), count = bytes.size() / width;
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
