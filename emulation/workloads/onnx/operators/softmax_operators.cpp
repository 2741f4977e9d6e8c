// ONNX operators: Softmax and LogSoftmax along one axis (opset 13's semantics), with the group's
// maximum subtracted first as every kernel does, so that no exp overflows:
//   Softmax:    y_i = exp(x_i - max) / sum_j exp(x_j - max)
//   LogSoftmax: y_i = (x_i - max) - log(sum_j exp(x_j - max))
// exp, the subtractions, the division and log in the compute format; the sum through numerics'
// sum (the accumulate format in an emulated run, exact in the truth).
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/reduction_families.hpp"
#include "emulation/workloads/onnx/operators/reduction_groups.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Call>
TensorsOf<Call> softmax(const Call& call, bool logarithm) {
    call.node.check_attributes({"axis"});
    const auto& x = call.input(0);
    require_floating(x, 0, call.node);
    const auto& n = call.numerics;
    std::vector<bool> reduced(x.shape.size(), false);
    reduced[normalize_axis(call.node.int_attribute("axis", -1), x.shape.size(), call.node)] = true;
    const ReductionGroups groups = reduction_groups(x.shape, reduced);
    if (groups.size == 0) return {x};  // an empty axis: nothing to normalize
    Tensor<NumberOf<Call>> y = x;
    std::vector<NumberOf<Call>> shifted(groups.size), exps(groups.size);
    for (std::size_t g = 0; g < groups.count; ++g) {
        const auto members = groups.group(g);
        auto max = x.numbers[members[0]];
        for (std::size_t i : members) max = n.max(max, x.numbers[i]);
        for (std::size_t j = 0; j < members.size(); ++j) {
            shifted[j] = n.sub(x.numbers[members[j]], max);
            exps[j] = n.apply(Function::Exp, shifted[j]);
        }
        const auto sum = n.sum(exps);
        const auto log_sum = logarithm ? n.apply(Function::Log, sum) : sum;
        for (std::size_t j = 0; j < members.size(); ++j)
            y.numbers[members[j]] = logarithm ? n.sub(shifted[j], log_sum) : n.div(exps[j], sum);
    }
    return {std::move(y)};
}

}  // namespace

void add_softmax_operators(OperatorTable& table) {
    table.add("Softmax", [](const auto& call) { return softmax(call, false); });
    table.add("LogSoftmax", [](const auto& call) { return softmax(call, true); });
}

}  // namespace floatscope::emu::onnx
