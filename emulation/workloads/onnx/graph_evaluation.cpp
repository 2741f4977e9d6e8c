// Evaluating an ONNX graph: its inputs checked, what it holds counted against the memory limit, its
// nodes run by a GraphEvaluator (control flow by control_flow_runners), its outputs returned.
#include "emulation/workloads/onnx/graph_evaluation.hpp"

#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "emulation/workloads/onnx/graph_evaluator.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::emu::onnx {

namespace {

/// What one floating element of an evaluation costs: a double, or an MPFR number with its limbs.
double number_bytes(const EmulatedNumerics&) { return sizeof(double); }
double number_bytes(const TruthNumerics& numerics) { return core::mpfr_number_bytes(numerics.precision()); }
/// A wide run's numbers are at most as wide as its constants' precision.
double number_bytes(const WideNumerics& numerics) { return core::mpfr_number_bytes(numerics.precision()); }

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

/// The values `inputs` bind to the graph's inputs (`bound`), counted against `allowance`: tensors in the
/// evaluation's numbers as they are; the truth's doubles left in doubles where they are tensors
/// (`in_doubles`, which the evaluator converts for each node that reads them), converted here otherwise.
template <class Number, class Input>
void bind_inputs(const Graph& graph, std::vector<Tensor<Input>>& inputs, const std::function<Number(double)>& convert,
                 TensorAllowance& allowance, Values<Number>& bound, Values<double>& in_doubles) {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::string& name = graph.inputs[i].name;
        if constexpr (std::is_same_v<Input, Number>) {
            allowance.hold("the graph's inputs", value_bytes(allowance, inputs[i]));
            bound[name] = std::move(inputs[i]);
        } else if (inputs[i].kind == ValueKind::Tensor) {
            allowance.hold("the graph's inputs", static_cast<double>(sizeof(double) * inputs[i].size()));
            in_doubles[name] = std::move(inputs[i]);
        } else {
            Tensor<Number> converted = convert_numbers<Number>(inputs[i], convert);
            allowance.hold("the graph's inputs", value_bytes(allowance, converted));
            bound[name] = std::move(converted);
        }
    }
}

template <class Numerics, class Input>
Values<typename Numerics::Number> evaluate(const Graph& graph, const Values<double>& constants,
                                           std::vector<Tensor<Input>> inputs,
                                           const std::function<Numerics(std::size_t)>& numerics_for,
                                           const NodeObserver<typename Numerics::Number>& observer, RunControl* control,
                                           const DecisionObserver& decisions, std::uint64_t memo_model) {
    using Number = typename Numerics::Number;
    check_inputs(graph, inputs);
    // The tensors held, from the constants and inputs on: every node's outputs are counted as they
    // are made, so that a graph whose intermediates outgrow the memory limit is refused.
    TensorAllowance allowance(graph.nodes.empty() ? 8.0 : number_bytes(numerics_for(0)), 0);
    for (const auto& [name, t] : constants)
        allowance.hold("the graph's constants", static_cast<double>(sizeof(double) * t.size()));

    typename GraphEvaluator<Numerics>::Scope scope;
    scope.graph_constants = &constants;
    Values<double> inputs_in_doubles;
    bind_inputs<Number>(
        graph, inputs, [&](double v) { return numerics_for(0).from_double(v); }, allowance, scope.values,
        inputs_in_doubles);
    if (!inputs_in_doubles.empty()) scope.graph_inputs = &inputs_in_doubles;
    GraphEvaluator<Numerics> evaluation(numerics_for, observer, decisions, allowance, graph.opset,
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

}  // namespace

template <class Numerics>
Values<typename Numerics::Number> evaluate_graph(const Graph& graph, const Values<double>& constants,
                                                 std::vector<Tensor<typename Numerics::Number>> inputs,
                                                 const std::function<Numerics(std::size_t)>& numerics_for,
                                                 const NodeObserver<typename Numerics::Number>& observer,
                                                 RunControl* control, const DecisionObserver& decisions,
                                                 std::uint64_t memo_model) {
    return evaluate(graph, constants, std::move(inputs), numerics_for, observer, control, decisions, memo_model);
}

Values<TruthNumber> evaluate_graph_from_doubles(const Graph& graph, const Values<double>& constants,
                                                std::vector<Tensor<double>> inputs,
                                                const std::function<TruthNumerics(std::size_t)>& numerics_for,
                                                const NodeObserver<TruthNumber>& observer, RunControl* control,
                                                const DecisionObserver& decisions) {
    return evaluate(graph, constants, std::move(inputs), numerics_for, observer, control, decisions, 0);
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
                                            const std::function<WideNumerics(std::size_t)>&,
                                            const NodeObserver<TruthNumber>&, RunControl*, const DecisionObserver&,
                                            std::uint64_t);
template Values<TruthNumber> evaluate_graph(const Graph&, const Values<double>&, std::vector<Tensor<TruthNumber>>,
                                            const std::function<TruthNumerics(std::size_t)>&,
                                            const NodeObserver<TruthNumber>&, RunControl*, const DecisionObserver&,
                                            std::uint64_t);

}  // namespace floatscope::emu::onnx
