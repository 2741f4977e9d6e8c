// ONNX operators that address elements by index tuples or write updates into a copy of a tensor
// (to opset 18): GatherND (batch_dims), ScatterElements and ScatterND (reduction none, add, mul, and
// opset 18's max and min), Scatter (opset 9's name of ScatterElements). Updates are applied in the order of the update
// tensor, so repeated indices add or multiply in that order (each operation rounded in an emulated run).
#include <algorithm>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The index values of input `index` (int64 or int32).
template <class Number>
const std::vector<std::int64_t>& index_values(const Tensor<Number>& t, std::size_t index, const Node& node) {
    if (t.type != ElementType::Int64 && t.type != ElementType::Int32)
        throw Error(fmt::format("{}: input {} (indices) is {}; int32 or int64 is required", node.describe(), index,
                                to_string(t.type)));
    return t.integers;
}

/// An index into an axis of size `dim` (negative from the end).
std::size_t checked_index(std::int64_t index, std::int64_t dim, const Node& node) {
    if (index < -dim || index >= dim)
        throw Error(fmt::format("{}: index {} is out of range for an axis of size {} (valid: {} to {})",
                                node.describe(), index, dim, -dim, dim - 1));
    return static_cast<std::size_t>(index < 0 ? index + dim : index);
}

/// The offset of the slice an index tuple (the last axis of the indices, at `tuple`) addresses in
/// the dimensions first, first + 1, ... of `data_shape`.
std::size_t tuple_offset(const std::vector<std::int64_t>& indices, std::size_t tuple, std::size_t length,
                         const Shape& data_shape, std::size_t first, const Node& node) {
    const std::vector<std::size_t> data_strides = strides(data_shape);
    std::size_t offset = 0;
    for (std::size_t j = 0; j < length; ++j)
        offset += checked_index(indices[tuple * length + j], data_shape[first + j], node) * data_strides[first + j];
    return offset;
}

template <class Numerics>
Outputs<Numerics> gather_nd(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"batch_dims"});
    const auto& data = call.input(0);
    const auto& indices = call.input(1);
    const std::vector<std::int64_t>& picked = index_values(indices, 1, node);
    const std::int64_t batch_dims = node.int_attribute("batch_dims", 0);
    const std::size_t q = indices.shape.size(), r = data.shape.size();
    if (q < 1 || r < 1 || batch_dims < 0 || static_cast<std::size_t>(batch_dims) >= std::min(q, r))
        throw Error(
            fmt::format("{}: batch_dims {} with data of shape {} and indices of shape {} (it must be below "
                        "both ranks)",
                        node.describe(), batch_dims, describe(data.shape), describe(indices.shape)));
    const auto b = static_cast<std::size_t>(batch_dims);
    const auto length = static_cast<std::size_t>(indices.shape.back());
    for (std::size_t d = 0; d < b; ++d)
        if (indices.shape[d] != data.shape[d])
            throw Error(fmt::format("{}: the batch dimensions of data {} and indices {} differ", node.describe(),
                                    describe(data.shape), describe(indices.shape)));
    if (b + length > r)
        throw Error(fmt::format("{}: index tuples of {} values address data of rank {} past batch_dims {}",
                                node.describe(), length, r, b));
    Shape shape(indices.shape.begin(), indices.shape.end() - 1);
    shape.insert(shape.end(), data.shape.begin() + static_cast<std::ptrdiff_t>(b + length), data.shape.end());
    const std::size_t slice =
        element_count(Shape(data.shape.begin() + static_cast<std::ptrdiff_t>(b + length), data.shape.end()));
    const std::size_t batch_size =
        element_count(Shape(data.shape.begin() + static_cast<std::ptrdiff_t>(b), data.shape.end()));
    const std::size_t tuples = element_count(Shape(indices.shape.begin(), indices.shape.end() - 1));
    const std::size_t tuples_per_batch =
        element_count(Shape(indices.shape.begin() + static_cast<std::ptrdiff_t>(b), indices.shape.end() - 1));
    std::vector<std::size_t> sources;
    sources.reserve(tuples * slice);
    for (std::size_t t = 0; t < tuples; ++t) {
        const std::size_t base =
            t / tuples_per_batch * batch_size + tuple_offset(picked, t, length, data.shape, b, node);
        for (std::size_t i = 0; i < slice; ++i) sources.push_back(base + i);
    }
    return {select_elements(data, std::move(shape), sources)};
}

enum class ScatterReduction { None, Add, Mul, Max, Min };

ScatterReduction scatter_reduction(const Node& node) {
    const std::string name = node.string_attribute("reduction", "none");
    if (name == "none") return ScatterReduction::None;
    if (name == "add") return ScatterReduction::Add;
    if (name == "mul") return ScatterReduction::Mul;
    if (name == "max") return ScatterReduction::Max;
    if (name == "min") return ScatterReduction::Min;
    throw Unsupported(
        fmt::format("{}: attribute reduction is '{}' (supported: none, add, mul, max, min)", node.describe(), name));
}

