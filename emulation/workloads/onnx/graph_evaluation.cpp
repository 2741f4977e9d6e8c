// Evaluating an ONNX graph: values by name, each node's operator from the table, values released
// after their last reader; If, Loop and Scan with their subgraphs, in scopes that see the values
// around them.
#include "emulation/workloads/onnx/graph_evaluation.hpp"

#include <algorithm>
#include <limits>
#include <list>
#include <optional>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "emulation/simulation/output_reuse.hpp"
#include "emulation/workloads/onnx/node_output_memo.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/tensor_allowance.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

/// What one floating element of an evaluation costs: a double, or an MPFR number with its limbs.
double number_bytes(const EmulatedNumerics&) { return sizeof(double); }
double number_bytes(const TruthNumerics& numerics) { return core::mpfr_number_bytes(numerics.precision()); }

/// What a value holds: a tensor's elements, a sequence's or an optional's tensors.
template <class Number>
double tensor_bytes(const TensorAllowance& allowance, const Tensor<Number>& t) {
    double bytes = allowance.bytes(t.size(), t.floating());
    for (const Tensor<Number>& element : t.elements) bytes += tensor_bytes(allowance, element);
    return bytes;
}

}  // namespace

template <class Number>
void check_inputs(const Graph& graph, std::vector<Tensor<Number>>& inputs) {
    if (inputs.size() != graph.inputs.size())
        throw Error(fmt::format("the graph takes {} input(s), {} given", graph.inputs.size(), inputs.size()));
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const ValueInfo& declared = graph.inputs[i];
        Tensor<Number>& given = inputs[i];
        if (given.kind != declared.kind)
            throw Error(fmt::format("input '{}' is declared a {}, the value given is a {}", declared.name,
                                    to_string(declared.kind), to_string(given.kind)));
        if (given.kind != ValueKind::Tensor) continue;  // a sequence's tensors are checked by the nodes reading them
        const bool type_fits = declared.type == given.type || (is_floating(declared.type) && given.floating());
        if (!type_fits)
            throw Error(fmt::format("input '{}' is declared {}, the tensor given is {}", declared.name,
                                    to_string(declared.type), to_string(given.type)));
        given.type = declared.type;
        bool shape_fits = declared.shape.empty() || declared.shape.size() == given.shape.size();
        for (std::size_t d = 0; shape_fits && d < declared.shape.size(); ++d)
            shape_fits = declared.shape[d] < 0 || declared.shape[d] == given.shape[d];
        if (!shape_fits)
            throw Error(fmt::format("input '{}' has shape {} in the model, the tensor given has shape {}",
                                    declared.name, describe(declared.shape), describe(given.shape)));
    }
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

/// Evaluates a graph and the subgraphs of its control-flow nodes.
template <class Numerics>
class Evaluation {
public:
    using Number = typename Numerics::Number;
    using Tensors = std::vector<Tensor<Number>>;

    /// The values a graph's nodes read: its own, its constants, then those of the graphs around it.
    struct Scope {
        Values<Number> values;
        const Values<Number>* constants = nullptr;  ///< a subgraph's initializers
        /// The model graph's initializers, as doubles: the truth converts one for the node that
        /// reads it and drops the copy after the node, rather than holding every weight in MPFR.
        const Values<double>* graph_constants = nullptr;
        const Scope* outer = nullptr;
    };

    /// The value `name` as seen from `scope`; nullptr where no scope has it. A constant of the model's
    /// graph is converted with `numerics` and lives until the node that reads it has run.
    const Tensor<Number>* find(const Scope& scope, const std::string& name, const Numerics& numerics) {
        for (const Scope* s = &scope; s != nullptr; s = s->outer) {
            if (const auto it = s->values.find(name); it != s->values.end()) return &it->second;
            if (s->constants)
                if (const auto it = s->constants->find(name); it != s->constants->end()) return &it->second;
            if (s->graph_constants)
                if (const auto it = s->graph_constants->find(name); it != s->graph_constants->end()) {
                    if constexpr (std::is_same_v<Number, double>) {
                        return &it->second;
                    } else {
                        const double bytes = allowance_.bytes(it->second.size(), it->second.floating());
                        allowance_.hold(fmt::format("the constant '{}' in the evaluation's numbers", name), bytes);
                        // An initializer is a tensor: its numbers converted over the truth's threads
                        // (a 6625-class head's 1.7 million weights).
                        const Tensor<double>& constant = it->second;
                        Tensor<Number> c;
                        c.type = constant.type;
                        c.shape = constant.shape;
                        c.integers = constant.integers;
                        c.numbers = make_elements<Number>(constant.numbers.size(), [&](std::size_t i) {
                            return numerics.from_double(constant.numbers[i]);
                        });
                        converted_.push_back({std::move(c), bytes});
                        return &converted_.back().first;
                    }
                }
        }
        return nullptr;
    }

