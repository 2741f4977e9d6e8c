// Numpy (multidirectional) broadcasting of the operands of an elementwise operator.
#pragma once

#include <cstddef>
#include <vector>

#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// The result shape of broadcasting operands together, and for each operand the index of its
/// element that each result element (row-major) reads.
struct Broadcast {
    Shape shape;
    std::vector<std::vector<std::size_t>> indices;  ///< indices[operand][result element]
};

/// Broadcasts `shapes` (one per operand, at least one); throws floatscope::Error naming the node
/// and the shapes when they do not broadcast, or when the result (of `result_type`) and the
/// indices would pass the memory limit (require_output, before either is allocated).
Broadcast broadcast_operands(const std::vector<Shape>& shapes, ElementType result_type, const Node& node);

/// Checks that `operand` broadcasts to `target` without changing it (ONNX's unidirectional
/// broadcasting: LayerNormalization's Scale, PRelu's slope) and returns the indices it reads;
/// throws floatscope::Error naming the node and `what` otherwise.
std::vector<std::size_t> unidirectional_indices(const Shape& operand, const Shape& target, const char* what,
                                                const Node& node);

}  // namespace floatscope::emu::onnx