/// Writes update element `from` of `updates` into element `to` of `result` under `reduction`.
template <class Numerics>
void scatter_one(const Numerics& n, ScatterReduction reduction, Tensor<typename Numerics::Number>& result,
                 std::size_t to, const Tensor<typename Numerics::Number>& updates, std::size_t from) {
    if (result.floating()) {
        auto& v = result.numbers[to];
        const auto& u = updates.numbers[from];
        switch (reduction) {
            case ScatterReduction::None: v = u; break;
            case ScatterReduction::Add: v = n.add(v, u); break;
            case ScatterReduction::Mul: v = n.mul(v, u); break;
            case ScatterReduction::Max: v = n.max(v, u); break;
            case ScatterReduction::Min: v = n.min(v, u); break;
        }
        return;
    }
    auto& v = result.integers[to];
    const std::int64_t u = updates.integers[from];
    const auto uv = static_cast<std::uint64_t>(v), uu = static_cast<std::uint64_t>(u);
    switch (reduction) {
        case ScatterReduction::None: v = u; break;
        case ScatterReduction::Add: v = wrap_integer(uv + uu, result.type); break;
        case ScatterReduction::Mul: v = wrap_integer(uv * uu, result.type); break;
        case ScatterReduction::Max: v = std::max(v, u); break;
        case ScatterReduction::Min: v = std::min(v, u); break;
    }
}

template <class Numerics>
void require_updates_type(const Tensor<typename Numerics::Number>& data,
                          const Tensor<typename Numerics::Number>& updates, const Node& node) {
    if (data.type != updates.type && !(data.floating() && updates.floating()))
        throw Error(fmt::format("{}: data ({}) and updates ({}) must be of one type", node.describe(),
                                to_string(data.type), to_string(updates.type)));
}

template <class Numerics>
Outputs<Numerics> scatter_elements(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"axis", "reduction"});
    const ScatterReduction reduction = scatter_reduction(node);
    const auto& data = call.input(0);
    const auto& indices = call.input(1);
    const auto& updates = call.input(2);
    require_updates_type<Numerics>(data, updates, node);
    const std::vector<std::int64_t>& targets = index_values(indices, 1, node);
    const std::size_t rank = data.shape.size();
    if (indices.shape.size() != rank || updates.shape != indices.shape)
        throw Error(
            fmt::format("{}: data {}, indices {} and updates {} must have one rank, and indices and updates "
                        "one shape",
                        node.describe(), describe(data.shape), describe(indices.shape), describe(updates.shape)));
    const std::size_t axis = normalize_axis(node.int_attribute("axis", 0), rank, node);
    for (std::size_t d = 0; d < rank; ++d)
        if (d != axis && indices.shape[d] > data.shape[d])
            throw Error(fmt::format("{}: indices of shape {} reach past data of shape {} on axis {}", node.describe(),
                                    describe(indices.shape), describe(data.shape), d));
    const std::vector<std::size_t> data_strides = strides(data.shape);
    std::size_t flat = 0;
    const std::vector<std::size_t> destinations =
        indices_by_position(indices.shape, [&](const std::vector<std::int64_t>& at) {
            std::size_t index = 0;
            for (std::size_t d = 0; d < rank; ++d)
                index +=
                    (d == axis ? checked_index(targets[flat], data.shape[d], node) : static_cast<std::size_t>(at[d])) *
                    data_strides[d];
            ++flat;
            return index;
        });
    auto result = data;
    for (std::size_t i = 0; i < destinations.size(); ++i)
        scatter_one(call.numerics, reduction, result, destinations[i], updates, i);
    return {std::move(result)};
}

template <class Numerics>
Outputs<Numerics> scatter_nd(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"reduction"});
    const ScatterReduction reduction = scatter_reduction(node);
    const auto& data = call.input(0);
    const auto& indices = call.input(1);
    const auto& updates = call.input(2);
    require_updates_type<Numerics>(data, updates, node);
    const std::vector<std::int64_t>& targets = index_values(indices, 1, node);
    if (indices.shape.empty() || static_cast<std::size_t>(indices.shape.back()) > data.shape.size())
        throw Error(fmt::format("{}: indices of shape {} do not address data of shape {}", node.describe(),
                                describe(indices.shape), describe(data.shape)));
    const auto length = static_cast<std::size_t>(indices.shape.back());
    // updates: indices.shape[:-1] + data.shape[length:]
    Shape expected(indices.shape.begin(), indices.shape.end() - 1);
    expected.insert(expected.end(), data.shape.begin() + static_cast<std::ptrdiff_t>(length), data.shape.end());
    if (updates.shape != expected)
        throw Error(fmt::format("{}: updates have shape {}; indices {} into data {} need {}", node.describe(),
                                describe(updates.shape), describe(indices.shape), describe(data.shape),
                                describe(expected)));
    const std::size_t slice =
        element_count(Shape(data.shape.begin() + static_cast<std::ptrdiff_t>(length), data.shape.end()));
    const std::size_t tuples = element_count(Shape(indices.shape.begin(), indices.shape.end() - 1));
    auto result = data;
    for (std::size_t t = 0; t < tuples; ++t) {
        const std::size_t base = tuple_offset(targets, t, length, data.shape, 0, node);
        for (std::size_t i = 0; i < slice; ++i)
            scatter_one(call.numerics, reduction, result, base + i, updates, t * slice + i);
    }
    return {std::move(result)};
}

}  // namespace

void add_scatter_operators(OperatorTable& table) {
    table.add("GatherND", [](const auto& call) { return gather_nd(call); });
    table.add("ScatterElements", [](const auto& call) { return scatter_elements(call); });
    table.add("Scatter", [](const auto& call) { return scatter_elements(call); });
    table.add("ScatterND", [](const auto& call) { return scatter_nd(call); });
}

}  // namespace floatscope::emu::onnx
