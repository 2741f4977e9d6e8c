// ONNX operators: BatchNormalization (inference and training mode), LayerNormalization (opset 17),
// GroupNormalization (18 and 21), InstanceNormalization, LRN, MeanVarianceNormalization. Means are sums through
// numerics' sum (the accumulate format in an emulated run, exact in the truth) divided by the count in the compute
// format; everything else is compute. epsilon's default is the float 1e-5f, as a model would store it.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/broadcast.hpp"
#include "emulation/workloads/onnx/operators/elementwise_arrays.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/moved_outputs.hpp"
#include "emulation/workloads/onnx/operators/reduction_families.hpp"
#include "emulation/workloads/onnx/operators/reduction_groups.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The mean of a group, the deviations from it and the mean of their squares (the biased
/// variance), in two passes as the ONNX specification's function of LayerNormalization writes it.
template <class Number>
struct Moments {
    Number mean;
    std::vector<Number> deviations;
    Number variance;
};

template <class Numerics>
Moments<typename Numerics::Number> moments(const Numerics& n, std::vector<typename Numerics::Number> values) {
    const auto count = n.from_double(static_cast<double>(values.size()));
    Moments<typename Numerics::Number> m{n.div(n.sum(values), count), {}, {}};
    for (auto& v : values) v = n.sub(v, m.mean);
    m.deviations = values;
    for (auto& v : values) v = n.mul(v, v);
    m.variance = n.div(n.sum(values), count);
    return m;
}

/// Input `index`, which must hold `count` values (one per channel).
template <class Number>
const Tensor<Number>& per_channel(const Tensor<Number>& t, std::size_t index, std::size_t count, const Node& node) {
    require_floating(t, index, node);
    if (t.shape.size() != 1 || t.numbers.size() != count)
        throw Error(fmt::format("{}: input {} has shape {}; [{}] (one value per channel) is required", node.describe(),
                                index, describe(t.shape), count));
    return t;
}

/// The channel count of x (dimension 1, x of rank 2 or more).
template <class Number>
std::size_t channels(const Tensor<Number>& x, const Node& node) {
    require_floating(x, 0, node);
    if (x.shape.size() < 2)
        throw Error(fmt::format("{}: input 0 has shape {}; (N, C, ...) of rank 2 or more is required", node.describe(),
                                describe(x.shape)));
    return static_cast<std::size_t>(x.shape[1]);
}

/// BatchNormalization, the specification's formula in its order:
///   y = (x - mean) / sqrt(var + epsilon) * scale + B, per channel (dimension 1),
/// with the inputs' mean and var at inference; in training mode (BatchNormalization-14 and 15) with
/// the batch's: each channel's mean and biased variance over the other dimensions (moments, as
/// LayerNormalization's), which also update the running statistics, its outputs 1 and 2:
///   running_mean = input_mean * momentum + mean * (1 - momentum), running_var likewise.
template <class Call>
TensorsOf<Call> batch_normalization(const Call& call) {
    using Number = NumberOf<Call>;
    const Node& node = call.node;
    node.check_attributes({"epsilon", "momentum", "training_mode"});
    const bool training = node.int_attribute("training_mode", 0) != 0;
    if (node.outputs.size() > 1 && !training) {
        // Before 14 the extra outputs were training mode's, of a definition without training_mode.
        if (definition_in("BatchNormalization", call.opset).version < 14)
            throw Unsupported(
                fmt::format("{}: its {} outputs are training mode's of BatchNormalization before "
                            "opset 14; FloatScope evaluates that definition for inference",
                            node.describe(), node.outputs.size()));
        throw Error(fmt::format("{}: it has {} outputs; without training_mode only Y is valid", node.describe(),
                                node.outputs.size()));
    }
    const auto& x = call.input(0);
    const std::size_t c = channels(x, node);
    const auto& scale = per_channel(call.input(1), 1, c, node);
    const auto& bias = per_channel(call.input(2), 2, c, node);
    const auto& input_mean = per_channel(call.input(3), 3, c, node);
    const auto& input_var = per_channel(call.input(4), 4, c, node);
    const auto& n = call.numerics;
    const auto epsilon = n.from_double(node.float_attribute("epsilon", 1e-5f));
    std::vector<Number> mean = input_mean.numbers, var = input_var.numbers;
    if (training) {
        std::vector<bool> reduced(x.shape.size(), true);
        reduced[1] = false;
        const ReductionGroups groups = reduction_groups(x.shape, reduced);
        std::vector<Number> values(groups.size);
        for (std::size_t k = 0; k < c; ++k) {
            const auto members = groups.group(k);
            for (std::size_t j = 0; j < members.size(); ++j) values[j] = x.numbers[members[j]];
            const auto m = moments(n, values);
            mean[k] = m.mean;
            var[k] = m.variance;
        }
    }
    std::vector<Number> deviation;  // sqrt(var + epsilon), once per channel
    for (std::size_t k = 0; k < c; ++k) deviation.push_back(n.apply(Function::Sqrt, n.add(var[k], epsilon)));
    const std::size_t inner = element_count(Shape(x.shape.begin() + 2, x.shape.end()));
    // ((x - mean) / deviation) * scale + bias, each operation rounded: over x's own numbers where
    // the node is x's last reader, else written by the first step from x (not a copy of x first).
    std::optional<Tensor<Number>> y = taken_input(call, 0);
    const std::span<const Number> from = y ? std::span<const Number>(y->numbers) : std::span(x.numbers);
    if (!y) {
        y.emplace();
        y->type = x.type;
        y->shape = x.shape;
        y->numbers = result_numbers(n, x.size());
    }
    using Step = ChannelStep<Number>;
    apply_per_channel(n, from, std::span(y->numbers), c, inner,
                      {Step{Operation::Sub, mean}, Step{Operation::Div, deviation}, Step{Operation::Mul, scale.numbers},
                       Step{Operation::Add, bias.numbers}});
    if (!training) return moved_outputs(std::move(*y));
    const auto momentum = n.from_double(node.float_attribute("momentum", 0.9f));
    const auto rest = n.sub(n.from_double(1), momentum);
    const auto running = [&](const Tensor<Number>& input, const std::vector<Number>& batch) {
        Tensor<Number> r = input;
        for (std::size_t k = 0; k < c; ++k)
            r.numbers[k] = n.add(n.mul(input.numbers[k], momentum), n.mul(batch[k], rest));
        return r;
    };
    return {std::move(*y), running(input_mean, mean), running(input_var, var)};
}