    Evaluation(const std::function<Numerics(std::size_t)>& numerics_for, const NodeObserver<Number>& observer,
               const DecisionObserver& decisions, TensorAllowance& allowance, int opset, const Graph* memo_graph,
               std::uint64_t memo_model)
        : numerics_for_(numerics_for),
          observer_(observer),
          decisions_(decisions),
          allowance_(allowance),
          opset_(opset),
          memo_graph_(memo_graph),
          memo_model_(memo_model) {}

    /// Runs the nodes of `graph` in `scope` (which holds its inputs); `control`: the progress of the
    /// model's graph (null in subgraphs, which only check for cancellation).
    void run_nodes(const Graph& graph, Scope& scope, RunControl* control, RunControl* cancellation) {
        // The index of the last node that reads each value, subgraphs' reads included (graph outputs
        // are kept to the end).
        std::map<std::string, std::size_t> last_reader;
        for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
            for (const std::string& name : graph.nodes[i].inputs)
                if (!name.empty()) last_reader[name] = i;
            for (const std::string& name : graph.nodes[i].implicit_inputs) last_reader[name] = i;
        }
        for (const ValueInfo& output : graph.outputs) last_reader[output.name] = graph.nodes.size();

        const OperatorTable& table = operator_table();
        for (std::size_t index = 0; index < graph.nodes.size(); ++index) {
            const Node& node = graph.nodes[index];
            const Numerics numerics = numerics_for_(node.id);
            OperatorCall<Numerics> call{node, opset_, {}, numerics};
            const std::size_t converted_before = converted_.size();
            for (const std::string& name : node.inputs) {
                const Tensor<Number>* t = name.empty() ? nullptr : find(scope, name, numerics);
                if (!name.empty() && !t)
                    throw Error(fmt::format("{} reads '{}', which no earlier node makes", node.describe(), name));
                call.inputs.push_back(t);
            }
            // An emulated run in an OutputReuseScope takes a node's outputs from an earlier run that
            // gave it the same formats, seed and inputs.
            std::optional<NodeKey> memo_key;
            std::optional<Outputs<Numerics>> kept;
            if constexpr (std::is_same_v<Numerics, EmulatedNumerics>) {
                if (&graph == memo_graph_ && !is_control_flow(node) && output_reuse_budget() > 0)
                    memo_key = node_key(node, call);
                if (memo_key)
                    if (std::optional<KeptNode> made = NodeOutputMemo::instance().find(*memo_key)) {
                        kept = std::move(made->outputs);
                        if (OperandRange* range = numerics.matmul_operands()) range->log2_counts = made->operand_counts;
                    }
            }
            Outputs<Numerics> outputs;
            try {
                outputs = kept                   ? std::move(*kept)
                          : is_control_flow(node) ? run_control_flow(call, scope, cancellation)
                                                  : table.run(call);
            } catch (const Cancelled&) {
                throw;
            } catch (const Error& e) {
                // Name the node unless the operator (or a node in its subgraph) already did.
                const std::string what = e.what();
                if (what.find(node.describe()) != std::string::npos || what.find(" node '") != std::string::npos) throw;
                throw Error(fmt::format("{}: {}", node.describe(), what));
            }
            if (outputs.size() < node.outputs.size())
                throw Error(fmt::format("{} made {} output(s), the model names {}", node.describe(), outputs.size(),
                                        node.outputs.size()));
            std::vector<const Tensor<Number>*> made;
            for (std::size_t o = 0; o < node.outputs.size(); ++o) {
                if (node.outputs[o].empty()) {
                    made.push_back(nullptr);
                    continue;
                }
                allowance_.hold(fmt::format("{} output '{}' of shape {}", node.describe(), node.outputs[o],
                                            describe(outputs[o].shape)),
                                tensor_bytes(outputs[o]));
                Tensor<Number>& t = scope.values[node.outputs[o]] = std::move(outputs[o]);
                if (t.floating() && !kept) numerics.to_output(t.numbers);
                made.push_back(&t);
            }
            if constexpr (std::is_same_v<Numerics, EmulatedNumerics>)
                if (memo_key && !kept &&
                    std::all_of(made.begin(), made.end(), [](const auto* t) { return !t || t->kind == ValueKind::Tensor; }))
                    NodeOutputMemo::instance().keep(
                        *memo_key, made,
                        numerics.matmul_operands() ? numerics.matmul_operands()->log2_counts : std::map<int, std::uint64_t>{});
            // The constants converted for this node (and its subgraphs) are dropped once it has run.
            while (converted_.size() > converted_before) {
                allowance_.hold("the constants of a node", -converted_.back().second);
                converted_.pop_back();
            }
            if (selects(node) && made.front()) {
                decided(node, made.front()->shape.front());
                for (std::int64_t index : made.front()->integers) decided(node, index);
            }
            if (observer_) observer_(node.id, made);
            std::vector<std::string> read = node.inputs;
            read.insert(read.end(), node.implicit_inputs.begin(), node.implicit_inputs.end());
            for (const std::string& name : read) {
                const auto last = last_reader.find(name);
                if (last == last_reader.end() || last->second != index) continue;
                if (const auto it = scope.values.find(name); it != scope.values.end()) {
                    allowance_.hold(name, -tensor_bytes(it->second));
                    scope.values.erase(it);
                }
            }
            if (control)
                control->checkpoint(static_cast<double>(index + 1) / static_cast<double>(graph.nodes.size()),
                                    fmt::format("node {} of {}", index + 1, graph.nodes.size()));
            else if (cancellation)
                cancellation->check_cancelled();
        }
    }

    /// What a value costs.
    double tensor_bytes(const Tensor<Number>& t) const { return onnx::tensor_bytes(allowance_, t); }

