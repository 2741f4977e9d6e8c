// Checks of operator inputs shared by the operator families, with errors that name the node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/tensor.hpp"
#include "emulation/workloads/onnx/tensor_allowance.hpp"

namespace floatscope::emu::onnx {

/// Throws unless `t` (input `index` of the node) holds a floating type.
template <class Number>
void require_floating(const Tensor<Number>& t, std::size_t index, const Node& node) {
    if (!t.floating())
        throw Error(fmt::format("{}: input {} is {}; the operator takes float, double, float16 or bfloat16",
                                node.describe(), index, to_string(t.type)));
}

/// Throws unless `t` (input `index`) is of type `type`.
template <class Number>
void require_type(const Tensor<Number>& t, ElementType type, std::size_t index, const Node& node) {
    if (t.type != type)
        throw Error(fmt::format("{}: input {} is {}; the operator takes {} there", node.describe(), index,
                                to_string(t.type), to_string(type)));
}

/// The number of elements of `shape` as a double: a hostile shape's product is large, not wrapped.
inline double elements_in(const Shape& shape) {
    double elements = 1;
    for (std::int64_t d : shape) elements *= static_cast<double>(d);
    return elements;
}

/// Refuses, naming the node, an output of `shape` that would pass the memory limit beside the
/// graph's tensors, with `indices_per_element` indices for each of its elements made beside it
/// (require_tensor): asked before the output is allocated, so that a huge output is refused at
/// once rather than after it was made.
inline void require_output(const Node& node, const Shape& shape, bool floating, double indices_per_element = 0) {
    const double elements = elements_in(shape);
    require_tensor(fmt::format("{}: an output of shape {}", node.describe(), describe(shape)), elements, floating,
                   indices_per_element * elements);
}

/// Throws unless `a` and `b` (inputs `ia` and `ib`) share one type T as the operator's signature
/// asks; floating types count as one (an emulated run may carry them in another format).
template <class Number>
void require_same_type(const Tensor<Number>& a, const Tensor<Number>& b, std::size_t ia, std::size_t ib,
                       const Node& node) {
    if (a.type != b.type && !(a.floating() && b.floating()))
        throw Error(fmt::format("{}: inputs {} ({}) and {} ({}) must be of one type", node.describe(), ia,
                                to_string(a.type), ib, to_string(b.type)));
}

/// The values of an int64 (or int32) input holding a list: axes, a shape.
template <class Number>
std::vector<std::int64_t> integer_list(const Tensor<Number>& t, std::size_t index, const Node& node) {
    if (t.type != ElementType::Int64 && t.type != ElementType::Int32)
        throw Error(fmt::format("{}: input {} is {}; int64 is required", node.describe(), index, to_string(t.type)));
    if (t.shape.size() > 1)
        throw Error(fmt::format("{}: input {} has shape {}; a list (rank 1) is required", node.describe(), index,
                                describe(t.shape)));
    return t.integers;
}

/// The one value of an int64 (or int32) input holding a scalar (or a one-element list): a length, a step.
template <class Number>
std::int64_t integer_scalar(const Tensor<Number>& t, std::size_t index, const Node& node) {
    const std::vector<std::int64_t> values = integer_list(t, index, node);
    if (values.size() != 1)
        throw Error(fmt::format("{}: input {} must hold one value; it holds {}", node.describe(), index, values.size()));
    return values[0];
}

}  // namespace floatscope::emu::onnx