/// LayerNormalization (opset 17) over the dimensions from `axis` on, as the specification's function:
///   Mean = ReduceMean(X); D = X - Mean; Var = ReduceMean(D * D);
///   InvStdDev = Reciprocal(Sqrt(Var + epsilon)); Y = (D * InvStdDev) * Scale + B
/// (onnxruntime's CPU kernel instead takes Var = E[X^2] - Mean^2 in one pass). stash_type names the
/// type of the Mean and InvStdDev outputs; the arithmetic is the node's formats either way.
template <class Call>
TensorsOf<Call> layer_normalization(const Call& call) {
    const Node& node = call.node;
    node.check_attributes({"axis", "epsilon", "stash_type"});
    const auto& x = call.input(0);
    require_floating(x, 0, node);
    const std::size_t rank = x.shape.size();
    const std::size_t axis = normalize_axis(node.int_attribute("axis", -1), rank, node);
    const ElementType stash = element_type_from_onnx(static_cast<int>(node.int_attribute("stash_type", 1)),
                                                     fmt::format("{}: attribute stash_type", node.describe()));
    if (!is_floating(stash))
        throw Error(
            fmt::format("{}: stash_type is {}; a floating type is required", node.describe(), to_string(stash)));
    const Shape normalized_shape(x.shape.begin() + static_cast<std::ptrdiff_t>(axis), x.shape.end());
    const auto& scale = call.input(1);
    require_floating(scale, 1, node);
    const auto scale_index = unidirectional_indices(scale.shape, normalized_shape, "Scale (input 1)", node);
    const auto* bias = call.optional_input(2);
    std::vector<std::size_t> bias_index;
    if (bias) {
        require_floating(*bias, 2, node);
        bias_index = unidirectional_indices(bias->shape, normalized_shape, "B (input 2)", node);
    }

    std::vector<bool> reduced(rank, false);
    for (std::size_t d = axis; d < rank; ++d) reduced[d] = true;
    const ReductionGroups groups = reduction_groups(x.shape, reduced);
    const auto& n = call.numerics;
    const auto epsilon = n.from_double(node.float_attribute("epsilon", 1e-5f));
    Tensor<NumberOf<Call>> y = x;
    auto mean_out = number_tensor<NumberOf<Call>>(stash, groups.kept_shape, {});
    auto inv_std_out = number_tensor<NumberOf<Call>>(stash, groups.kept_shape, {});
    std::vector<NumberOf<Call>> values(groups.size);
    for (std::size_t g = 0; g < groups.count; ++g) {
        const auto members = groups.group(g);
        for (std::size_t j = 0; j < members.size(); ++j) values[j] = x.numbers[members[j]];
        const auto m = moments(n, values);
        const auto inv_std = n.apply(Function::Reciprocal, n.apply(Function::Sqrt, n.add(m.variance, epsilon)));
        // Element j of a group is element j of the normalized shape (the trailing dimensions).
        for (std::size_t j = 0; j < members.size(); ++j) {
            const auto scaled = n.mul(n.mul(m.deviations[j], inv_std), scale.numbers[scale_index[j]]);
            y.numbers[members[j]] = bias ? n.add(scaled, bias->numbers[bias_index[j]]) : scaled;
        }
        mean_out.numbers.push_back(m.mean);
        inv_std_out.numbers.push_back(inv_std);
    }
    return moved_outputs(std::move(y), std::move(mean_out), std::move(inv_std_out));
}

