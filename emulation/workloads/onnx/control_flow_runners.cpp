// If, Loop, Scan and SequenceMap: a branch, a loop body, a scan body or a map body run through the
// graph's evaluator in a scope inside the node's, with the node's decisions reported.
#include "emulation/workloads/onnx/control_flow_runners.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/graph_evaluator.hpp"
#include "emulation/workloads/onnx/operator_versions.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

bool is_control_flow(const Node& node) {
    return node.domain.empty() &&
           (node.op_type == "If" || node.op_type == "Loop" || node.op_type == "Scan" || node.op_type == "SequenceMap");
}

namespace {

/// The element at the front of a 1-element tensor as an integer (Loop's trip count, If's and Loop's
/// condition); throws naming the node and `what`.
template <class Number>
std::int64_t scalar_integer(const Tensor<Number>& t, const Node& node, std::string_view what) {
    if (t.floating() || t.integers.size() != 1)
        throw Error(fmt::format("{}: {} must be a single {} value, not {} of shape {}", node.describe(), what,
                                what == "the trip count" ? "int64" : "bool", to_string(t.type), describe(t.shape)));
    return t.integers[0];
}

/// Entry `index` of `t` along `axis` (a scan input's slice): the tensor without that axis.
template <class Number>
Tensor<Number> take(const Tensor<Number>& t, std::size_t axis, std::int64_t index) {
    Tensor<Number> r;
    r.type = t.type;
    r.shape = t.shape;
    r.shape.erase(r.shape.begin() + static_cast<std::ptrdiff_t>(axis));
    std::size_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < axis; ++d) outer *= static_cast<std::size_t>(t.shape[d]);
    for (std::size_t d = axis + 1; d < t.shape.size(); ++d) inner *= static_cast<std::size_t>(t.shape[d]);
    const auto length = static_cast<std::size_t>(t.shape[axis]);
    const auto copy = [&](const auto& from, auto& to) {
        to.reserve(outer * inner);
        for (std::size_t o = 0; o < outer; ++o)
            for (std::size_t i = 0; i < inner; ++i)
                to.push_back(from[(o * length + static_cast<std::size_t>(index)) * inner + i]);
    };
    if (t.floating())
        copy(t.numbers, r.numbers);
    else
        copy(t.integers, r.integers);
    return r;
}

/// `parts` (of one shape) stacked along a new `axis` (Loop's and Scan's scan outputs). `empty`: the
/// result when there are no parts, a tensor of length 0 along `axis`.
template <class Number>
Tensor<Number> stack(const std::vector<Tensor<Number>>& parts, std::size_t axis, const Node& node,
                     const std::string& output, Tensor<Number> empty) {
    if (parts.empty()) return empty;
    Tensor<Number> r;
    r.type = parts[0].type;
    r.shape = parts[0].shape;
    for (const Tensor<Number>& part : parts)
        if (part.kind != ValueKind::Tensor)
            throw Error(fmt::format("{}: scan output '{}' is a {}; scan outputs are tensors", node.describe(), output,
                                    to_string(part.kind)));
    for (const Tensor<Number>& part : parts)
        if (part.shape != r.shape || part.type != r.type)
            throw Error(
                fmt::format("{}: scan output '{}' is {} of shape {} in one iteration and {} of shape {} in "
                            "another; every iteration's must agree",
                            node.describe(), output, to_string(r.type), describe(r.shape), to_string(part.type),
                            describe(part.shape)));
    r.shape.insert(r.shape.begin() + static_cast<std::ptrdiff_t>(axis), static_cast<std::int64_t>(parts.size()));
    std::size_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < axis; ++d) outer *= static_cast<std::size_t>(parts[0].shape[d]);
    for (std::size_t d = axis; d < parts[0].shape.size(); ++d) inner *= static_cast<std::size_t>(parts[0].shape[d]);
    const auto copy = [&](auto member) {
        auto& to = r.*member;
        to.reserve(outer * parts.size() * inner);
        for (std::size_t o = 0; o < outer; ++o)
            for (const Tensor<Number>& part : parts)
                for (std::size_t i = 0; i < inner; ++i) to.push_back((part.*member)[o * inner + i]);
    };
    if (r.floating())
        copy(&Tensor<Number>::numbers);
    else
        copy(&Tensor<Number>::integers);
    return r;
}

