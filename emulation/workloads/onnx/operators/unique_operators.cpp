// ONNX's Unique (opset 11): the distinct elements of a tensor (or, with axis, its distinct slices
// along axis), sorted or in the order they first occur, with the index of each one's first
// occurrence, the inverse indices that rebuild the input and the counts. Exact in both evaluations:
// values are compared, never computed (NaN equals no value, as numpy's unique sees it).
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Numerics>
Outputs<Numerics> unique(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"axis", "sorted"});
    const auto& data = call.input(0);
    const Numerics& n = call.numerics;
    // Without axis the elements of the flattened input are the slices (of one element each).
    const Shape flat{static_cast<std::int64_t>(element_count(data.shape))};
    const Shape& shape = node.has("axis") ? data.shape : flat;
    const std::size_t axis = node.has("axis") ? normalize_axis(node.int_attribute("axis", 0), shape.size(), node) : 0;
    const auto length = static_cast<std::size_t>(shape[axis]);
    const std::size_t outer = element_count(Shape(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(axis)));
    const std::size_t inner = element_count(Shape(shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1, shape.end()));
    // Element k (row-major) of slice s.
    const auto element = [&](std::size_t s, std::size_t k) { return ((k / inner) * length + s) * inner + k % inner; };
    const std::size_t slice_size = outer * inner;
    // -1, 0, 1: slice a before, equal to, after slice b (lexicographically, as numpy sorts them).
    const auto compare = [&](std::size_t a, std::size_t b) {
        for (std::size_t k = 0; k < slice_size; ++k) {
            const std::size_t i = element(a, k), j = element(b, k);
            if (data.floating()) {
                if (n.less(data.numbers[i], data.numbers[j])) return -1;
                if (n.less(data.numbers[j], data.numbers[i])) return 1;
                if (!n.equal(data.numbers[i], data.numbers[j])) return a < b ? -1 : 1;  // NaN: distinct
            } else if (data.integers[i] != data.integers[j]) {
                return data.integers[i] < data.integers[j] ? -1 : 1;
            }
        }
        return 0;
    };
    std::vector<std::size_t> order(length);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return compare(a, b) < 0; });
    // Groups of equal slices in sorted order: each one's first occurrence (the stable sort keeps it first).
    std::vector<std::size_t> firsts, group_of(length);
    for (std::size_t i = 0; i < length; ++i) {
        if (i == 0 || compare(order[i - 1], order[i]) != 0) firsts.push_back(order[i]);
        group_of[order[i]] = firsts.size() - 1;
    }
    std::vector<std::size_t> groups(firsts.size());  // the groups in output order
    std::iota(groups.begin(), groups.end(), 0);
    if (node.int_attribute("sorted", 1) == 0)
        std::sort(groups.begin(), groups.end(), [&](std::size_t a, std::size_t b) { return firsts[a] < firsts[b]; });
    std::vector<std::size_t> position(groups.size());
    for (std::size_t p = 0; p < groups.size(); ++p) position[groups[p]] = p;

    Shape result_shape = shape;
    result_shape[axis] = static_cast<std::int64_t>(groups.size());
    const std::vector<std::size_t> picks = indices_by_position(result_shape, [&](const std::vector<std::int64_t>& at) {
        std::size_t k = 0;  // the element's place within its slice
        for (std::size_t d = 0; d < at.size(); ++d)
            if (d != axis) k = k * static_cast<std::size_t>(shape[d]) + static_cast<std::size_t>(at[d]);
        return element(firsts[groups[static_cast<std::size_t>(at[axis])]], k);
    });
    std::vector<std::int64_t> indices, inverse, counts(groups.size(), 0);
    for (std::size_t g : groups) indices.push_back(static_cast<std::int64_t>(firsts[g]));
    for (std::size_t s = 0; s < length; ++s) {
        inverse.push_back(static_cast<std::int64_t>(position[group_of[s]]));
        ++counts[position[group_of[s]]];
    }
    const auto count = static_cast<std::int64_t>(groups.size());
    return {select_elements(data, std::move(result_shape), picks),
            integer_tensor<Number>(ElementType::Int64, {count}, std::move(indices)),
            integer_tensor<Number>(ElementType::Int64, {static_cast<std::int64_t>(length)}, std::move(inverse)),
            integer_tensor<Number>(ElementType::Int64, {count}, std::move(counts))};
}

}  // namespace

void add_unique_operators(OperatorTable& table) {
    table.add("Unique", [](const auto& call) { return unique(call); });
}

}  // namespace floatscope::emu::onnx
