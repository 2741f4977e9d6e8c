// ONNX's sequence operators (opset 11): sequences of tensors made, read, changed and joined. They move
// tensors, never compute a number: a sequence has no region of its own, the tensors it holds were
// measured where they were made; ConcatFromSequence and SequenceAt make tensors, measured as any node's.
#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/joining.hpp"

namespace floatscope::emu::onnx {

namespace {

/// Input `index`, which must be a sequence.
template <class Numerics>
const Tensor<typename Numerics::Number>& sequence_input(const OperatorCall<Numerics>& call, std::size_t index) {
    const auto& s = call.input(index);
    if (s.kind != ValueKind::Sequence)
        throw Error(
            fmt::format("{}: input {} is a {}, not a sequence", call.node.describe(), index, to_string(s.kind)));
    return s;
}

/// Input `index`, a position (one int32 or int64) in a sequence of `size` tensors, in [-size,
/// last] (last: size - 1, or size for SequenceInsert), as an index from the front.
template <class Number>
std::size_t position_in(const Tensor<Number>& t, std::size_t index, std::int64_t size, std::int64_t last,
                        const Node& node) {
    const std::vector<std::int64_t> values = integer_list(t, index, node);
    // The specification says a scalar; ONNX's own SequenceInsert case gives shape [1], as onnxruntime takes.
    if (values.size() != 1)
        throw Error(fmt::format("{}: position (input {}) must be one value, not of shape {}", node.describe(), index,
                                describe(t.shape)));
    const std::int64_t p = values[0];
    if (p < -size || p > last)
        throw Error(fmt::format("{}: position {} is outside [{}, {}] for a sequence of {} tensor(s)", node.describe(),
                                p, -size, last, size));
    return static_cast<std::size_t>(p < 0 ? p + size : p);
}

template <class Numerics>
Outputs<Numerics> sequence_construct(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    call.node.check_attributes({});
    std::vector<Tensor<Number>> tensors;
    for (std::size_t i = 0; i < call.inputs.size(); ++i) {
        require_same_type(call.input(0), call.input(i), 0, i, call.node);
        tensors.push_back(call.input(i));
    }
    if (tensors.empty()) throw Error(fmt::format("{}: SequenceConstruct needs an input", call.node.describe()));
    const ElementType type = tensors.front().type;
    return {sequence_value(type, std::move(tensors))};
}

template <class Numerics>
Outputs<Numerics> sequence_empty(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    call.node.check_attributes({"dtype"});
    const ElementType type =
        element_type_from_onnx(static_cast<int>(call.node.int_attribute("dtype", 1)), call.node.describe() + ": dtype");
    return {sequence_value<Number>(type, {})};
}

template <class Numerics>
Outputs<Numerics> sequence_at(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({});
    const auto& s = sequence_input(call, 0);
    const auto n = static_cast<std::int64_t>(s.elements.size());
    return {s.elements[position_in(call.input(1), 1, n, n - 1, call.node)]};
}

template <class Numerics>
Outputs<Numerics> sequence_insert(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({});
    auto s = sequence_input(call, 0);
    const auto& tensor = call.input(1);
    if (tensor.kind != ValueKind::Tensor || (tensor.type != s.type && !(tensor.floating() && is_floating(s.type))))
        throw Error(fmt::format("{}: input 1 is a {} of {}; the sequence holds tensors of {}", call.node.describe(),
                                to_string(tensor.kind), to_string(tensor.type), to_string(s.type)));
    const auto n = static_cast<std::int64_t>(s.elements.size());
    const auto* position = call.optional_input(2);
    const std::size_t at = position ? position_in(*position, 2, n, n, call.node) : s.elements.size();
    s.elements.insert(s.elements.begin() + static_cast<std::ptrdiff_t>(at), tensor);
    return {std::move(s)};
}

template <class Numerics>
Outputs<Numerics> sequence_erase(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({});
    auto s = sequence_input(call, 0);
    const auto n = static_cast<std::int64_t>(s.elements.size());
    const auto* position = call.optional_input(1);
    if (n == 0) throw Error(fmt::format("{}: the sequence is empty; nothing to erase", call.node.describe()));
    const std::size_t at = position ? position_in(*position, 1, n, n - 1, call.node) : s.elements.size() - 1;
    s.elements.erase(s.elements.begin() + static_cast<std::ptrdiff_t>(at));
    return {std::move(s)};
}

template <class Numerics>
Outputs<Numerics> sequence_length(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    call.node.check_attributes({});
    const auto n = static_cast<std::int64_t>(sequence_input(call, 0).elements.size());
    return {integer_tensor<Number>(ElementType::Int64, {}, {n})};
}

/// SplitToSequence: input 0 cut along axis into parts of split's lengths (a 1-D split), of split's
/// length each with a shorter last part (a scalar split), or of length 1 without split, the axis
/// then removed unless keepdims (which applies to that case only).
template <class Numerics>
Outputs<Numerics> split_to_sequence(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"axis", "keepdims"});
    const auto& data = call.input(0);
    const std::size_t axis = normalize_axis(node.int_attribute("axis", 0), data.shape.size(), node);
    const std::int64_t dim = data.shape[axis];
    std::vector<std::int64_t> lengths;
    const auto* split = call.optional_input(1);
    if (split && split->shape.empty()) {
        const std::int64_t chunk = integer_list(*split, 1, node).at(0);
        if (chunk <= 0) throw Error(fmt::format("{}: split {} must be positive", node.describe(), chunk));
        for (std::int64_t at = 0; at < dim; at += chunk) lengths.push_back(std::min(chunk, dim - at));
    } else if (split) {
        lengths = integer_list(*split, 1, node);
        if (!lengths_sum_to(lengths, dim))
            throw Error(fmt::format("{}: split [{}] must give lengths >= 0 summing to {} (axis {} of shape {})",
                                    node.describe(), fmt::join(lengths, ", "), dim, axis, describe(data.shape)));
    } else {
        lengths.assign(static_cast<std::size_t>(dim), 1);
    }
    auto parts = split_along(data, axis, lengths);
    if (!split && node.int_attribute("keepdims", 1) == 0)
        for (auto& part : parts) part.shape.erase(part.shape.begin() + static_cast<std::ptrdiff_t>(axis));
    return {sequence_value(data.type, std::move(parts))};
}