/// An axis attribute of a rank-`rank` tensor (negative counts from the end, as Scan-11 allows).
std::size_t scan_axis(std::int64_t axis, std::size_t rank, const Node& node, std::string_view attribute) {
    const auto r = static_cast<std::int64_t>(rank);
    if (axis < -r || axis >= r)
        throw Error(
            fmt::format("{}: {} {} is not an axis of a tensor of rank {}", node.describe(), attribute, axis, rank));
    return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

/// One control-flow node's run, its subgraphs evaluated by `evaluator`.
template <class Numerics>
class ControlFlowRunner {
public:
    using Number = typename Numerics::Number;
    using Tensors = std::vector<Tensor<Number>>;
    using Scope = typename GraphEvaluator<Numerics>::Scope;

    explicit ControlFlowRunner(GraphEvaluator<Numerics>& evaluator) : evaluator_(evaluator) {}

    Outputs<Numerics> run(const OperatorCall<Numerics>& call, const Scope& scope, RunControl* cancellation) {
        operator_table().check(call.node, call.opset);
        if (call.node.op_type == "If") return run_if(call, scope, cancellation);
        if (call.node.op_type == "Loop") return run_loop(call, scope, cancellation);
        if (call.node.op_type == "SequenceMap") return run_sequence_map(call, scope, cancellation);
        return run_scan(call, scope, cancellation);
    }

    Outputs<Numerics> run_if(const OperatorCall<Numerics>& call, const Scope& scope, RunControl* cancellation) {
        const Node& node = call.node;
        node.check_attributes({"then_branch", "else_branch"});
        const bool then = scalar_integer(call.input(0), node, "the condition") != 0;
        evaluator_.decided(node, then ? 1 : 0);
        const Graph& branch = evaluator_.subgraph(node, then ? "then_branch" : "else_branch");
        Tensors outputs = evaluator_.run_subgraph(branch, {}, scope, node, cancellation);
        if (outputs.size() != node.outputs.size())
            throw Error(fmt::format("{}: {} has {} output(s), the node {}", node.describe(), branch.name,
                                    outputs.size(), node.outputs.size()));
        return outputs;
    }

    Outputs<Numerics> run_loop(const OperatorCall<Numerics>& call, const Scope& scope, RunControl* cancellation) {
        const Node& node = call.node;
        node.check_attributes({"body"});
        const Graph& body = evaluator_.subgraph(node, "body");
        const Tensor<Number>* trip_count = call.optional_input(0);
        const Tensor<Number>* condition = call.optional_input(1);
        if (!trip_count && !condition)
            throw Error(
                fmt::format("{}: it has neither a trip count nor a condition: it would never end", node.describe()));
        const std::size_t carried = node.inputs.size() < 2 ? 0 : node.inputs.size() - 2;
        if (body.inputs.size() != carried + 2 || body.outputs.size() < carried + 1 ||
            node.outputs.size() != body.outputs.size() - 1)
            throw Error(
                fmt::format("{}: its body takes {} input(s) and makes {} output(s); with {} loop-carried "
                            "value(s) and {} output(s) it must take {} and make {}",
                            node.describe(), body.inputs.size(), body.outputs.size(), carried, node.outputs.size(),
                            carried + 2, node.outputs.size() + 1));
        const std::int64_t trips =
            trip_count ? scalar_integer(*trip_count, node, "the trip count") : std::numeric_limits<std::int64_t>::max();
        bool go = condition ? scalar_integer(*condition, node, "the condition") != 0 : true;
        Tensors values;
        for (std::size_t v = 0; v < carried; ++v) values.push_back(call.input(2 + v));
        const std::size_t scanned = body.outputs.size() - 1 - carried;
        std::vector<Tensors> scans(scanned);
        std::int64_t i = 0;
        for (; i < trips && go; ++i) {
            Tensors bound;
            bound.push_back(integer_tensor<Number>(ElementType::Int64, {}, {i}));
            bound.push_back(integer_tensor<Number>(ElementType::Bool, {}, {go ? 1 : 0}));
            for (Tensor<Number>& v : values) bound.push_back(std::move(v));
            Tensors made = evaluator_.run_subgraph(body, std::move(bound), scope, node, cancellation);
            // Without a condition input the body's condition is ignored (a for loop).
            if (condition) go = scalar_integer(made[0], node, "the condition") != 0;
            for (std::size_t v = 0; v < carried; ++v) values[v] = std::move(made[1 + v]);
            for (std::size_t k = 0; k < scanned; ++k) {
                evaluator_.hold(fmt::format("{}: scan output '{}'", node.describe(), node.outputs[carried + k]),
                                evaluator_.tensor_bytes(made[1 + carried + k]));
                scans[k].push_back(std::move(made[1 + carried + k]));
            }
            if (cancellation) cancellation->check_cancelled();
        }
        evaluator_.decided(node, i);
        Outputs<Numerics> outputs = std::move(values);
        for (std::size_t k = 0; k < scanned; ++k) {
            const ValueInfo& declared = body.outputs[1 + carried + k];
            Tensor<Number> empty;
            empty.type = declared.type;
            empty.shape = {0};
            for (std::int64_t d : declared.shape) empty.shape.push_back(std::max<std::int64_t>(d, 0));
            outputs.push_back(stack(scans[k], 0, node, node.outputs[carried + k], std::move(empty)));
            for (const Tensor<Number>& t : scans[k]) evaluator_.hold("a scan output", -evaluator_.tensor_bytes(t));
        }
        return outputs;
    }

    /// SequenceMap-17: the body on each position of the input sequence, its inputs the elements of the
    /// sequences there and the other inputs whole; each body output gathered into a sequence. Its
    /// iterations are its decision, as a Loop's.
    Outputs<Numerics> run_sequence_map(const OperatorCall<Numerics>& call, const Scope& scope,
                                       RunControl* cancellation) {
        const Node& node = call.node;
        node.check_attributes({"body"});
        const Graph& body = evaluator_.subgraph(node, "body");
        const Tensor<Number>& first = call.input(0);
        if (first.kind != ValueKind::Sequence)
            throw Error(fmt::format("{}: input 0 is a {}, not a sequence", node.describe(), to_string(first.kind)));
        const std::size_t length = first.elements.size();
        for (std::size_t i = 1; i < node.inputs.size(); ++i) {
            const Tensor<Number>& input = call.input(i);
            if (input.kind == ValueKind::Optional)
                throw Error(fmt::format("{}: input {} is an optional; SequenceMap takes tensors and sequences",
                                        node.describe(), i));
            if (input.kind == ValueKind::Sequence && input.elements.size() != length)
                throw Error(fmt::format("{}: input {} is a sequence of {} tensor(s), input 0 of {}", node.describe(), i,
                                        input.elements.size(), length));
        }
        if (body.outputs.size() != node.outputs.size())
            throw Error(fmt::format("{}: its body makes {} output(s), the node {}", node.describe(),
                                    body.outputs.size(), node.outputs.size()));
        std::vector<Tensors> gathered(body.outputs.size());
        for (std::size_t position = 0; position < length; ++position) {
            Tensors bound;
            for (std::size_t i = 0; i < node.inputs.size(); ++i) {
                const Tensor<Number>& input = call.input(i);
                bound.push_back(input.kind == ValueKind::Sequence ? input.elements[position] : input);
            }
            Tensors made = evaluator_.run_subgraph(body, std::move(bound), scope, node, cancellation);
            for (std::size_t k = 0; k < made.size(); ++k) {
                if (made[k].kind != ValueKind::Tensor)
                    throw Error(fmt::format("{}: body output '{}' is a {}; SequenceMap gathers tensors",
                                            node.describe(), body.outputs[k].name, to_string(made[k].kind)));
                gathered[k].push_back(std::move(made[k]));
            }
            if (cancellation) cancellation->check_cancelled();
        }
        evaluator_.decided(node, static_cast<std::int64_t>(length));
        Outputs<Numerics> outputs;
        for (std::size_t k = 0; k < gathered.size(); ++k) {
            const ElementType type = gathered[k].empty() ? body.outputs[k].type : gathered[k].front().type;
            outputs.push_back(sequence_value(type, std::move(gathered[k])));
        }
        return outputs;
    }

    /// Scan-9 and later on `states` and `inputs`: each scan input sliced along its axis, in its direction.
    Outputs<Numerics> scan_sequence(const Node& node, const Graph& body, Tensors states, const Tensors& inputs,
                                    const std::vector<std::int64_t>& input_axes,
                                    const std::vector<std::int64_t>& input_directions,
                                    const std::vector<std::int64_t>& output_axes,
                                    const std::vector<std::int64_t>& output_directions, const Scope& scope,
                                    RunControl* cancellation) {
        const std::size_t n = states.size(), m = inputs.size();
        if (body.inputs.size() != n + m || body.outputs.size() < n)
            throw Error(
                fmt::format("{}: its body takes {} input(s) and makes {} output(s); with {} state(s) and {} "
                            "scan input(s) it must take {} and make at least {}",
                            node.describe(), body.inputs.size(), body.outputs.size(), n, m, n + m, n));
        const std::size_t k_outputs = body.outputs.size() - n;
        const auto attribute_at = [&](const std::vector<std::int64_t>& values, std::size_t i, std::size_t count,
                                      const char* name) -> std::int64_t {
            if (values.empty()) return 0;
            if (values.size() != count)
                throw Error(
                    fmt::format("{}: {} has {} entries for {} tensor(s)", node.describe(), name, values.size(), count));
            return values[i];
        };
        std::int64_t length = -1;
        std::vector<std::size_t> axes(m);
        for (std::size_t j = 0; j < m; ++j) {
            axes[j] = scan_axis(attribute_at(input_axes, j, m, "scan_input_axes"), inputs[j].shape.size(), node,
                                "scan_input_axes");
            const std::int64_t len = inputs[j].shape[axes[j]];
            if (length >= 0 && len != length)
                throw Error(fmt::format("{}: its scan inputs are {} and {} long along their scan axes", node.describe(),
                                        length, len));
            length = len;
        }
        if (m == 0) throw Error(fmt::format("{}: num_scan_inputs must be at least 1", node.describe()));
        std::vector<Tensors> scans(k_outputs);
        for (std::int64_t t = 0; t < length; ++t) {
            Tensors bound = std::move(states);
            for (std::size_t j = 0; j < m; ++j) {
                const bool reverse = attribute_at(input_directions, j, m, "scan_input_directions") != 0;
                bound.push_back(take(inputs[j], axes[j], reverse ? length - 1 - t : t));
            }
            Tensors made = evaluator_.run_subgraph(body, std::move(bound), scope, node, cancellation);
            states.assign(std::make_move_iterator(made.begin()),
                          std::make_move_iterator(made.begin() + static_cast<std::ptrdiff_t>(n)));
            for (std::size_t k = 0; k < k_outputs; ++k) {
                evaluator_.hold(fmt::format("{}: scan output {}", node.describe(), k),
                                evaluator_.tensor_bytes(made[n + k]));
                scans[k].push_back(std::move(made[n + k]));
            }
            if (cancellation) cancellation->check_cancelled();
        }
        Outputs<Numerics> outputs = std::move(states);
        for (std::size_t k = 0; k < k_outputs; ++k) {
            const std::string name = k + n < node.outputs.size() ? node.outputs[n + k] : std::to_string(k);
            if (attribute_at(output_directions, k, k_outputs, "scan_output_directions") != 0)
                std::reverse(scans[k].begin(), scans[k].end());  // prepended: the last iteration's first
            const std::size_t rank = scans[k].empty() ? 0 : scans[k][0].shape.size();
            const std::size_t axis = scan_axis(attribute_at(output_axes, k, k_outputs, "scan_output_axes"), rank + 1,
                                               node, "scan_output_axes");
            Tensor<Number> empty;
            empty.type = body.outputs[n + k].type;
            empty.shape = {0};
            outputs.push_back(stack(scans[k], axis, node, name, std::move(empty)));
            for (const Tensor<Number>& t : scans[k]) evaluator_.hold("a scan output", -evaluator_.tensor_bytes(t));
        }
        return outputs;
    }

    Outputs<Numerics> run_scan(const OperatorCall<Numerics>& call, const Scope& scope, RunControl* cancellation) {
        const Node& node = call.node;
        const Graph& body = evaluator_.subgraph(node, "body");
        const auto m = node.int_attribute("num_scan_inputs", -1);
        const Definition definition = definition_in("Scan", call.opset);
        const bool batch_axis =
            std::any_of(definition.changes.begin(), definition.changes.end(),
                        [](const DefinitionChange* c) { return c->adapter == Adapter::BatchAxisScan; });
        const std::size_t first = batch_axis ? 1 : 0;  // Scan-8's input 0 is sequence_lens
        if (m < 1 || static_cast<std::size_t>(m) > node.inputs.size() - std::min(first, node.inputs.size()))
            throw Error(fmt::format("{}: num_scan_inputs {} does not fit its {} input(s)", node.describe(), m,
                                    node.inputs.size()));
        const std::size_t n = node.inputs.size() - first - static_cast<std::size_t>(m);
        Tensors states, inputs;
        for (std::size_t i = 0; i < n; ++i) states.push_back(call.input(first + i));
        for (std::size_t j = 0; j < static_cast<std::size_t>(m); ++j) inputs.push_back(call.input(first + n + j));
        if (!batch_axis) {
            node.check_attributes({"body", "num_scan_inputs", "scan_input_axes", "scan_input_directions",
                                   "scan_output_axes", "scan_output_directions"});
            return scan_sequence(node, body, std::move(states), inputs, node.ints_attribute("scan_input_axes"),
                                 node.ints_attribute("scan_input_directions"), node.ints_attribute("scan_output_axes"),
                                 node.ints_attribute("scan_output_directions"), scope, cancellation);
        }
        // Scan-8: every state and scan input has a batch axis 0, each batch entry scanned alone (the
        // scan inputs along their axis 1, which is axis 0 once the batch entry is taken).
        node.check_attributes({"body", "num_scan_inputs", "directions"});
        std::int64_t batch = -1;
        for (const Tensors* group : {&states, &inputs})
            for (const Tensor<Number>& t : *group) {
                if (t.shape.empty() || (batch >= 0 && t.shape[0] != batch) || (group == &inputs && t.shape.size() < 2))
                    throw Error(
                        fmt::format("{}: Scan-8's states and scan inputs have a batch axis 0 of one length "
                                    "(and scan inputs a sequence axis 1); one has shape {}",
                                    node.describe(), describe(t.shape)));
                batch = t.shape[0];
            }
        if (const Tensor<Number>* lengths = call.optional_input(0))
            for (std::int64_t l : lengths->integers)
                if (l != inputs[0].shape[1])
                    throw Unsupported(
                        fmt::format("{}: sequence_lens {} shorter than the scan inputs' {} is not "
                                    "supported",
                                    node.describe(), l, inputs[0].shape[1]));
        std::vector<Outputs<Numerics>> per_batch;
        for (std::int64_t b = 0; b < batch; ++b) {
            Tensors entry_states, entry_inputs;
            for (const Tensor<Number>& t : states) entry_states.push_back(take(t, 0, b));
            for (const Tensor<Number>& t : inputs) entry_inputs.push_back(take(t, 0, b));
            per_batch.push_back(scan_sequence(node, body, std::move(entry_states), entry_inputs, {},
                                              node.ints_attribute("directions"), {}, {}, scope, cancellation));
        }
        Outputs<Numerics> outputs;
        const std::size_t count = per_batch.empty() ? 0 : per_batch[0].size();
        for (std::size_t o = 0; o < count; ++o) {
            Tensors parts;
            for (Outputs<Numerics>& b : per_batch) parts.push_back(std::move(b[o]));
            outputs.push_back(stack(parts, 0, node, o < node.outputs.size() ? node.outputs[o] : "", Tensor<Number>{}));
        }
        return outputs;
    }

private:
    GraphEvaluator<Numerics>& evaluator_;
};

}  // namespace

template <class Numerics>
Outputs<Numerics> run_control_flow(GraphEvaluator<Numerics>& evaluator, const OperatorCall<Numerics>& call,
                                   const typename GraphEvaluator<Numerics>::Scope& scope, RunControl* cancellation) {
    return ControlFlowRunner<Numerics>(evaluator).run(call, scope, cancellation);
}

template Outputs<EmulatedNumerics> run_control_flow(GraphEvaluator<EmulatedNumerics>&,
                                                    const OperatorCall<EmulatedNumerics>&,
                                                    const GraphEvaluator<EmulatedNumerics>::Scope&, RunControl*);
template Outputs<WideNumerics> run_control_flow(GraphEvaluator<WideNumerics>&, const OperatorCall<WideNumerics>&,
                                                const GraphEvaluator<WideNumerics>::Scope&, RunControl*);
template Outputs<TruthNumerics> run_control_flow(GraphEvaluator<TruthNumerics>&, const OperatorCall<TruthNumerics>&,
                                                 const GraphEvaluator<TruthNumerics>::Scope&, RunControl*);

}  // namespace floatscope::emu::onnx
