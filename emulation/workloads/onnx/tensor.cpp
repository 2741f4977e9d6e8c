// Element types, shapes and broadcasting of ONNX tensors.
#include "emulation/workloads/onnx/tensor.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/tensor_allowance.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

struct TypeName {
    ElementType type;
    const char* name;
    int onnx;  // TensorProto.DataType (onnx.proto)
};

constexpr std::array<TypeName, 21> type_names = {{
    {ElementType::Float, "float", 1},
    {ElementType::UInt8, "uint8", 2},
    {ElementType::Int8, "int8", 3},
    {ElementType::UInt16, "uint16", 4},
    {ElementType::Int16, "int16", 5},
    {ElementType::Int32, "int32", 6},
    {ElementType::Int64, "int64", 7},
    {ElementType::Bool, "bool", 9},
    {ElementType::Float16, "float16", 10},
    {ElementType::Double, "double", 11},
    {ElementType::BFloat16, "bfloat16", 16},
    {ElementType::Float8E4M3FN, "float8e4m3fn", 17},
    {ElementType::Float8E4M3FNUZ, "float8e4m3fnuz", 18},
    {ElementType::Float8E5M2, "float8e5m2", 19},
    {ElementType::Float8E5M2FNUZ, "float8e5m2fnuz", 20},
    {ElementType::UInt4, "uint4", 21},
    {ElementType::Int4, "int4", 22},
    {ElementType::Float4E2M1, "float4e2m1", 23},
    {ElementType::Float8E8M0, "float8e8m0", 24},
    {ElementType::UInt32, "uint32", 12},
    {ElementType::UInt64, "uint64", 13},
}};

/// TensorProto.DataType names FloatScope does not evaluate, for the error that names them.
const char* unsupported_type_name(int data_type) {
    switch (data_type) {
        case 0: return "undefined";
        case 8: return "string";
        case 14: return "complex64";
        case 15: return "complex128";
        default: return nullptr;
    }
}

}  // namespace

const char* to_string(ElementType type) {
    for (const TypeName& t : type_names)
        if (t.type == type) return t.name;
    return "?";
}

const char* to_string(ValueKind kind) {
    switch (kind) {
        case ValueKind::Tensor: return "tensor";
        case ValueKind::Sequence: return "sequence";
        case ValueKind::Optional: return "optional";
    }
    return "?";
}

bool is_floating(ElementType type) {
    return type == ElementType::Float || type == ElementType::Double || type == ElementType::Float16 ||
           type == ElementType::BFloat16 || is_narrow_floating(type);
}

bool is_narrow_floating(ElementType type) {
    return type == ElementType::Float8E4M3FN || type == ElementType::Float8E4M3FNUZ ||
           type == ElementType::Float8E5M2 || type == ElementType::Float8E5M2FNUZ || type == ElementType::Float4E2M1 ||
           type == ElementType::Float8E8M0;
}

int onnx_data_type(ElementType type) {
    for (const TypeName& t : type_names)
        if (t.type == type) return t.onnx;
    return 0;
}

ElementType element_type_from_onnx(int data_type, std::string_view context) {
    for (const TypeName& t : type_names)
        if (t.onnx == data_type) return t.type;
    std::string supported;
    for (const TypeName& t : type_names) supported += fmt::format("{}{}", supported.empty() ? "" : ", ", t.name);
    const char* name = unsupported_type_name(data_type);
    throw Unsupported(fmt::format("{}: element type {} is not supported (supported: {})", context,
                                  name ? std::string(name) : fmt::format("number {}", data_type), supported));
}

std::size_t element_count(const Shape& shape) {
    constexpr std::int64_t limit = std::int64_t{1} << 62;
    std::int64_t count = 1;
    for (std::int64_t d : shape) {
        if (d < 0) throw Error(fmt::format("shape {} has a negative dimension", describe(shape)));
        if (d != 0 && count > limit / d)
            throw Error(fmt::format("shape {} has more than 2^62 elements", describe(shape)));
        count *= d;
    }
    return static_cast<std::size_t>(count);
}

std::string describe(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

std::vector<std::size_t> strides(const Shape& shape) {
    std::vector<std::size_t> s(shape.size(), 1);
    for (std::size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * static_cast<std::size_t>(shape[i]);
    return s;
}

Shape broadcast_shapes(const Shape& a, const Shape& b, std::string_view context) {
    const std::size_t rank = std::max(a.size(), b.size());
    Shape result(rank);
    for (std::size_t i = 0; i < rank; ++i) {
        const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            throw Error(fmt::format("{}: shapes {} and {} do not broadcast", context, describe(a), describe(b)));
        result[i] = da == 1 ? db : da;
    }
    return result;
}

std::vector<std::size_t> broadcast_indices(const Shape& operand, const Shape& result) {
    const std::size_t rank = result.size(), offset = rank - operand.size();
    const std::vector<std::size_t> operand_strides = strides(operand);
    const std::size_t count = element_count(result);
    require_tensor(fmt::format("broadcasting to shape {}", describe(result)), count, false);
    std::vector<std::size_t> indices(count);
    std::vector<std::int64_t> position(rank, 0);
    for (std::size_t flat = 0; flat < indices.size(); ++flat) {
        std::size_t index = 0;
        for (std::size_t d = offset; d < rank; ++d)
            if (operand[d - offset] != 1) index += static_cast<std::size_t>(position[d]) * operand_strides[d - offset];
        indices[flat] = index;
        for (std::size_t d = rank; d-- > 0;) {
            if (++position[d] < result[d]) break;
            position[d] = 0;
        }
    }
    return indices;
}

}  // namespace floatscope::emu::onnx
