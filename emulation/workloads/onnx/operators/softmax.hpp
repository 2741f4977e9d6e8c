// Softmax and LogSoftmax of a floating tensor along one axis, with the group's maximum subtracted
// first as every kernel does, so that no exp overflows:
//   Softmax:    y_i = exp(x_i - max) / sum_j exp(x_j - max)
//   LogSoftmax: y_i = (x_i - max) - log(sum_j exp(x_j - max))
// exp, the subtractions, the division and log in the compute format; the sum through numerics'
// sum (the accumulate format in an emulated run, exact in the truth). Softmax, LogSoftmax and
// SoftmaxCrossEntropyLoss share it.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "emulation/workloads/onnx/numerics.hpp"
#include "emulation/workloads/onnx/operators/elementwise_arrays.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/reduction_groups.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// One group of softmax_along in an emulated run with deterministic compute rounding: the
/// subtraction of the maximum and the division (or LogSoftmax's subtraction) over the group's whole
/// array (EmulatedNumerics::apply, vectorized), each element rounded as the scalar steps round it;
/// exp, the sum and log as in the scalar form. x may be y: the group is read before it is written.
template <class Numerics>
void softmax_group_arrays(const Numerics& n, const Tensor<double>& x, double max, std::span<const std::size_t> members,
                          bool logarithm, std::vector<double>& shifted, std::vector<double>& exps, Tensor<double>& y) {
    for (std::size_t j = 0; j < members.size(); ++j) exps[j] = x.numbers[members[j]];  // the group's values
    const double max_value[] = {max};
    n.apply(Operation::Sub, exps, max_value, shifted);
    for (std::size_t j = 0; j < members.size(); ++j) exps[j] = n.apply(Function::Exp, shifted[j]);
    const double sum = n.sum(exps);
    const double divisor[] = {logarithm ? n.apply(Function::Log, sum) : sum};
    // The results over `shifted`, which the division no longer needs.
    if (logarithm)
        n.apply(Operation::Sub, shifted, divisor, shifted);
    else
        n.apply(Operation::Div, exps, divisor, shifted);
    for (std::size_t j = 0; j < members.size(); ++j) y.numbers[members[j]] = shifted[j];
}

/// The maximum of a group as numerics' max takes it pairwise from its first member on (NaN
/// propagates); the truth's without a copy of each running maximum (its max returns a copy).
template <class Numerics>
typename Numerics::Number group_max(const Numerics& n, const std::vector<typename Numerics::Number>& values,
                                    std::span<const std::size_t> members) {
    if constexpr (std::is_same_v<Numerics, TruthNumerics>) {
        const TruthNumber* max = &values[members[0]];  // TruthNumerics::max(max, v), by reference
        for (std::size_t i : members)
            if (!n.is_nan(*max) && (n.is_nan(values[i]) || n.less(*max, values[i]))) max = &values[i];
        return *max;
    } else {
        typename Numerics::Number max = values[members[0]];
        for (std::size_t i : members) max = n.max(max, values[i]);
        return max;
    }
}

/// The softmax (or log-softmax) of y along `axis`, written over y's numbers: the operator's copy of
/// its input, or the input's own numbers where it may take them (writable_input).
template <class Numerics>
Tensor<typename Numerics::Number> softmax_along(const Numerics& n, Tensor<typename Numerics::Number> y,
                                                std::size_t axis, bool logarithm) {
    std::vector<bool> reduced(y.shape.size(), false);
    reduced[axis] = true;
    const ReductionGroups groups = reduction_groups(y.shape, reduced);
    if (groups.size == 0) return y;  // an empty axis: nothing to normalize
    using Number = typename Numerics::Number;
    // Each step written into a number of its own (assign_operation): the truth makes no number per
    // step, and y's numbers take the results, each group's once the group has read them.
    // Groups write to their own members alone: the truth's groups go to its threads.
    const bool worth_threads = groups.count > 1 && groups.count * groups.size >= elements_worth_threads;
    for_each_chunk<Number>(groups.count, worth_threads, [&](std::size_t begin, std::size_t end) {
        std::vector<Number> shifted(groups.size), exps(groups.size);
        for (std::size_t g = begin; g < end; ++g) {
            const auto members = groups.group(g);
            const Number max = group_max(n, y.numbers, members);
            if constexpr (ArrayNumerics<Numerics>) {
                if (!n.rounds_stochastically()) {
                    softmax_group_arrays(n, y, max, members, logarithm, shifted, exps, y);
                    continue;
                }
            }
            for (std::size_t j = 0; j < members.size(); ++j) {
                assign_operation(n, Operation::Sub, y.numbers[members[j]], max, shifted[j]);
                assign_function(n, Function::Exp, shifted[j], exps[j]);
            }
            const Number sum = n.sum(exps);
            const Number log_sum = logarithm ? n.apply(Function::Log, sum) : sum;
            for (std::size_t j = 0; j < members.size(); ++j) {
                if (logarithm)
                    assign_operation(n, Operation::Sub, shifted[j], log_sum, y.numbers[members[j]]);
                else
                    assign_operation(n, Operation::Div, exps[j], sum, y.numbers[members[j]]);
            }
        }
    });
    return y;
}

}  // namespace floatscope::emu::onnx
