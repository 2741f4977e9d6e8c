// TensorProto decoding: the element type, the shape, then the data from wherever the proto keeps them.
#include "emulation/workloads/onnx/tensor_proto.hpp"

#include <charconv>
#include <limits>
#include <optional>
#include <span>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/weights/mapped_file.hpp"
#include "emulation/workloads/onnx/element_decoding.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

Shape tensor_shape(const ::onnx::TensorProto& proto, std::string_view context) {
    Shape shape(proto.dims().begin(), proto.dims().end());
    try {
        (void)element_count(shape);
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}", context, e.what()));
    }
    return shape;
}

std::uint64_t external_number(const std::string& key, const std::string& text, std::string_view context) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty())
        throw Error(fmt::format("{}: external data {} '{}' is not a byte count", context, key, text));
    return value;
}

/// Decodes into `t` the `size` bytes (what the shape needs) of the file external_data names,
/// through a memory mapping: the bytes are not read into memory beside the decoded values.
void decode_external(const ::onnx::TensorProto& proto, std::size_t size, std::string_view context,
                     const core::DataFolder& folder, Tensor<double>& t) {
    std::string location;
    std::uint64_t offset = 0;
    std::optional<std::uint64_t> length;
    for (const ::onnx::StringStringEntryProto& entry : proto.external_data()) {
        if (entry.key() == "location") location = entry.value();
        if (entry.key() == "offset") offset = external_number("offset", entry.value(), context);
        if (entry.key() == "length") length = external_number("length", entry.value(), context);
    }
    if (location.empty()) throw Error(fmt::format("{}: its external data name no location", context));
    // The data belong beside the model: a name (or a link) leaving its folder could read any file
    // of the system.
    const std::filesystem::path file = folder.resolve(location, fmt::format("{}: external data location", context));
    if (length && *length != size)
        throw Error(fmt::format("{}: external data length {} bytes, the shape needs {}", context, *length, size));
    std::error_code error;
    const std::uintmax_t file_size = std::filesystem::file_size(file, error);
    if (error)
        throw Error(
            fmt::format("{}: cannot read external data file '{}': {}", context, file.string(), error.message()));
    if (offset > file_size || file_size - offset < size)
        throw Error(fmt::format("{}: external data file '{}' has {} bytes, the tensor needs {} from offset {}", context,
                                file.string(), file_size, size, offset));
    const MappedFile mapped(file.string());
    const std::span<const std::byte> bytes = mapped.bytes();
    if (offset > bytes.size() || bytes.size() - offset < size)  // the file changed since it was sized
        throw Error(fmt::format("{}: cannot read external data file '{}'", context, file.string()));
    decode_little_endian(std::string_view(reinterpret_cast<const char*>(bytes.data() + offset), size), t);
}

void require_values(std::size_t held, std::size_t needed, const char* field, const Tensor<double>& t,
                    std::string_view context) {
    if (held != needed)
        throw Error(fmt::format("{}: its {} shape {} has {} elements, its {} holds {}", context, to_string(t.type),
                                describe(t.shape), needed, field, held));
}

/// Values of int32_data, each within [low, high].
std::vector<std::int64_t> checked_int32_data(const ::onnx::TensorProto& proto, std::int64_t low, std::int64_t high,
                                             std::string_view context) {
    std::vector<std::int64_t> values(proto.int32_data().begin(), proto.int32_data().end());
    for (std::int64_t v : values)
        if (v < low || v > high)
            throw Error(
                fmt::format("{}: int32_data holds {}, outside {}..{} of its element type", context, v, low, high));
    return values;
}