private:
    const std::function<Numerics(std::size_t)>& numerics_for_;
    const NodeObserver<Number>& observer_;
    const DecisionObserver& decisions_;
    TensorAllowance& allowance_;
    int opset_;
    const Graph* memo_graph_;  ///< the graph whose nodes' outputs NodeOutputMemo keeps (nullptr: none)
    std::uint64_t memo_model_;
    /// Each subgraph's initializers as its evaluations see them, made once.
    std::map<const Graph*, Values<Number>> subgraph_constants_;
    /// The model graph's constants converted for the nodes running now (a control-flow node's and
    /// those of its subgraphs), with their bytes.
    std::list<std::pair<Tensor<Number>, double>> converted_;

    /// What a node's outputs depend on; nullopt for a node that reads a sequence or an optional.
    std::optional<NodeKey> node_key(const Node& node, const OperatorCall<EmulatedNumerics>& call) const {
        NodeKey key{memo_model_, node.id, call.numerics.formats(), call.numerics.seed(), {}};
        for (const Tensor<double>* input : call.inputs) {
            if (input && input->kind != ValueKind::Tensor) return std::nullopt;
            key.inputs.push_back(input ? content_hash(*input) : 0);
        }
        return key;
    }

    static bool is_control_flow(const Node& node) {
        return node.domain.empty() && (node.op_type == "If" || node.op_type == "Loop" || node.op_type == "Scan" ||
                                       node.op_type == "SequenceMap");
    }

    /// NonMaxSuppression: its selected indices are decisions (comparisons with thresholds), reported
    /// as the selection's size and then its (batch, class, box) rows, so that a run that selects
    /// nothing still decides.
    static bool selects(const Node& node) { return node.domain.empty() && node.op_type == "NonMaxSuppression"; }

    void decided(const Node& node, std::int64_t decision) const {
        if (decisions_) decisions_(node.id, decision);
    }

    const Graph& subgraph(const Node& node, const std::string& attribute) const {
        const auto it = node.attributes.find(attribute);
        if (it == node.attributes.end() || it->second.kind != Attribute::Kind::Graph || !it->second.graph)
            throw Error(fmt::format("{}: attribute {} (a graph) is required", node.describe(), attribute));
        return *it->second.graph;
    }

    /// Runs `graph` with its inputs bound to `bound` (in order) and returns its outputs in order.
    Tensors run_subgraph(const Graph& graph, Tensors bound, const Scope& outer, const Node& owner,
                         RunControl* cancellation) {
        if (bound.size() != graph.inputs.size())
            throw Error(fmt::format("{}: its subgraph '{}' takes {} input(s); the operator binds {}", owner.describe(),
                                    graph.name, graph.inputs.size(), bound.size()));
        Scope scope;
        scope.constants = &constants_of(graph, owner);
        scope.outer = &outer;
        for (std::size_t i = 0; i < bound.size(); ++i) {
            allowance_.hold(fmt::format("{}: subgraph input '{}'", owner.describe(), graph.inputs[i].name),
                            tensor_bytes(bound[i]));
            scope.values[graph.inputs[i].name] = std::move(bound[i]);
        }
        run_nodes(graph, scope, nullptr, cancellation);
        Tensors outputs;
        const Numerics numerics = numerics_for_(owner.id);
        for (const ValueInfo& output : graph.outputs) {
            const Tensor<Number>* t = find(scope, output.name, numerics);
            if (!t)
                throw Error(fmt::format("{}: output '{}' of its subgraph '{}' is made by no node", owner.describe(),
                                        output.name, graph.name));
            outputs.push_back(*t);
        }
        for (const auto& [name, t] : scope.values) allowance_.hold(name, -tensor_bytes(t));
        return outputs;
    }

    /// A subgraph's initializers, as Constant nodes of the node that holds it make theirs.
    const Values<Number>& constants_of(const Graph& graph, const Node& owner) {
        const auto found = subgraph_constants_.find(&graph);
        if (found != subgraph_constants_.end()) return found->second;
        const Numerics numerics = numerics_for_(owner.id);
        Values<Number> constants;
        for (const auto& [name, t] : graph.initializers) {
            Tensor<Number> c = convert_numbers<Number>(t, [&](double v) { return numerics.from_double(v); });
            if (c.floating()) numerics.to_output(c.numbers);
            constants[name] = std::move(c);
        }
        return subgraph_constants_[&graph] = std::move(constants);
    }

    Outputs<Numerics> run_control_flow(const OperatorCall<Numerics>& call, const Scope& scope,
                                       RunControl* cancellation) {
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
        decided(node, then ? 1 : 0);
        const Graph& branch = subgraph(node, then ? "then_branch" : "else_branch");
        Tensors outputs = run_subgraph(branch, {}, scope, node, cancellation);
        if (outputs.size() != node.outputs.size())
            throw Error(fmt::format("{}: {} has {} output(s), the node {}", node.describe(), branch.name,
                                    outputs.size(), node.outputs.size()));
        return outputs;
    }

    Outputs<Numerics> run_loop(const OperatorCall<Numerics>& call, const Scope& scope, RunControl* cancellation) {
        const Node& node = call.node;
        node.check_attributes({"body"});
        const Graph& body = subgraph(node, "body");
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
            Tensors made = run_subgraph(body, std::move(bound), scope, node, cancellation);
            // Without a condition input the body's condition is ignored (a for loop).
            if (condition) go = scalar_integer(made[0], node, "the condition") != 0;
            for (std::size_t v = 0; v < carried; ++v) values[v] = std::move(made[1 + v]);
            for (std::size_t k = 0; k < scanned; ++k) {
                allowance_.hold(fmt::format("{}: scan output '{}'", node.describe(), node.outputs[carried + k]),
                                tensor_bytes(made[1 + carried + k]));
                scans[k].push_back(std::move(made[1 + carried + k]));
            }
            if (cancellation) cancellation->check_cancelled();
        }
        decided(node, i);
        Outputs<Numerics> outputs = std::move(values);
        for (std::size_t k = 0; k < scanned; ++k) {
            const ValueInfo& declared = body.outputs[1 + carried + k];
            Tensor<Number> empty;
            empty.type = declared.type;
            empty.shape = {0};
            for (std::int64_t d : declared.shape) empty.shape.push_back(std::max<std::int64_t>(d, 0));
            outputs.push_back(stack(scans[k], 0, node, node.outputs[carried + k], std::move(empty)));
            for (const Tensor<Number>& t : scans[k]) allowance_.hold("a scan output", -tensor_bytes(t));
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
        const Graph& body = subgraph(node, "body");
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
            Tensors made = run_subgraph(body, std::move(bound), scope, node, cancellation);
            for (std::size_t k = 0; k < made.size(); ++k) {
                if (made[k].kind != ValueKind::Tensor)
                    throw Error(fmt::format("{}: body output '{}' is a {}; SequenceMap gathers tensors",
                                            node.describe(), body.outputs[k].name, to_string(made[k].kind)));
                gathered[k].push_back(std::move(made[k]));
            }
            if (cancellation) cancellation->check_cancelled();
        }
        decided(node, static_cast<std::int64_t>(length));
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
            Tensors made = run_subgraph(body, std::move(bound), scope, node, cancellation);
            states.assign(std::make_move_iterator(made.begin()),
                          std::make_move_iterator(made.begin() + static_cast<std::ptrdiff_t>(n)));
            for (std::size_t k = 0; k < k_outputs; ++k) {
                allowance_.hold(fmt::format("{}: scan output {}", node.describe(), k), tensor_bytes(made[n + k]));
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
            for (const Tensor<Number>& t : scans[k]) allowance_.hold("a scan output", -tensor_bytes(t));
        }
        return outputs;
    }

    Outputs<Numerics> run_scan(const OperatorCall<Numerics>& call, const Scope& scope, RunControl* cancellation) {
        const Node& node = call.node;
        const Graph& body = subgraph(node, "body");
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
};

}  // namespace