/// InstanceNormalization: per sample and channel over the spatial dimensions,
///   y = scale * (x - mean) / sqrt(var + epsilon) + B, the variance biased (two passes).
template <class Call>
TensorsOf<Call> instance_normalization(const Call& call) {
    const Node& node = call.node;
    node.check_attributes({"epsilon"});
    const auto& x = call.input(0);
    const std::size_t c = channels(x, node);
    const auto& scale = per_channel(call.input(1), 1, c, node);
    const auto& bias = per_channel(call.input(2), 2, c, node);
    std::vector<bool> reduced(x.shape.size(), true);
    reduced[0] = reduced[1] = false;
    const ReductionGroups groups = reduction_groups(x.shape, reduced);
    const auto& n = call.numerics;
    const auto epsilon = n.from_double(node.float_attribute("epsilon", 1e-5f));
    Tensor<NumberOf<Call>> y = x;
    std::vector<NumberOf<Call>> values(groups.size);
    for (std::size_t g = 0; g < groups.count; ++g) {
        const std::size_t k = g % c;  // groups are (sample, channel) in row-major order
        const auto members = groups.group(g);
        for (std::size_t j = 0; j < members.size(); ++j) values[j] = x.numbers[members[j]];
        const auto m = moments(n, values);
        const auto deviation = n.apply(Function::Sqrt, n.add(m.variance, epsilon));
        for (std::size_t j = 0; j < members.size(); ++j)
            y.numbers[members[j]] = n.add(n.div(n.mul(scale.numbers[k], m.deviations[j]), deviation), bias.numbers[k]);
    }
    return {std::move(y)};
}

/// GroupNormalization-21: x of (N, C, ...) in num_groups groups of C / num_groups channels, each
/// sample's group normalized over its channels and positions as ONNX's function writes it,
///   y = (x - mean) / sqrt(var + epsilon) * scale[c] + bias[c], the variance biased (two passes),
/// scale and bias per channel (GroupNormalization-18's per group: older_definitions.cpp repeats
/// them). stash_type names the type ONNX's function computes the first stage in; the arithmetic is
/// the node's formats either way, as LayerNormalization's.
template <class Call>
TensorsOf<Call> group_normalization(const Call& call) {
    const Node& node = call.node;
    node.check_attributes({"epsilon", "num_groups", "stash_type"});
    const auto& x = call.input(0);
    const std::size_t c = channels(x, node);
    if (!node.has("num_groups")) throw Error(fmt::format("{}: attribute num_groups is required", node.describe()));
    const std::int64_t groups = node.int_attribute("num_groups", 1);
    if (groups < 1 || c % static_cast<std::size_t>(groups) != 0)
        throw Error(fmt::format("{}: num_groups {} does not divide the {} channels", node.describe(), groups, c));
    const auto& scale = per_channel(call.input(1), 1, c, node);
    const auto& bias = per_channel(call.input(2), 2, c, node);
    const auto& n = call.numerics;
    const auto epsilon = n.from_double(node.float_attribute("epsilon", 1e-5f));
    // A sample's group is contiguous: its channels' positions, one after another.
    const std::size_t positions = element_count(Shape(x.shape.begin() + 2, x.shape.end()));
    const std::size_t group_size = c / static_cast<std::size_t>(groups) * positions;
    Tensor<NumberOf<Call>> y = x;
    for (std::size_t start = 0; group_size > 0 && start < x.size(); start += group_size) {
        const auto m = moments(
            n, std::vector<NumberOf<Call>>(x.numbers.begin() + static_cast<std::ptrdiff_t>(start),
                                           x.numbers.begin() + static_cast<std::ptrdiff_t>(start + group_size)));
        const auto deviation = n.apply(Function::Sqrt, n.add(m.variance, epsilon));
        for (std::size_t j = 0; j < group_size; ++j) {
            const std::size_t k = (start + j) / positions % c;
            y.numbers[start + j] = n.add(n.mul(n.div(m.deviations[j], deviation), scale.numbers[k]), bias.numbers[k]);
        }
    }
    return {std::move(y)};
}

