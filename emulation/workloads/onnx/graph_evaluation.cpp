// Evaluating an ONNX graph: values by name, each node's operator from the table, values released
// after their last reader.
#include "emulation/workloads/onnx/graph_evaluation.hpp"

#include <list>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/tensor_allowance.hpp"

namespace floatscope::emu::onnx {

namespace {

/// What one floating element of an evaluation costs: a double, or an MPFR number with its limbs.
double number_bytes(const EmulatedNumerics&) { return sizeof(double); }
double number_bytes(const TruthNumerics& numerics) { return core::mpfr_number_bytes(numerics.precision()); }

template <class Number>
double tensor_bytes(const TensorAllowance& allowance, const Tensor<Number>& t) {
    return allowance.bytes(t.size(), t.floating());
}

}  // namespace

template <class Number>
void check_inputs(const Graph& graph, std::vector<Tensor<Number>>& inputs) {
    if (inputs.size() != graph.inputs.size())
        throw Error(fmt::format("the graph takes {} input(s), {} given", graph.inputs.size(), inputs.size()));
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const ValueInfo& declared = graph.inputs[i];
        Tensor<Number>& given = inputs[i];
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

template <class Numerics>
Values<typename Numerics::Number> evaluate_graph(const Graph& graph, const Values<double>& constants,
                                                 std::vector<Tensor<typename Numerics::Number>> inputs,
                                                 const std::function<Numerics(std::size_t)>& numerics_for,
                                                 const NodeObserver<typename Numerics::Number>& observer,
                                                 RunControl* control) {
    using Number = typename Numerics::Number;
    check_inputs(graph, inputs);
    // The index of the last node that reads each value (graph outputs are kept to the end).
    std::map<std::string, std::size_t> last_reader;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        for (const std::string& name : graph.nodes[i].inputs)
            if (!name.empty()) last_reader[name] = i;
    for (const ValueInfo& output : graph.outputs) last_reader[output.name] = graph.nodes.size();

    // The tensors held, from the constants and inputs on: every node's outputs are counted as they
    // are made, so that a graph whose intermediates outgrow the memory limit is refused.
    TensorAllowance allowance(graph.nodes.empty() ? 8.0 : number_bytes(numerics_for(0)), 0);
    for (const auto& [name, t] : constants)
        allowance.hold("the graph's constants", static_cast<double>(sizeof(double) * t.size()));
    for (const Tensor<Number>& t : inputs) allowance.hold("the graph's inputs", tensor_bytes(allowance, t));

    Values<Number> values;
    for (std::size_t i = 0; i < inputs.size(); ++i) values[graph.inputs[i].name] = std::move(inputs[i]);
    // The constants one node reads, in the evaluation's numbers (the truth's), until it has run.
    std::list<Tensor<Number>> converted;
    double converted_bytes = 0;
    auto lookup = [&](const std::string& name) -> const Tensor<Number>* {
        if (const auto it = values.find(name); it != values.end()) return &it->second;
        const auto it = constants.find(name);
        if (it == constants.end()) return nullptr;
        if constexpr (std::is_same_v<Number, double>) {
            return &it->second;
        } else {
            const double bytes = allowance.bytes(it->second.size(), it->second.floating());
            allowance.hold(fmt::format("the constant '{}' in the evaluation's numbers", name), bytes);
            converted_bytes += bytes;
            const Numerics& numerics = numerics_for(0);
            return &converted.emplace_back(
                convert_numbers<Number>(it->second, [&](double v) { return numerics.from_double(v); }));
        }
    };

    const OperatorTable& table = operator_table();
    for (std::size_t index = 0; index < graph.nodes.size(); ++index) {
        const Node& node = graph.nodes[index];
        const Numerics numerics = numerics_for(index);
        OperatorCall<Numerics> call{node, graph.opset, {}, numerics};
        for (const std::string& name : node.inputs) {
            const Tensor<Number>* t = name.empty() ? nullptr : lookup(name);
            if (!name.empty() && !t)
                throw Error(fmt::format("{} reads '{}', which no earlier node makes", node.describe(), name));
            call.inputs.push_back(t);
        }
        Outputs<Numerics> outputs;
        try {
            outputs = table.run(call);
        } catch (const Cancelled&) {
            throw;
        } catch (const Error& e) {
            // Name the node unless the operator already did.
            const std::string what = e.what();
            if (what.find(node.describe()) != std::string::npos) throw;
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
            allowance.hold(
                fmt::format("{} output '{}' of shape {}", node.describe(), node.outputs[o], describe(outputs[o].shape)),
                tensor_bytes(allowance, outputs[o]));
            Tensor<Number>& t = values[node.outputs[o]] = std::move(outputs[o]);
            if (t.floating()) numerics.to_output(t.numbers);
            made.push_back(&t);
        }
        converted.clear();
        allowance.hold("the constants of a node", -converted_bytes);
        converted_bytes = 0;
        if (observer) observer(index, made);
        for (const std::string& name : node.inputs) {
            const auto last = last_reader.find(name);
            if (last == last_reader.end() || last->second != index) continue;
            if (const auto it = values.find(name); it != values.end()) {
                allowance.hold(name, -tensor_bytes(allowance, it->second));
                values.erase(it);
            }
        }
        if (control)
            control->checkpoint(static_cast<double>(index + 1) / static_cast<double>(graph.nodes.size()),
                                fmt::format("node {} of {}", index + 1, graph.nodes.size()));
    }

    Values<Number> results;
    for (const ValueInfo& output : graph.outputs) {
        const Tensor<Number>* t = lookup(output.name);
        if (!t) throw Error(fmt::format("graph output '{}' is made by no node", output.name));
        results[output.name] = *t;
    }
    return results;
}

template void check_inputs(const Graph&, std::vector<Tensor<double>>&);
template void check_inputs(const Graph&, std::vector<Tensor<TruthNumber>>&);
template Values<double> evaluate_graph(const Graph&, const Values<double>&, std::vector<Tensor<double>>,
                                       const std::function<EmulatedNumerics(std::size_t)>&, const NodeObserver<double>&,
                                       RunControl*);
template Values<TruthNumber> evaluate_graph(const Graph&, const Values<double>&, std::vector<Tensor<TruthNumber>>,
                                            const std::function<TruthNumerics(std::size_t)>&,
                                            const NodeObserver<TruthNumber>&, RunControl*);

}  // namespace floatscope::emu::onnx