/// ConcatFromSequence: the sequence's tensors joined along axis, or stacked along a new axis there
/// (new_axis = 1, where axis may also be the rank: the last).
template <class Numerics>
Outputs<Numerics> concat_from_sequence(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"axis", "new_axis"});
    if (!node.has("axis")) throw Error(fmt::format("{}: attribute axis is required", node.describe()));
    const auto& s = sequence_input(call, 0);
    if (s.elements.empty()) throw Error(fmt::format("{}: the sequence is empty; nothing to join", node.describe()));
    const bool stacked = node.int_attribute("new_axis", 0) != 0;
    const std::size_t rank = s.elements.front().shape.size() + (stacked ? 1 : 0);
    const std::size_t axis = normalize_axis(node.int_attribute("axis", 0), rank, node);
    std::vector<Tensor<Number>> unsqueezed;
    std::vector<const Tensor<Number>*> parts;
    if (stacked) {
        for (const Tensor<Number>& t : s.elements) {
            Shape shape = t.shape;
            shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(std::min(axis, shape.size())), 1);
            unsqueezed.push_back(reshaped(t, std::move(shape)));
        }
        for (const Tensor<Number>& t : unsqueezed) parts.push_back(&t);
    } else {
        for (const Tensor<Number>& t : s.elements) parts.push_back(&t);
    }
    return {concatenated(parts, axis, node)};
}

}  // namespace

void add_sequence_operators(OperatorTable& table) {
    table.add("SequenceConstruct", [](const auto& call) { return sequence_construct(call); });
    table.add("SequenceEmpty", [](const auto& call) { return sequence_empty(call); });
    table.add(
        "SequenceAt", [](const auto& call) { return sequence_at(call); }, Reads::AnyValues);
    table.add(
        "SequenceInsert", [](const auto& call) { return sequence_insert(call); }, Reads::AnyValues);
    table.add(
        "SequenceErase", [](const auto& call) { return sequence_erase(call); }, Reads::AnyValues);
    table.add(
        "SequenceLength", [](const auto& call) { return sequence_length(call); }, Reads::AnyValues);
    table.add("SplitToSequence", [](const auto& call) { return split_to_sequence(call); });
    table.add(
        "ConcatFromSequence", [](const auto& call) { return concat_from_sequence(call); }, Reads::AnyValues);
}

}  // namespace floatscope::emu::onnx
