// ONNX operators that pick parts of tensors or join them (to opset 18): Slice, Gather,
// GatherElements, Concat, Split.
#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/joining.hpp"
#include "emulation/workloads/onnx/operators/shape_families.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The elements Slice keeps along one axis: start, start + step, ... (count of them).
struct SliceRange {
    std::int64_t start = 0;
    std::int64_t step = 1;
    std::int64_t count = 0;
};

/// Slice's range of an axis of size `dim` from the given start, end and step, clamped as the
/// specification says: negative start/end count from the end; then, for a positive step, both into
/// [0, dim]; for a negative step, start into [0, dim - 1] and end into [-1, dim - 1].
SliceRange slice_range(std::int64_t start, std::int64_t end, std::int64_t step, std::int64_t dim) {
    auto clamp = [](std::int64_t v, std::int64_t lo, std::int64_t hi) { return v < lo ? lo : v > hi ? hi : v; };
    if (start < 0) start += dim;
    if (end < 0) end += dim;
    SliceRange range{0, step, 0};
    if (step > 0) {
        range.start = clamp(start, 0, dim);
        end = clamp(end, 0, dim);
        if (end > range.start) range.count = (end - range.start - 1) / step + 1;
    } else if (dim > 0) {
        range.start = clamp(start, 0, dim - 1);
        end = clamp(end, -1, dim - 1);
        if (range.start > end) range.count = (range.start - end - 1) / -step + 1;
    }
    return range;
}

template <class Numerics>
Outputs<Numerics> slice(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({});
    const auto& data = call.input(0);
    const std::size_t rank = data.shape.size();
    const std::vector<std::int64_t> starts = integer_list(call.input(1), 1, node);
    const std::vector<std::int64_t> ends = integer_list(call.input(2), 2, node);
    std::vector<std::int64_t> axes(starts.size()), steps(starts.size(), 1);
    for (std::size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<std::int64_t>(i);
    if (const auto* t = call.optional_input(3)) axes = integer_list(*t, 3, node);
    if (const auto* t = call.optional_input(4)) steps = integer_list(*t, 4, node);
    if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
        throw Error(fmt::format("{}: starts, ends, axes and steps have {}, {}, {} and {} entries (one each per axis)",
                                node.describe(), starts.size(), ends.size(), axes.size(), steps.size()));

    std::vector<SliceRange> ranges(rank);
    for (std::size_t d = 0; d < rank; ++d) ranges[d] = {0, 1, data.shape[d]};
    const std::vector<std::size_t> sliced = normalize_axes(axes, rank, node);
    for (std::size_t i = 0; i < sliced.size(); ++i) {
        if (steps[i] == 0) throw Error(fmt::format("{}: step 0 on axis {}", node.describe(), axes[i]));
        ranges[sliced[i]] = slice_range(starts[i], ends[i], steps[i], data.shape[sliced[i]]);
    }
    Shape shape(rank);
    for (std::size_t d = 0; d < rank; ++d) shape[d] = ranges[d].count;
    const std::vector<std::size_t> input_strides = strides(data.shape);
    const std::vector<std::size_t> indices = indices_by_position(shape, [&](const std::vector<std::int64_t>& at) {
        std::size_t index = 0;
        for (std::size_t d = 0; d < rank; ++d)
            index += static_cast<std::size_t>(ranges[d].start + at[d] * ranges[d].step) * input_strides[d];
        return index;
    });
    return {select_elements(data, std::move(shape), indices)};
}

/// An index of Gather or GatherElements into an axis of size `dim` (negative from the end).
std::size_t checked_index(std::int64_t index, std::int64_t dim, const Node& node) {
    if (index < -dim || index >= dim)
        throw Error(fmt::format("{}: index {} is out of range for an axis of size {} (valid: {} to {})",
                                node.describe(), index, dim, -dim, dim - 1));
    return static_cast<std::size_t>(index < 0 ? index + dim : index);
}

template <class Number>
const std::vector<std::int64_t>& index_values(const Tensor<Number>& t, const Node& node) {
    if (t.type != ElementType::Int64 && t.type != ElementType::Int32)
        throw Error(
            fmt::format("{}: input 1 (indices) is {}; int32 or int64 is required", node.describe(), to_string(t.type)));
    return t.integers;
}

template <class Numerics>
Outputs<Numerics> gather(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"axis"});
    const auto& data = call.input(0);
    const auto& indices = call.input(1);
    const std::vector<std::int64_t>& picked = index_values(indices, node);
    const std::size_t axis = normalize_axis(node.int_attribute("axis", 0), data.shape.size(), node);
    const std::int64_t dim = data.shape[axis];
    const auto at = data.shape.begin() + static_cast<std::ptrdiff_t>(axis);
    const std::size_t outer = element_count(Shape(data.shape.begin(), at));
    const std::size_t inner = element_count(Shape(at + 1, data.shape.end()));
    Shape shape(data.shape.begin(), at);
    shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
    shape.insert(shape.end(), at + 1, data.shape.end());

    std::vector<std::size_t> sources;
    sources.reserve(outer * picked.size() * inner);
    for (std::size_t o = 0; o < outer; ++o)
        for (std::int64_t index : picked) {
            const std::size_t base = (o * static_cast<std::size_t>(dim) + checked_index(index, dim, node)) * inner;
            for (std::size_t i = 0; i < inner; ++i) sources.push_back(base + i);
        }
    return {select_elements(data, std::move(shape), sources)};
}

