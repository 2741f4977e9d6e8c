// ONNX operators that make tensors from shapes and attributes (to opset 18): Shape, Size,
// Constant, ConstantOfShape, Range, EyeLike.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/shape_families.hpp"
#include "emulation/workloads/onnx/tensor_allowance.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Numerics>
Outputs<Numerics> shape_of(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    call.node.check_attributes({"start", "end"});
    const Shape& shape = call.input(0).shape;
    // Opset 15's start and end: negative from the end, then clamped into [0, rank].
    const auto rank = static_cast<std::int64_t>(shape.size());
    auto position = [&](const char* name, std::int64_t fallback) {
        std::int64_t p = call.node.int_attribute(name, fallback);
        if (p < 0) p += rank;
        return std::clamp<std::int64_t>(p, 0, rank);
    };
    const std::int64_t start = position("start", 0);
    const std::int64_t end = std::max(start, position("end", rank));
    std::vector<std::int64_t> dims(shape.begin() + start, shape.begin() + end);
    const auto count = static_cast<std::int64_t>(dims.size());
    return {integer_tensor<Number>(ElementType::Int64, {count}, std::move(dims))};
}

template <class Numerics>
Outputs<Numerics> size_of(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    call.node.check_attributes({});
    const auto count = static_cast<std::int64_t>(element_count(call.input(0).shape));
    return {integer_tensor<Number>(ElementType::Int64, {}, {count})};
}

/// A tensor attribute (exact in double) as a tensor of this evaluation's numbers.
template <class Numerics>
Tensor<typename Numerics::Number> from_attribute(const Tensor<double>& t, const Numerics& numerics) {
    Tensor<typename Numerics::Number> result;
    result.type = t.type;
    result.shape = t.shape;
    result.integers = t.integers;
    result.numbers.reserve(t.numbers.size());
    for (double x : t.numbers) result.numbers.push_back(numerics.from_double(x));
    return result;
}

template <class Numerics>
Outputs<Numerics> constant(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"value", "value_float", "value_floats", "value_int", "value_ints"});
    if (node.attributes.size() != 1)
        throw Error(
            fmt::format("{}: exactly one of value, value_float, value_floats, value_int, value_ints is "
                        "required, the node has {}",
                        node.describe(), node.attributes.size()));
    if (node.has("value")) return {from_attribute(node.tensor_attribute("value"), call.numerics)};
    if (node.has("value_float"))
        return {number_tensor<Number>(ElementType::Float, {},
                                      {call.numerics.from_double(node.float_attribute("value_float", 0))})};
    if (node.has("value_int"))
        return {integer_tensor<Number>(ElementType::Int64, {}, {node.int_attribute("value_int", 0)})};
    if (node.has("value_ints")) {
        std::vector<std::int64_t> values = node.ints_attribute("value_ints");
        const auto count = static_cast<std::int64_t>(values.size());
        return {integer_tensor<Number>(ElementType::Int64, {count}, std::move(values))};
    }
    std::vector<Number> values;
    for (double x : node.floats_attribute("value_floats")) values.push_back(call.numerics.from_double(x));
    const auto count = static_cast<std::int64_t>(values.size());
    return {number_tensor<Number>(ElementType::Float, {count}, std::move(values))};
}

template <class Numerics>
Outputs<Numerics> constant_of_shape(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"value"});
    Shape shape = integer_list(call.input(0), 0, node);
    for (std::int64_t d : shape)
        if (d < 0) throw Error(fmt::format("{}: shape {} has a negative dimension", node.describe(), describe(shape)));
    Tensor<Number> value = number_tensor<Number>(ElementType::Float, {1}, {call.numerics.from_double(0)});
    if (node.has("value")) {
        value = from_attribute(node.tensor_attribute("value"), call.numerics);
        if (value.size() != 1)
            throw Error(fmt::format("{}: attribute value has shape {}; one element is required", node.describe(),
                                    onnx::describe(value.shape)));
    }
    require_output(node, shape, value.floating());
    const std::size_t count = element_count(shape);
    value.shape = std::move(shape);
    if (value.floating())
        value.numbers.assign(count, Number(value.numbers.front()));
    else
        value.integers.assign(count, std::int64_t{value.integers.front()});
    return {std::move(value)};
}