/// The typed field of the tensor's element type, as ONNX's onnx.proto assigns them.
void decode_typed_fields(const ::onnx::TensorProto& proto, std::size_t count, Tensor<double>& t,
                         std::string_view context) {
    switch (t.type) {
        case ElementType::Float:
            require_values(proto.float_data_size(), count, "float_data", t, context);
            t.numbers.assign(proto.float_data().begin(), proto.float_data().end());
            break;
        case ElementType::Double:
            require_values(proto.double_data_size(), count, "double_data", t, context);
            t.numbers.assign(proto.double_data().begin(), proto.double_data().end());
            break;
        case ElementType::Int64:
            require_values(proto.int64_data_size(), count, "int64_data", t, context);
            t.integers.assign(proto.int64_data().begin(), proto.int64_data().end());
            break;
        case ElementType::UInt32:
        case ElementType::UInt64:
            // onnx.proto: uint32 and uint64 in uint64_data.
            require_values(proto.uint64_data_size(), count, "uint64_data", t, context);
            for (std::uint64_t v : proto.uint64_data()) {
                if (t.type == ElementType::UInt32 && v > std::numeric_limits<std::uint32_t>::max())
                    throw Error(fmt::format("{}: uint64_data holds {}, past uint32", context, v));
                t.integers.push_back(uint64_value(v));
            }
            break;
        case ElementType::Float16:
        case ElementType::BFloat16: {
            require_values(proto.int32_data_size(), count, "int32_data", t, context);
            const auto decode = t.type == ElementType::Float16 ? float16_value : bfloat16_value;
            for (std::int64_t bits : checked_int32_data(proto, 0, 0xFFFF, context))
                t.numbers.push_back(decode(static_cast<std::uint16_t>(bits)));
            break;
        }
        case ElementType::Int8:
        case ElementType::UInt8:
        case ElementType::Int16:
        case ElementType::UInt16:
        case ElementType::Int32:
        case ElementType::Bool: {
            require_values(proto.int32_data_size(), count, "int32_data", t, context);
            // Bools are any int32, non-zero being true.
            std::int64_t low = std::numeric_limits<std::int32_t>::min(),
                         high = std::numeric_limits<std::int32_t>::max();
            if (t.type == ElementType::Int8) low = -128, high = 127;
            if (t.type == ElementType::UInt8) low = 0, high = 255;
            if (t.type == ElementType::Int16) low = -32768, high = 32767;
            if (t.type == ElementType::UInt16) low = 0, high = 65535;
            t.integers = checked_int32_data(proto, low, high, context);
            if (t.type == ElementType::Bool)
                for (std::int64_t& v : t.integers) v = v != 0;
            break;
        }
        case ElementType::Float8E4M3FN:
        case ElementType::Float8E4M3FNUZ:
        case ElementType::Float8E5M2:
        case ElementType::Float8E5M2FNUZ:
        case ElementType::Float8E8M0:
            // One code per int32 (onnx.proto: "float8 values must be bit-wise converted").
            require_values(proto.int32_data_size(), count, "int32_data", t, context);
            for (std::int64_t code : checked_int32_data(proto, 0, 0xFF, context))
                t.numbers.push_back(narrow_float_value(t.type, static_cast<std::uint8_t>(code)));
            break;
        case ElementType::Int4:
        case ElementType::UInt4:
        case ElementType::Float4E2M1: {
            // One byte of two elements per int32, the first in the low nibble.
            require_values(proto.int32_data_size(), packed_bytes(t.type, count), "int32_data (two elements each)", t,
                           context);
            std::string bytes;
            for (std::int64_t byte : checked_int32_data(proto, 0, 0xFF, context))
                bytes.push_back(static_cast<char>(byte));
            decode_little_endian(bytes, t);
            break;
        }
    }
}

}  // namespace

double decoded_bytes(const ::onnx::TensorProto& proto) {
    double count = 1;
    for (std::int64_t d : proto.dims()) count *= d < 0 ? 0.0 : static_cast<double>(d);
    return 8 * count;
}

Tensor<double> decode_tensor(const ::onnx::TensorProto& proto, std::string_view context,
                             const core::DataFolder& folder) {
    Tensor<double> t;
    t.type = element_type_from_onnx(proto.data_type(), context);
    t.shape = tensor_shape(proto, context);
    if (proto.has_segment()) throw Unsupported(fmt::format("{}: segmented tensors are not supported", context));
    const std::size_t count = element_count(t.shape), width = element_width(t.type);
    // The shape is checked against the data before anything is allocated: a proto may claim any dims.
    if (proto.data_location() == ::onnx::TensorProto::EXTERNAL) {
        if (count > std::numeric_limits<std::size_t>::max() / width)
            throw Error(fmt::format("{}: shape {} is too large", context, describe(t.shape)));
        decode_external(proto, packed_bytes(t.type, count), context, folder, t);
    } else if (proto.has_raw_data()) {
        const std::size_t bytes = proto.raw_data().size();
        if (bytes != packed_bytes(t.type, count))
            throw Error(fmt::format("{}: its {} shape {} needs {} bytes of data, its raw_data holds {}", context,
                                    to_string(t.type), describe(t.shape),
                                    static_cast<double>(packed_bytes(t.type, count)), bytes));
        decode_little_endian(proto.raw_data(), t);
    } else {
        decode_typed_fields(proto, count, t, context);
    }
    // An odd count of 4-bit elements leaves the last byte's high nibble unused.
    if (t.floating())
        t.numbers.resize(count);
    else
        t.integers.resize(count);
    return t;
}

}  // namespace floatscope::emu::onnx