template <class Numerics>
Values<typename Numerics::Number> evaluate_graph(const Graph& graph, const Values<double>& constants,
                                                 std::vector<Tensor<typename Numerics::Number>> inputs,
                                                 const std::function<Numerics(std::size_t)>& numerics_for,
                                                 const NodeObserver<typename Numerics::Number>& observer,
                                                 RunControl* control, const DecisionObserver& decisions,
                                                 std::uint64_t memo_model) {
    using Number = typename Numerics::Number;
    check_inputs(graph, inputs);
    // The tensors held, from the constants and inputs on: every node's outputs are counted as they
    // are made, so that a graph whose intermediates outgrow the memory limit is refused.
    TensorAllowance allowance(graph.nodes.empty() ? 8.0 : number_bytes(numerics_for(0)), 0);
    for (const auto& [name, t] : constants)
        allowance.hold("the graph's constants", static_cast<double>(sizeof(double) * t.size()));
    for (const Tensor<Number>& t : inputs) allowance.hold("the graph's inputs", tensor_bytes(allowance, t));

    typename Evaluation<Numerics>::Scope scope;
    scope.graph_constants = &constants;
    for (std::size_t i = 0; i < inputs.size(); ++i) scope.values[graph.inputs[i].name] = std::move(inputs[i]);
    Evaluation<Numerics> evaluation(numerics_for, observer, decisions, allowance, graph.opset,
                                    memo_model != 0 ? &graph : nullptr, memo_model);
    evaluation.run_nodes(graph, scope, control, control);

    Values<Number> results;
    for (const ValueInfo& output : graph.outputs) {
        const Tensor<Number>* t = evaluation.find(scope, output.name, numerics_for(0));
        if (!t) throw Error(fmt::format("graph output '{}' is made by no node", output.name));
        results[output.name] = *t;
    }
    return results;
}

