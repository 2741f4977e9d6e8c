// Numpy broadcasting of elementwise operands.
#include "emulation/workloads/onnx/operators/broadcast.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

Broadcast broadcast_operands(const std::vector<Shape>& shapes, ElementType result_type, const Node& node) {
    Broadcast b;
    if (shapes.empty()) throw Error(fmt::format("{}: at least one input is required", node.describe()));
    b.shape = shapes.front();
    for (const Shape& s : shapes) b.shape = broadcast_shapes(b.shape, s, node.describe());
    require_output(node, b.shape, is_floating(result_type), static_cast<double>(shapes.size()));
    for (const Shape& s : shapes) b.indices.push_back(broadcast_indices(s, b.shape));
    return b;
}

std::vector<std::size_t> unidirectional_indices(const Shape& operand, const Shape& target, const char* what,
                                                const Node& node) {
    bool fits = operand.size() <= target.size();
    for (std::size_t d = 0; fits && d < operand.size(); ++d) {
        const std::int64_t dim = operand[operand.size() - 1 - d];
        fits = dim == 1 || dim == target[target.size() - 1 - d];
    }
    if (!fits)
        throw Error(fmt::format("{}: {} has shape {}, which does not broadcast to {}", node.describe(), what,
                                describe(operand), describe(target)));
    return broadcast_indices(operand, target);
}

}  // namespace floatscope::emu::onnx
