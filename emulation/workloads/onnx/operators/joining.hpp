// Joining tensors along an axis and cutting one into parts, written once for Concat and Split and
// for the sequence operators that do the same to a sequence's tensors (ConcatFromSequence,
// SplitToSequence).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

/// `parts` (at least one; of one type, and shapes that differ on `axis` only) joined along `axis`;
/// throws floatscope::Error naming the node and the parts (by their place) otherwise.
template <class Number>
Tensor<Number> concatenated(const std::vector<const Tensor<Number>*>& parts, std::size_t axis, const Node& node) {
    const Tensor<Number>& first = *parts.front();
    Shape shape = first.shape;
    shape[axis] = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const Tensor<Number>& part = *parts[i];
        require_same_type(first, part, 0, i, node);
        bool fits = part.shape.size() == first.shape.size();
        for (std::size_t d = 0; fits && d < shape.size(); ++d) fits = d == axis || part.shape[d] == first.shape[d];
        if (!fits)
            throw Error(fmt::format("{}: input {} has shape {}, input 0 {}: they may differ on axis {} only",
                                    node.describe(), i, describe(part.shape), describe(first.shape), axis));
        shape[axis] += part.shape[axis];
    }
    const auto at = first.shape.begin() + static_cast<std::ptrdiff_t>(axis);
    const std::size_t outer = element_count(Shape(first.shape.begin(), at));
    const std::size_t inner = element_count(Shape(at + 1, first.shape.end()));
    Tensor<Number> result;
    result.type = first.type;
    result.shape = std::move(shape);
    with_value_member<Number>(first.type, [&](auto member) {
        auto& values = result.*member;
        values.reserve(element_count(result.shape));
        for (std::size_t o = 0; o < outer; ++o)
            for (const Tensor<Number>* part : parts) {
                const std::size_t block = static_cast<std::size_t>(part->shape[axis]) * inner;
                const auto begin = (part->*member).begin() + static_cast<std::ptrdiff_t>(o * block);
                values.insert(values.end(), begin, begin + static_cast<std::ptrdiff_t>(block));
            }
    });
    return result;
}

/// Whether `lengths` (Split's and SplitToSequence's split input) are each >= 0 and sum to `dim`.
inline bool lengths_sum_to(const std::vector<std::int64_t>& lengths, std::int64_t dim) {
    std::int64_t total = 0;
    for (std::int64_t l : lengths) total += l < 0 ? dim + 1 : l;  // a negative length never sums to dim
    return total == dim;
}

/// `data` cut along `axis` into consecutive parts of `lengths` (which sum to its length there).
template <class Number>
std::vector<Tensor<Number>> split_along(const Tensor<Number>& data, std::size_t axis,
                                        const std::vector<std::int64_t>& lengths) {
    const std::vector<std::size_t> input_strides = strides(data.shape);
    std::vector<Tensor<Number>> parts;
    std::int64_t offset = 0;
    for (std::int64_t length : lengths) {
        Shape shape = data.shape;
        shape[axis] = length;
        const std::vector<std::size_t> indices = indices_by_position(shape, [&](const std::vector<std::int64_t>& at) {
            std::size_t index = 0;
            for (std::size_t d = 0; d < at.size(); ++d)
                index += static_cast<std::size_t>(at[d] + (d == axis ? offset : 0)) * input_strides[d];
            return index;
        });
        parts.push_back(select_elements(data, std::move(shape), indices));
        offset += length;
    }
    return parts;
}

}  // namespace floatscope::emu::onnx