void add_control_flow_operators(OperatorTable& table) {
    // If, Loop, Scan and SequenceMap run their subgraphs in evaluate_graph; the table knows them for
    // the listing of what a model uses and for their versions.
    for (const char* op : {"If", "Loop", "Scan", "SequenceMap"})
        table.add(
            op,
            [](const auto& call) -> Outputs<std::decay_t<decltype(call.numerics)>> {
                throw Error(
                    fmt::format("{}: control flow runs with its subgraphs in evaluate_graph", call.node.describe()));
            },
            Reads::AnyValues);
}

template void check_inputs(const Graph&, std::vector<Tensor<double>>&);
template void check_inputs(const Graph&, std::vector<Tensor<TruthNumber>>&);
template Values<double> evaluate_graph(const Graph&, const Values<double>&, std::vector<Tensor<double>>,
                                       const std::function<EmulatedNumerics(std::size_t)>&, const NodeObserver<double>&,
                                       RunControl*, const DecisionObserver&, std::uint64_t);
template Values<TruthNumber> evaluate_graph(const Graph&, const Values<double>&, std::vector<Tensor<TruthNumber>>,
                                            const std::function<TruthNumerics(std::size_t)>&,
                                            const NodeObserver<TruthNumber>&, RunControl*, const DecisionObserver&,
                                            std::uint64_t);

}  // namespace floatscope::emu::onnx
