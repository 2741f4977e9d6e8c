// Tensors of an ONNX graph: an element type, a shape, and the values in the number type of one
// evaluation (double for an emulated run, TruthNumber for the ground truth) or as integers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace floatscope::emu::onnx {

/// The element types FloatScope evaluates (TensorProto.DataType's FLOAT, DOUBLE, FLOAT16, BFLOAT16,
/// INT8, UINT8, INT16, UINT16, INT32, INT64, BOOL, UINT32, and UINT64 up to 2^63 - 1, held as int64), and the narrow
/// types it reads from their codes (FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ, FLOAT4E2M1, FLOAT8E8M0,
/// INT4, UINT4; ONNX 1.14 to 1.18, IR versions 9 to 11).
enum class ElementType {
    Float,
    Double,
    Float16,
    BFloat16,
    Int8,
    UInt8,
    Int32,
    Int64,
    Bool,
    Int16,
    UInt16,
    Int4,
    UInt4,
    Float8E4M3FN,
    Float8E4M3FNUZ,
    Float8E5M2,
    Float8E5M2FNUZ,
    Float4E2M1,
    Float8E8M0,
    UInt32,
    UInt64,
};

/// "float" "double" "float16" "bfloat16" "int8" "uint8" "int32" "int64" "bool" "int16" "uint16"
/// "int4" "uint4" "float8e4m3fn" "float8e4m3fnuz" "float8e5m2" "float8e5m2fnuz" "float4e2m1"
/// "float8e8m0" "uint32" "uint64" (ONNX's names).
const char* to_string(ElementType type);
/// Float, Double, Float16, BFloat16 and the float8 and float4 types: values held as numbers; the
/// others as integers.
bool is_floating(ElementType type);
/// The float8 and float4 types, which FloatScope reads and no operator before opset 19 takes.
bool is_narrow_floating(ElementType type);
/// The ONNX TensorProto.DataType number of `type` (FLOAT = 1, ...).
int onnx_data_type(ElementType type);
/// The element type of an ONNX data type number; throws floatscope::Error naming `context`, the
/// type (by ONNX's name where it has one) and the supported types otherwise.
ElementType element_type_from_onnx(int data_type, std::string_view context);

/// What a value of a graph is: a tensor, a sequence of tensors (SequenceConstruct, SplitToSequence,
/// a Loop carrying one) or an optional (none, or one tensor or sequence: Optional-15).
enum class ValueKind { Tensor, Sequence, Optional };

/// "tensor" "sequence" "optional"
const char* to_string(ValueKind kind);

using Shape = std::vector<std::int64_t>;

/// The number of elements of `shape` (1 for a scalar); throws floatscope::Error for a negative
/// dimension or a count past 2^62.
std::size_t element_count(const Shape& shape);
/// "[2, 3, 4]", "[]" for a scalar.
std::string describe(const Shape& shape);
/// Row-major strides of `shape` in elements.
std::vector<std::size_t> strides(const Shape& shape);

/// A tensor whose values are `Number`s (floating element types) or integers (the integer types,
/// and bool as 0 and 1). Exactly one of `numbers` and `integers` holds element_count(shape)
/// values, row-major. Of kind Sequence or Optional it is a value that holds tensors rather than
/// numbers: `elements` (an optional's none or one, itself a tensor or a sequence), of element type
/// `type`; its shape, numbers and integers are empty.
template <class Number>
struct Tensor {
    ElementType type = ElementType::Float;
    Shape shape;
    std::vector<Number> numbers;
    std::vector<std::int64_t> integers;
    ValueKind kind = ValueKind::Tensor;
    std::vector<Tensor> elements = {};

    /// A tensor of a floating element type (a sequence of floating tensors is not: it holds no numbers).
    bool floating() const { return kind == ValueKind::Tensor && is_floating(type); }
    std::size_t size() const { return floating() ? numbers.size() : integers.size(); }
};

/// A floating tensor of `shape` holding `values`.
template <class Number>
Tensor<Number> number_tensor(ElementType type, Shape shape, std::vector<Number> values) {
    Tensor<Number> t;
    t.type = type;
    t.shape = std::move(shape);
    t.numbers = std::move(values);
    return t;
}

/// An integer (or bool) tensor of `shape` holding `values`.
template <class Number>
Tensor<Number> integer_tensor(ElementType type, Shape shape, std::vector<std::int64_t> values) {
    Tensor<Number> t;
    t.type = type;
    t.shape = std::move(shape);
    t.integers = std::move(values);
    return t;
}

/// A sequence of `type` holding `tensors` (each of that type).
template <class Number>
Tensor<Number> sequence_value(ElementType type, std::vector<Tensor<Number>> tensors) {
    Tensor<Number> s;
    s.type = type;
    s.kind = ValueKind::Sequence;
    s.elements = std::move(tensors);
    return s;
}

/// `t` with each number converted by `convert` (double to TruthNumber for the truth's constants and
/// inputs, back for comparing and saving its outputs), a sequence's and an optional's tensors too;
/// the kind, type, shape and integers as they are.
template <class To, class From, class Convert>
Tensor<To> convert_numbers(const Tensor<From>& t, Convert convert) {
    Tensor<To> r;
    r.type = t.type;
    r.shape = t.shape;
    r.integers = t.integers;
    r.kind = t.kind;
    r.numbers.reserve(t.numbers.size());
    for (const From& v : t.numbers) r.numbers.push_back(convert(v));
    for (const Tensor<From>& e : t.elements) r.elements.push_back(convert_numbers<To>(e, convert));
    return r;
}

/// The shape numpy broadcasting gives two shapes (ONNX's multidirectional broadcasting); throws
/// floatscope::Error naming `context` and both shapes when they do not broadcast.
Shape broadcast_shapes(const Shape& a, const Shape& b, std::string_view context);
/// For each element of `result` (row-major), the index of the element of `operand` that
/// broadcasting pairs with it (operand broadcasts to result).
std::vector<std::size_t> broadcast_indices(const Shape& operand, const Shape& result);

}  // namespace floatscope::emu::onnx