/// LRN across channels: y = x / (bias + alpha / size * square_sum)^beta, square_sum the sum of x^2
/// over channels c - floor((size - 1) / 2) to c + ceil((size - 1) / 2) (those that exist) at the
/// same position; defaults alpha 0.0001, beta 0.75, bias 1 (floats). The sum through numerics' sum.
template <class Call>
TensorsOf<Call> local_response_normalization(const Call& call) {
    const Node& node = call.node;
    node.check_attributes({"alpha", "beta", "bias", "size"});
    const auto& x = call.input(0);
    const std::size_t c = channels(x, node);
    const std::int64_t size = node.int_attribute("size", 0);
    if (size <= 0)
        throw Error(fmt::format("{}: attribute size is {}; a positive one is required", node.describe(), size));
    const auto& n = call.numerics;
    const auto alpha_over_size =
        n.div(n.from_double(node.float_attribute("alpha", 1e-4f)), n.from_double(static_cast<double>(size)));
    const auto beta = n.from_double(node.float_attribute("beta", 0.75)),
               bias = n.from_double(node.float_attribute("bias", 1.0));
    const std::size_t inner = element_count(Shape(x.shape.begin() + 2, x.shape.end()));
    const auto before = static_cast<std::size_t>((size - 1) / 2), after = static_cast<std::size_t>(size / 2);
    Tensor<NumberOf<Call>> y = x;
    std::vector<NumberOf<Call>> squares;
    for (std::size_t i = 0; i < y.numbers.size(); ++i) {
        const std::size_t k = (i / inner) % c, base = i - k * inner;
        squares.clear();
        for (std::size_t m = k >= before ? k - before : 0; m <= std::min(c - 1, k + after); ++m)
            squares.push_back(n.mul(x.numbers[base + m * inner], x.numbers[base + m * inner]));
        const auto scale = n.add(bias, n.mul(alpha_over_size, n.sum(squares)));
        y.numbers[i] = n.div(x.numbers[i], n.pow(scale, beta));
    }
    return {std::move(y)};
}

/// MeanVarianceNormalization over `axes` (default 0, 2, 3), as the specification's function:
///   y = (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9)
/// the means sums through numerics' sum divided by the count, 1e-9 the function's float constant.
template <class Call>
TensorsOf<Call> mean_variance_normalization(const Call& call) {
    const Node& node = call.node;
    node.check_attributes({"axes"});
    const auto& x = call.input(0);
    require_floating(x, 0, node);
    const std::vector<std::int64_t> axes = node.ints_attribute("axes", {0, 2, 3});
    const ReductionGroups groups = reduction_groups(x.shape, axis_mask(axes, x.shape.size(), node));
    const auto& n = call.numerics;
    const auto count = n.from_double(static_cast<double>(groups.size)), epsilon = n.from_double(1e-9f);
    Tensor<NumberOf<Call>> y = x;
    std::vector<NumberOf<Call>> values(groups.size), squares(groups.size);
    for (std::size_t g = 0; g < groups.count; ++g) {
        const auto members = groups.group(g);
        for (std::size_t j = 0; j < members.size(); ++j) {
            values[j] = x.numbers[members[j]];
            squares[j] = n.mul(values[j], values[j]);
        }
        const auto mean = n.div(n.sum(values), count);
        const auto variance = n.sub(n.div(n.sum(squares), count), n.mul(mean, mean));
        const auto deviation = n.add(n.apply(Function::Sqrt, variance), epsilon);
        for (std::size_t j = 0; j < members.size(); ++j)
            y.numbers[members[j]] = n.div(n.sub(values[j], mean), deviation);
    }
    return {std::move(y)};
}

}  // namespace

void add_normalization_operators(OperatorTable& table) {
    table.add("BatchNormalization", [](const auto& call) { return batch_normalization(call); });
    table.add("LayerNormalization", [](const auto& call) { return layer_normalization(call); });
    table.add("InstanceNormalization", [](const auto& call) { return instance_normalization(call); });
    table.add("GroupNormalization", [](const auto& call) { return group_normalization(call); });
    table.add("LRN", [](const auto& call) { return local_response_normalization(call); });
    table.add("MeanVarianceNormalization", [](const auto& call) { return mean_variance_normalization(call); });
}

}  // namespace floatscope::emu::onnx
