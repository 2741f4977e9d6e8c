// ONNX operators that pick or place elements by the values of another input (to opset 18):
// Compress (by a bool condition), NonZero (the positions of nonzero elements), OneHot (on and off
// values placed by indices), ReverseSequence (each batch entry's first sequence_lens steps reversed).
// They move elements and compute nothing.
#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

/// Compress-11: the slices of input 0 along axis (or, without axis, the elements of input 0
/// flattened) where the 1-D bool condition is true; a condition shorter than that length leaves
/// the rest out.
template <class Numerics>
Outputs<Numerics> compress(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"axis"});
    const auto& data = call.input(0);
    const auto& condition = call.input(1);
    require_type(condition, ElementType::Bool, 1, node);
    if (condition.shape.size() != 1)
        throw Error(
            fmt::format("{}: condition has shape {}; it must be 1-D", node.describe(), describe(condition.shape)));
    const Shape flat{static_cast<std::int64_t>(element_count(data.shape))};
    const Shape& shape = node.has("axis") ? data.shape : flat;
    const std::size_t axis = node.has("axis") ? normalize_axis(node.int_attribute("axis", 0), shape.size(), node) : 0;
    if (condition.integers.size() > static_cast<std::size_t>(shape[axis]))
        throw Error(fmt::format("{}: condition has {} entries for length {} along axis {}", node.describe(),
                                condition.integers.size(), shape[axis], axis));
    std::vector<std::int64_t> kept;
    for (std::size_t i = 0; i < condition.integers.size(); ++i)
        if (condition.integers[i] != 0) kept.push_back(static_cast<std::int64_t>(i));
    Shape result = shape;
    result[axis] = static_cast<std::int64_t>(kept.size());
    const std::vector<std::size_t> from = strides(shape);
    const std::vector<std::size_t> indices = indices_by_position(result, [&](const std::vector<std::int64_t>& at) {
        std::size_t index = 0;
        for (std::size_t d = 0; d < at.size(); ++d)
            index += static_cast<std::size_t>(d == axis ? kept[static_cast<std::size_t>(at[d])] : at[d]) * from[d];
        return index;
    });
    return {select_elements(data, std::move(result), indices)};
}

/// NonZero-13: int64 [rank, count], the positions of the nonzero elements (NaN is nonzero) in
/// row-major order, one row per dimension.
template <class Numerics>
Outputs<Numerics> nonzero(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    call.node.check_attributes({});
    const auto& data = call.input(0);
    const Number zero = call.numerics.from_double(0);
    std::vector<std::vector<std::int64_t>> positions(data.shape.size());
    std::vector<std::int64_t> at(data.shape.size(), 0);
    std::int64_t count = 0;  // a scalar has no rows to count in
    for (std::size_t i = 0; i < data.size(); ++i) {
        const bool nonzero = data.floating() ? !call.numerics.equal(data.numbers[i], zero) : data.integers[i] != 0;
        if (nonzero) {
            ++count;
            for (std::size_t d = 0; d < at.size(); ++d) positions[d].push_back(at[d]);
        }
        next_position(at, data.shape);
    }
    std::vector<std::int64_t> values;
    for (const auto& row : positions) values.insert(values.end(), row.begin(), row.end());
    return {integer_tensor<Number>(ElementType::Int64, {static_cast<std::int64_t>(data.shape.size()), count},
                                   std::move(values))};
}

/// OneHot-11: values' off value (values[0]) everywhere and its on value (values[1]) at each index
/// along the new axis; indices (any numeric type, truncated) in [-depth, depth - 1], negative ones
/// from the end; an index outside that range leaves its row off.
template <class Numerics>
Outputs<Numerics> one_hot(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"axis"});
    const auto& indices = call.input(0);
    const auto& depth_input = call.input(1);
    const auto& values = call.input(2);
    if (element_count(depth_input.shape) != 1 || element_count(values.shape) != 2)
        throw Error(fmt::format("{}: depth must hold one value and values two (off, on), not shapes {} and {}",
                                node.describe(), describe(depth_input.shape), describe(values.shape)));
    const auto as_integer = [&](const auto& t, std::size_t i) {
        return t.floating() ? static_cast<std::int64_t>(call.numerics.to_double(t.numbers[i])) : t.integers[i];
    };
    const std::int64_t depth = as_integer(depth_input, 0);
    if (depth < 1) throw Error(fmt::format("{}: depth {} must be positive", node.describe(), depth));
    Shape shape = indices.shape;
    const std::size_t axis = normalize_axis(node.int_attribute("axis", -1), shape.size() + 1, node);
    shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(axis), depth);
    const std::vector<std::size_t> index_strides = strides(indices.shape);
    const std::vector<std::size_t> picks = indices_by_position(shape, [&](const std::vector<std::int64_t>& at) {
        std::size_t flat = 0;
        for (std::size_t d = 0, k = 0; d < at.size(); ++d)
            if (d != axis) flat += static_cast<std::size_t>(at[d]) * index_strides[k++];
        std::int64_t index = as_integer(indices, flat);
        if (index < 0) index += depth;
        return static_cast<std::size_t>(index == at[axis] ? 1 : 0);
    });
    return {select_elements(values, std::move(shape), picks)};
}

/// ReverseSequence-10: along time_axis, the first sequence_lens[b] steps of each batch entry b
/// (along batch_axis, one of axes 0 and 1) reversed, the rest as they are.
template <class Numerics>
Outputs<Numerics> reverse_sequence(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"batch_axis", "time_axis"});
    const auto& data = call.input(0);
    const std::vector<std::int64_t> lengths = integer_list(call.input(1), 1, node);
    const auto batch_axis = node.int_attribute("batch_axis", 1), time_axis = node.int_attribute("time_axis", 0);
    if (data.shape.size() < 2 || batch_axis == time_axis || batch_axis < 0 || batch_axis > 1 || time_axis < 0 ||
        time_axis > 1)
        throw Error(
            fmt::format("{}: batch_axis {} and time_axis {} must be 0 and 1 of a tensor of rank >= 2 (shape {})",
                        node.describe(), batch_axis, time_axis, describe(data.shape)));
    const auto b = static_cast<std::size_t>(batch_axis), t = static_cast<std::size_t>(time_axis);
    if (lengths.size() != static_cast<std::size_t>(data.shape[b]))
        throw Error(fmt::format("{}: sequence_lens has {} entries for a batch of {}", node.describe(), lengths.size(),
                                data.shape[b]));
    for (std::int64_t l : lengths)
        if (l < 0 || l > data.shape[t])
            throw Error(fmt::format("{}: sequence length {} is outside [0, {}]", node.describe(), l, data.shape[t]));
    const std::vector<std::size_t> from = strides(data.shape);
    const std::vector<std::size_t> indices = indices_by_position(data.shape, [&](const std::vector<std::int64_t>& at) {
        const std::int64_t length = lengths[static_cast<std::size_t>(at[b])];
        std::size_t index = 0;
        for (std::size_t d = 0; d < at.size(); ++d)
            index += static_cast<std::size_t>(d == t && at[d] < length ? length - 1 - at[d] : at[d]) * from[d];
        return index;
    });
    return {select_elements(data, data.shape, indices)};
}

}  // namespace

void add_selection_operators(OperatorTable& table) {
    table.add("Compress", [](const auto& call) { return compress(call); });
    table.add("NonZero", [](const auto& call) { return nonzero(call); });
    table.add("OneHot", [](const auto& call) { return one_hot(call); });
    table.add("ReverseSequence", [](const auto& call) { return reverse_sequence(call); });
}

}  // namespace floatscope::emu::onnx
