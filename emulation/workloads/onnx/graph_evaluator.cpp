// GraphEvaluator: a graph's nodes run in order, each node's operator from the table (control flow
// from control_flow_runners), values released after their last reader.
#include "emulation/workloads/onnx/graph_evaluator.hpp"

#include <algorithm>
#include <optional>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/simulation/output_reuse.hpp"
#include "emulation/workloads/onnx/control_flow_runners.hpp"
#include "emulation/workloads/onnx/node_memo_key.hpp"
#include "emulation/workloads/onnx/node_output_memo.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/matrix_product.hpp"

namespace floatscope::emu::onnx {

namespace {

/// NonMaxSuppression: its selected indices are decisions (comparisons with thresholds), reported
/// as the selection's size and then its (batch, class, box) rows, so that a run that selects
/// nothing still decides.
bool selects(const Node& node) { return node.domain.empty() && node.op_type == "NonMaxSuppression"; }

}  // namespace

template <class Numerics>
auto GraphEvaluator<Numerics>::locate(const Scope& scope, const std::string& name) const -> Located {
    for (const Scope* s = &scope; s != nullptr; s = s->outer) {
        if (const auto it = s->values.find(name); it != s->values.end()) return {&it->second, nullptr};
        if (s->constants)
            if (const auto it = s->constants->find(name); it != s->constants->end()) return {&it->second, nullptr};
        for (const Values<double>* doubles : {s->graph_inputs, s->graph_constants})
            if (doubles)
                if (const auto it = doubles->find(name); it != doubles->end()) return {nullptr, &it->second};
    }
    return {};
}

template <class Numerics>
const Tensor<typename Numerics::Number>* GraphEvaluator<Numerics>::converted(const std::string& name,
                                                                             const Tensor<double>& constant,
                                                                             const Numerics& numerics) {
    if constexpr (std::is_same_v<Number, double>) {
        return &constant;
    } else {
        const double bytes = allowance_.bytes(constant.size(), constant.floating());
        allowance_.hold(fmt::format("'{}' in the evaluation's numbers", name), bytes);
        // An initializer or an input is a tensor: its numbers converted over the truth's threads (a
        // 6625-class head's 1.7 million weights).
        Tensor<Number> c;
        c.type = constant.type;
        c.shape = constant.shape;
        c.integers = constant.integers;
        c.numbers = make_elements<Number>(constant.numbers.size(),
                                          [&](std::size_t i) { return numerics.from_double(constant.numbers[i]); });
        converted_.push_back({std::move(c), bytes});
        return &converted_.back().first;
    }
}

template <class Numerics>
const Tensor<typename Numerics::Number>* GraphEvaluator<Numerics>::find(const Scope& scope, const std::string& name,
                                                                        const Numerics& numerics) {
    const Located at = locate(scope, name);
    return at.in_doubles ? converted(name, *at.in_doubles, numerics) : at.value;
}

template <class Numerics>
void GraphEvaluator<Numerics>::run_nodes(const Graph& graph, Scope& scope, RunControl* control,
                                         RunControl* cancellation) {
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
        // An input the node reads once is the operator's to take (OperatorCall::consumable) where it
        // is a copy converted for this node, or a value of this scope that no later node reads.
        // Control flow is left out: its subgraphs read values by name.
        const bool may_take = !is_control_flow(node) && node.implicit_inputs.empty();
        const auto read_once = [&](const std::string& name) {
            return may_take && std::count(node.inputs.begin(), node.inputs.end(), name) == 1;
        };
        const auto take_from = [&](std::size_t i, Tensor<Number>* t) {
            call.consumable.resize(i + 1);
            call.consumable[i] = t;
        };
        for (std::size_t i = 0; i < node.inputs.size(); ++i) {
            const std::string& name = node.inputs[i];
            if (name.empty()) {
                call.inputs.push_back(nullptr);
                continue;
            }
            const Located at = locate(scope, name);
            if (!at.value && !at.in_doubles)
                throw Error(fmt::format("{} reads '{}', which no earlier node makes", node.describe(), name));
            bool as_doubles = false;
            if constexpr (std::is_same_v<Numerics, TruthNumerics>)
                as_doubles = at.in_doubles && reads_as_doubles(node, i, opset_);
            if (as_doubles) {
                // Only the type and shape in the truth's numbers, held like a converted constant.
                call.as_doubles.resize(i + 1);
                call.as_doubles[i] = at.in_doubles;
                Tensor<Number>& header = converted_.emplace_back().first;
                header.type = at.in_doubles->type;
                header.shape = at.in_doubles->shape;
                call.inputs.push_back(&header);
            } else if (at.in_doubles) {
                call.inputs.push_back(converted(name, *at.in_doubles, numerics));
                // An emulated run reads the model's doubles themselves (converted() copies nothing).
                if constexpr (!std::is_same_v<Number, double>)
                    if (read_once(name)) take_from(i, &converted_.back().first);
            } else {
                call.inputs.push_back(at.value);
                if (const auto own = scope.values.find(name); own != scope.values.end() && &own->second == at.value &&
                                                              last_reader.at(name) == index && read_once(name))
                    take_from(i, &own->second);
            }
        }
        // The values this node reads last, with their bytes as it finds them: an operator may take
        // their numbers.
        std::vector<std::pair<std::string, double>> released;
        {
            std::vector<std::string> read = node.inputs;
            read.insert(read.end(), node.implicit_inputs.begin(), node.implicit_inputs.end());
            for (const std::string& name : read) {
                const auto last = last_reader.find(name);
                if (last == last_reader.end() || last->second != index) continue;
                const auto it = scope.values.find(name);
                const bool listed = std::any_of(released.begin(), released.end(),
                                                [&](const auto& value) { return value.first == name; });
                if (it != scope.values.end() && !listed) released.emplace_back(name, tensor_bytes(it->second));
            }
        }
        // An emulated run in an OutputReuseScope takes a node's outputs from an earlier run that
        // gave it the same formats, seed and inputs.
        std::optional<NodeKey> memo_key;
        std::optional<Outputs<Numerics>> kept;
        if constexpr (std::is_same_v<Numerics, EmulatedNumerics>) {
            if (&graph == memo_graph_ && !is_control_flow(node) && output_reuse_budget() > 0)
                memo_key = node_memo_key(memo_model_, call);
            if (memo_key)
                if (std::optional<KeptNode> made = NodeOutputMemo::instance().find(*memo_key)) {
                    kept = std::move(made->outputs);
                    if (OperandRange* range = numerics.matmul_operands()) range->log2_counts = made->operand_counts;
                }
        }
        Outputs<Numerics> outputs;
        try {
            outputs = kept                    ? std::move(*kept)
                      : is_control_flow(node) ? run_control_flow(*this, call, scope, cancellation)
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
            allowance_.hold(
                fmt::format("{} output '{}' of shape {}", node.describe(), node.outputs[o], describe(outputs[o].shape)),
                tensor_bytes(outputs[o]));
            Tensor<Number>& t = scope.values[node.outputs[o]] = std::move(outputs[o]);
            if (t.floating() && !kept) numerics.to_output(t.numbers);
            made.push_back(&t);
        }
        if constexpr (std::is_same_v<Numerics, EmulatedNumerics>)
            if (memo_key && !kept &&
                std::all_of(made.begin(), made.end(), [](const auto* t) { return !t || t->kind == ValueKind::Tensor; }))
                NodeOutputMemo::instance().keep(*memo_key, made,
                                                numerics.matmul_operands() ? numerics.matmul_operands()->log2_counts
                                                                           : std::map<int, std::uint64_t>{});
        // The constants converted for this node (and its subgraphs) are dropped once it has run.
        while (converted_.size() > converted_before) {
            allowance_.hold("the constants of a node", -converted_.back().second);
            release_numbers(converted_.back().first.numbers);
            converted_.pop_back();
        }
        if (selects(node) && made.front()) {
            decided(node, made.front()->shape.front());
            for (std::int64_t index : made.front()->integers) decided(node, index);
        }
        if (observer_) observer_(node.id, made);
        for (const auto& [name, bytes] : released) {
            const auto it = scope.values.find(name);
            if (it == scope.values.end()) continue;
            allowance_.hold(name, -bytes);
            release_numbers(it->second.numbers);
            scope.values.erase(it);
        }
        if (control)
            control->checkpoint(static_cast<double>(index + 1) / static_cast<double>(graph.nodes.size()),
                                fmt::format("node {} of {}", index + 1, graph.nodes.size()));
        else if (cancellation)
            cancellation->check_cancelled();
    }
}

template <class Numerics>
auto GraphEvaluator<Numerics>::run_subgraph(const Graph& graph, Tensors bound, const Scope& outer, const Node& owner,
                                            RunControl* cancellation) -> Tensors {
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

template <class Numerics>
const Graph& GraphEvaluator<Numerics>::subgraph(const Node& node, const std::string& attribute) const {
    const auto it = node.attributes.find(attribute);
    if (it == node.attributes.end() || it->second.kind != Attribute::Kind::Graph || !it->second.graph)
        throw Error(fmt::format("{}: attribute {} (a graph) is required", node.describe(), attribute));
    return *it->second.graph;
}

template <class Numerics>
auto GraphEvaluator<Numerics>::constants_of(const Graph& graph, const Node& owner) -> const Values<Number>& {
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

template class GraphEvaluator<EmulatedNumerics>;
template class GraphEvaluator<WideNumerics>;
template class GraphEvaluator<TruthNumerics>;

}  // namespace floatscope::emu::onnx