/// EyeLike: a 2-D tensor of the input's shape, ones on diagonal k (0: the main one; > 0 above it),
/// zeros elsewhere, of type dtype (the input's by default).
template <class Numerics>
Outputs<Numerics> eye_like(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"dtype", "k"});
    const auto& x = call.input(0);
    if (x.shape.size() != 2)
        throw Error(fmt::format("{}: input 0 has shape {}; a 2-D one is required", node.describe(), describe(x.shape)));
    const ElementType type = node.has("dtype")
                                 ? element_type_from_onnx(static_cast<int>(node.int_attribute("dtype", 0)),
                                                          fmt::format("{}: attribute dtype", node.describe()))
                                 : x.type;
    const std::int64_t k = node.int_attribute("k", 0), columns = x.shape[1];
    std::vector<std::int64_t> ones(element_count(x.shape), 0);
    for (std::int64_t r = 0; r < x.shape[0]; ++r)
        if (r + k >= 0 && r + k < columns) ones[static_cast<std::size_t>(r * columns + r + k)] = 1;
    if (!is_floating(type)) return {integer_tensor<Number>(type, x.shape, std::move(ones))};
    std::vector<Number> numbers;
    for (std::int64_t v : ones) numbers.push_back(call.numerics.from_double(static_cast<double>(v)));
    return {number_tensor<Number>(type, x.shape, std::move(numbers))};
}

template <class Number>
void require_scalar(const Tensor<Number>& t, std::size_t index, const Node& node) {
    if (t.size() != 1)
        throw Error(
            fmt::format("{}: input {} has shape {}; a scalar is required", node.describe(), index, describe(t.shape)));
}

template <class Numerics>
Outputs<Numerics> range(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({});
    const auto& start = call.input(0);
    const auto& limit = call.input(1);
    const auto& delta = call.input(2);
    for (std::size_t i = 0; i < 3; ++i) require_scalar(call.input(i), i, node);
    require_same_type(start, limit, 0, 1, node);
    require_same_type(start, delta, 0, 2, node);

    if (!start.floating()) {
        const std::int64_t first = start.integers[0], end = limit.integers[0], step = delta.integers[0];
        if (step == 0) throw Error(fmt::format("{}: delta is 0", node.describe()));
        // In 128 bits: limit - start, |delta| and i * delta may each leave int64 (Range(-2^62,
        // 2^62, 2^61) spans 2^63), while every element lies between start and limit.
        using Wide = __int128;
        const Wide span = step > 0 ? Wide{end} - first : Wide{first} - end;
        const Wide wide_count = span > 0 ? (span - 1) / (step > 0 ? Wide{step} : -Wide{step}) + 1 : 0;
        if (wide_count >= (Wide{1} << 40))
            throw Error(fmt::format("{}: the range has {} elements, too many", node.describe(),
                                    static_cast<double>(wide_count)));
        const auto count = static_cast<std::int64_t>(wide_count);
        require_tensor(fmt::format("{}: a range of {} elements", node.describe(), count),
                       static_cast<std::size_t>(count), false);
        std::vector<std::int64_t> values(static_cast<std::size_t>(count));
        for (std::int64_t i = 0; i < count; ++i)
            values[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(Wide{first} + Wide{i} * step);
        return {integer_tensor<Number>(start.type, {count}, std::move(values))};
    }
    const Numerics& numerics = call.numerics;
    const Number& first = start.numbers[0];
    const Number& step = delta.numbers[0];
    // The element count is a shape, decided in double from the values as a kernel's host code does
    // (max(ceil((limit - start) / delta), 0)), so that both evaluations agree on it.
    const double step_value = numerics.to_double(step);
    if (step_value == 0) throw Error(fmt::format("{}: delta is 0", node.describe()));
    const double quotient = std::ceil((numerics.to_double(limit.numbers[0]) - numerics.to_double(first)) / step_value);
    if (!(quotient < 0x1p40))
        throw Error(fmt::format("{}: the range has {} elements, too many", node.describe(), quotient));
    const auto count = static_cast<std::int64_t>(std::max(quotient, 0.0));
    require_tensor(fmt::format("{}: a range of {} elements", node.describe(), count), static_cast<std::size_t>(count),
                   true);
    // output[i] = start + (i * delta), each operation rounded as the evaluation rounds.
    std::vector<Number> values;
    values.reserve(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i)
        values.push_back(numerics.add(first, numerics.mul(numerics.from_double(static_cast<double>(i)), step)));
    return {number_tensor<Number>(start.type, {count}, std::move(values))};
}

}  // namespace

void add_constant_operators(OperatorTable& table) {
    table.add("Shape", [](const auto& call) { return shape_of(call); });
    table.add("Size", [](const auto& call) { return size_of(call); });
    table.add("Constant", [](const auto& call) { return constant(call); });
    table.add("ConstantOfShape", [](const auto& call) { return constant_of_shape(call); });
    table.add("Range", [](const auto& call) { return range(call); });
    table.add("EyeLike", [](const auto& call) { return eye_like(call); });
}

}  // namespace floatscope::emu::onnx
