// ONNX operators: Softmax and LogSoftmax along one axis (opset 13's semantics; softmax.hpp).
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/moved_outputs.hpp"
#include "emulation/workloads/onnx/operators/reduction_families.hpp"
#include "emulation/workloads/onnx/operators/softmax.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Call>
TensorsOf<Call> softmax(const Call& call, bool logarithm) {
    call.node.check_attributes({"axis"});
    const auto& x = call.input(0);
    require_floating(x, 0, call.node);
    const std::size_t axis = normalize_axis(call.node.int_attribute("axis", -1), x.shape.size(), call.node);
    return moved_outputs(softmax_along(call.numerics, writable_input(call, 0), axis, logarithm));
}

}  // namespace

void add_softmax_operators(OperatorTable& table) {
    table.add("Softmax", [](const auto& call) { return softmax(call, false); });
    table.add("LogSoftmax", [](const auto& call) { return softmax(call, true); });
}

}  // namespace floatscope::emu::onnx