template <class Numerics>
Outputs<Numerics> gather_elements(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"axis"});
    const auto& data = call.input(0);
    const auto& indices = call.input(1);
    const std::vector<std::int64_t>& picked = index_values(indices, node);
    const std::size_t rank = data.shape.size();
    if (indices.shape.size() != rank)
        throw Error(fmt::format("{}: indices of shape {} and data of shape {} must have one rank", node.describe(),
                                describe(indices.shape), describe(data.shape)));
    const std::size_t axis = normalize_axis(node.int_attribute("axis", 0), rank, node);
    for (std::size_t d = 0; d < rank; ++d)
        if (d != axis && indices.shape[d] > data.shape[d])
            throw Error(fmt::format("{}: indices of shape {} reach past data of shape {} on axis {}", node.describe(),
                                    describe(indices.shape), describe(data.shape), d));
    const std::vector<std::size_t> data_strides = strides(data.shape);
    std::size_t flat = 0;
    const std::vector<std::size_t> sources =
        indices_by_position(indices.shape, [&](const std::vector<std::int64_t>& at) {
            std::size_t index = 0;
            for (std::size_t d = 0; d < rank; ++d)
                index +=
                    (d == axis ? checked_index(picked[flat], data.shape[d], node) : static_cast<std::size_t>(at[d])) *
                    data_strides[d];
            ++flat;
            return index;
        });
    return {select_elements(data, indices.shape, sources)};
}

template <class Numerics>
Outputs<Numerics> concat(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"axis"});
    if (!node.has("axis")) throw Error(fmt::format("{}: attribute axis is required", node.describe()));
    std::vector<const Tensor<Number>*> parts;
    for (std::size_t i = 0; i < call.inputs.size(); ++i) parts.push_back(&call.input(i));
    if (parts.empty()) throw Error(fmt::format("{}: Concat needs at least one input", node.describe()));
    const std::size_t axis = normalize_axis(node.int_attribute("axis", 0), parts.front()->shape.size(), node);
    return {concatenated(parts, axis, node)};
}

/// Split's part lengths without input 1: num_outputs parts (Split-18) of ceil(dim / num_outputs),
/// the last shorter where dim does not divide, or (before 18) one equal part per output.
std::vector<std::int64_t> split_lengths(const Node& node, std::int64_t dim, std::size_t parts, std::size_t axis,
                                        const Shape& shape) {
    const auto count = static_cast<std::int64_t>(parts);
    if (node.has("num_outputs")) {
        if (node.int_attribute("num_outputs", 0) != count)
            throw Error(fmt::format("{}: num_outputs is {}, the node has {} outputs", node.describe(),
                                    node.int_attribute("num_outputs", 0), parts));
        const std::int64_t chunk = (dim + count - 1) / count;
        if (chunk * (count - 1) > dim)
            throw Error(fmt::format("{}: axis {} of shape {} does not split into {} parts of {}", node.describe(), axis,
                                    describe(shape), parts, chunk));
        std::vector<std::int64_t> lengths(parts, chunk);
        lengths.back() = dim - chunk * (count - 1);
        return lengths;
    }
    if (dim % count != 0)
        throw Error(fmt::format("{}: axis {} of shape {} does not split into {} equal parts", node.describe(), axis,
                                describe(shape), parts));
    return std::vector<std::int64_t>(parts, dim / count);
}

template <class Numerics>
Outputs<Numerics> split(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"axis", "num_outputs"});
    const auto& data = call.input(0);
    const std::size_t axis = normalize_axis(node.int_attribute("axis", 0), data.shape.size(), node);
    const std::int64_t dim = data.shape[axis];
    const std::size_t parts = node.outputs.size();
    if (parts == 0) throw Error(fmt::format("{}: Split has no outputs", node.describe()));
    std::vector<std::int64_t> lengths;
    if (const auto* t = call.optional_input(1)) {
        lengths = integer_list(*t, 1, node);
        if (lengths.size() != parts || !lengths_sum_to(lengths, dim))
            throw Error(fmt::format("{}: split [{}] must give {} lengths >= 0 summing to {} (axis {} of shape {})",
                                    node.describe(), fmt::join(lengths, ", "), parts, dim, axis, describe(data.shape)));
    } else {
        lengths = split_lengths(node, dim, parts, axis, data.shape);
    }
    return split_along(data, axis, lengths);
}

}  // namespace

void add_indexing_operators(OperatorTable& table) {
    table.add("Slice", [](const auto& call) { return slice(call); });
    table.add("Gather", [](const auto& call) { return gather(call); });
    table.add("GatherElements", [](const auto& call) { return gather_elements(call); });
    table.add("Concat", [](const auto& call) { return concat(call); });
    table.add("Split", [](const auto& call) { return split(call); });
}

}  // namespace floatscope::emu::onnx
