// ONNX operators that find the largest or smallest elements along an axis (opsets 13-17): ArgMax,
// ArgMin, Hardmax, TopK. Comparisons through numerics.less, exact in both evaluations, so the
// truth picks by the exact values and an emulated run by its rounded ones.
#include <algorithm>
#include <cstdint>
#include <numeric>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/reduction_groups.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The groups along one axis of a tensor of `shape`: one per position of the other axes.
ReductionGroups axis_groups(const Shape& shape, std::size_t axis) {
    std::vector<bool> reduced(shape.size(), false);
    reduced[axis] = true;
    return reduction_groups(shape, reduced);
}

/// Whether element a of x comes before element b in the order ArgMax (largest) or ArgMin picks by;
/// integers compare as integers.
template <class Call>
bool ahead(const Call& call, const Tensor<NumberOf<Call>>& x, std::size_t a, std::size_t b, bool largest) {
    if (!x.floating()) return largest ? x.integers[b] < x.integers[a] : x.integers[a] < x.integers[b];
    return largest ? call.numerics.less(x.numbers[b], x.numbers[a]) : call.numerics.less(x.numbers[a], x.numbers[b]);
}

/// ArgMax and ArgMin: the int64 position along `axis` of the first (select_last_index: the last)
/// extremum of each group.
template <class Call>
TensorsOf<Call> arg_extremum(const Call& call, bool largest) {
    const Node& node = call.node;
    node.check_attributes({"axis", "keepdims", "select_last_index"});
    const auto& x = call.input(0);
    if (x.type == ElementType::Bool)
        throw Error(fmt::format("{}: the input is bool; the operator takes numbers", node.describe()));
    const std::size_t axis = normalize_axis(node.int_attribute("axis", 0), x.shape.size(), node);
    const bool last = node.int_attribute("select_last_index", 0) != 0;
    const ReductionGroups groups = axis_groups(x.shape, axis);
    if (groups.size == 0 && groups.count != 0)
        throw Error(fmt::format("{}: axis {} of shape {} is empty; it has no extremum", node.describe(), axis,
                                describe(x.shape)));
    Tensor<NumberOf<Call>> result;
    result.type = ElementType::Int64;
    result.shape = node.int_attribute("keepdims", 1) != 0 ? groups.kept_shape : groups.squeezed_shape;
    for (std::size_t g = 0; g < groups.count; ++g) {
        const auto members = groups.group(g);
        std::size_t best = 0;
        for (std::size_t j = 1; j < members.size(); ++j)
            // The last of equal extrema: take j unless the best so far is strictly ahead of it.
            if (last ? !ahead(call, x, members[best], members[j], largest)
                     : ahead(call, x, members[j], members[best], largest))
                best = j;
        result.integers.push_back(static_cast<std::int64_t>(best));
    }
    return {std::move(result)};
}

/// Hardmax: 1 at the first maximum of each group along `axis` (default -1), 0 elsewhere.
template <class Call>
TensorsOf<Call> hardmax(const Call& call) {
    call.node.check_attributes({"axis"});
    const auto& x = call.input(0);
    require_floating(x, 0, call.node);
    const auto& n = call.numerics;
    const ReductionGroups groups =
        axis_groups(x.shape, normalize_axis(call.node.int_attribute("axis", -1), x.shape.size(), call.node));
    auto y = map_numbers(x, [&](const auto&) { return n.from_double(0); });
    for (std::size_t g = 0; g < groups.count && groups.size != 0; ++g) {
        const auto members = groups.group(g);
        std::size_t best = members[0];
        for (std::size_t i : members)
            if (n.less(x.numbers[best], x.numbers[i])) best = i;
        y.numbers[best] = n.from_double(1);
    }
    return {std::move(y)};
}

/// TopK: the k largest (largest = 0: smallest) elements of each group along `axis` and their int64
/// positions, in order (sorted = 0 leaves the order open; this gives the sorted one); equal values
/// in the order of their positions, as the specification asks.
template <class Call>
TensorsOf<Call> top_k(const Call& call) {
    const Node& node = call.node;
    node.check_attributes({"axis", "largest", "sorted"});
    const auto& x = call.input(0);
    if (x.type == ElementType::Bool)
        throw Error(fmt::format("{}: the input is bool; TopK takes numbers", node.describe()));
    const std::vector<std::int64_t> k_list = integer_list(call.input(1), 1, node);
    const std::size_t axis = normalize_axis(node.int_attribute("axis", -1), x.shape.size(), node);
    if (k_list.size() != 1 || k_list[0] < 0 || k_list[0] > x.shape[axis])
        throw Error(fmt::format("{}: k must be one value in [0, {}] (the size of axis {})", node.describe(),
                                x.shape[axis], axis));
    const bool largest = node.int_attribute("largest", 1) != 0;
    const auto k = static_cast<std::size_t>(k_list[0]);
    const ReductionGroups groups = axis_groups(x.shape, axis);
    Shape shape = x.shape;
    shape[axis] = k_list[0];
    const ReductionGroups picked = axis_groups(shape, axis);  // group g of the input fills group g here

    Tensor<NumberOf<Call>> values;
    values.type = x.type;
    values.shape = shape;
    if (x.floating())
        values.numbers.resize(picked.members.size(), call.numerics.from_double(0));
    else
        values.integers.resize(picked.members.size());
    Tensor<NumberOf<Call>> indices;
    indices.type = ElementType::Int64;
    indices.shape = shape;
    indices.integers.resize(picked.members.size());
    std::vector<std::size_t> order(groups.size);
    for (std::size_t g = 0; g < groups.count; ++g) {
        const auto members = groups.group(g);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return ahead(call, x, members[a], members[b], largest); });
        const auto targets = picked.group(g);
        for (std::size_t j = 0; j < k; ++j) {
            if (x.floating())
                values.numbers[targets[j]] = x.numbers[members[order[j]]];
            else
                values.integers[targets[j]] = x.integers[members[order[j]]];
            indices.integers[targets[j]] = static_cast<std::int64_t>(order[j]);
        }
    }
    return {std::move(values), std::move(indices)};
}

}  // namespace

void add_arg_operators(OperatorTable& table) {
    table.add("ArgMax", [](const auto& call) { return arg_extremum(call, true); });
    table.add("ArgMin", [](const auto& call) { return arg_extremum(call, false); });
    table.add("Hardmax", [](const auto& call) { return hardmax(call); });
    table.add("TopK", [](const auto& call) { return top_k(call); });
}

}  // namespace floatscope::emu::onnx
