// ONNX's loss operators (opsets 13-17): NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss
// (LogSoftmax along the class axis, then the same loss; its optional output 1 the log
// probabilities). Input (N, C, d1, ..., dk), target (N, d1, ..., dk) of class indices, an optional
// weight per class, ignore_index (those elements weigh 0), reduction none, sum or mean (the sum
// divided by the sum of the weights taken, or by the count of elements taken without weights).
// Each loss element is -input * weight; sums go through numerics.sum.
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/softmax.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

enum class LossReduction { None, Sum, Mean };

LossReduction loss_reduction(const Node& node) {
    const std::string name = node.string_attribute("reduction", "mean");
    if (name == "none") return LossReduction::None;
    if (name == "sum") return LossReduction::Sum;
    if (name == "mean") return LossReduction::Mean;
    throw Error(fmt::format("{}: attribute reduction is '{}' (valid: none, sum, mean)", node.describe(), name));
}

/// The loss of log probabilities `input` (N, C, ...) against `target` (N, ...), inputs 1 and 2
/// of the node being target and weight.
template <class Call>
Tensor<NumberOf<Call>> negative_log_likelihood(const Call& call, const Tensor<NumberOf<Call>>& input) {
    const Node& node = call.node;
    const auto& n = call.numerics;
    const auto& target = call.input(1);
    const auto* weight = call.optional_input(2);
    require_floating(input, 0, node);
    if (target.type != ElementType::Int64 && target.type != ElementType::Int32)
        throw Error(fmt::format("{}: input 1 (target) is {}; int32 or int64 is required", node.describe(),
                                to_string(target.type)));
    const Shape& shape = input.shape;
    Shape expected = shape;
    if (shape.size() >= 2) expected.erase(expected.begin() + 1);
    if (shape.size() < 2 || target.shape != expected)
        throw Error(
            fmt::format("{}: input of shape {} and target of shape {}: (N, C, d1, ...) and (N, d1, ...) are "
                        "required",
                        node.describe(), describe(shape), describe(target.shape)));
    const std::int64_t classes = shape[1];
    if (weight) {
        require_floating(*weight, 2, node);
        if (weight->shape != Shape{classes})
            throw Error(fmt::format("{}: input 2 (weight) has shape {}; one weight per class ({}) is required",
                                    node.describe(), describe(weight->shape), classes));
    }
    const bool ignores = node.has("ignore_index");
    const std::int64_t ignore_index = node.int_attribute("ignore_index", -1);
    const LossReduction reduction = loss_reduction(node);

    const std::size_t inner = element_count(Shape(shape.begin() + 2, shape.end()));
    const auto zero = n.from_double(0), one = n.from_double(1);
    std::vector<NumberOf<Call>> losses, weights;
    losses.reserve(target.integers.size());
    weights.reserve(target.integers.size());
    for (std::size_t t = 0; t < target.integers.size(); ++t) {
        const std::int64_t c = target.integers[t];
        if (ignores && c == ignore_index) {
            losses.push_back(zero);
            weights.push_back(zero);
            continue;
        }
        if (c < 0 || c >= classes)
            throw Error(
                fmt::format("{}: target {} is not a class in [0, {}) nor ignore_index", node.describe(), c, classes));
        const std::size_t batch = t / inner, at = t % inner;
        const auto& x =
            input.numbers[(batch * static_cast<std::size_t>(classes) + static_cast<std::size_t>(c)) * inner + at];
        const auto& w = weight ? weight->numbers[static_cast<std::size_t>(c)] : one;
        losses.push_back(weight ? n.mul(w, n.apply(Function::Neg, x)) : n.apply(Function::Neg, x));
        weights.push_back(w);
    }
    if (reduction == LossReduction::None) return number_tensor(input.type, target.shape, std::move(losses));
    auto total = n.sum(losses);
    if (reduction == LossReduction::Mean) total = n.div(total, n.sum(weights));
    return number_tensor(input.type, Shape{}, std::vector{total});
}

template <class Call>
TensorsOf<Call> negative_log_likelihood_loss(const Call& call) {
    call.node.check_attributes({"reduction", "ignore_index"});
    return {negative_log_likelihood(call, call.input(0))};
}

template <class Call>
TensorsOf<Call> softmax_cross_entropy_loss(const Call& call) {
    call.node.check_attributes({"reduction", "ignore_index"});
    const auto& scores = call.input(0);
    require_floating(scores, 0, call.node);
    if (scores.shape.size() < 2)
        throw Error(fmt::format("{}: scores of shape {}; (N, C, d1, ...) is required", call.node.describe(),
                                describe(scores.shape)));
    auto log_prob = softmax_along(call.numerics, writable_input(call, 0), 1, true);
    auto loss = negative_log_likelihood(call, log_prob);
    if (call.node.outputs.size() < 2) return {std::move(loss)};
    return {std::move(loss), std::move(log_prob)};
}

}  // namespace

void add_loss_operators(OperatorTable& table) {
    table.add("NegativeLogLikelihoodLoss", [](const auto& call) { return negative_log_likelihood_loss(call); });
    table.add("SoftmaxCrossEntropyLoss", [](const auto& call) { return softmax_cross_entropy_loss(call); });
}

}  // namespace floatscope::emu::onnx
