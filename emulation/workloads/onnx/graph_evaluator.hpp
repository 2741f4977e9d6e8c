// GraphEvaluator: runs a graph's nodes in their scope (values by name, released after their last
// reader, the model's constants converted for the node that reads them) and the subgraphs that the
// control-flow runners (control_flow_runners) hand it. evaluate_graph makes one per evaluation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "emulation/simulation/run_control.hpp"
#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/tensor_allowance.hpp"

namespace floatscope::emu::onnx {

/// What a value holds against `allowance`: a tensor's elements, a sequence's or an optional's tensors.
template <class Number>
double value_bytes(const TensorAllowance& allowance, const Tensor<Number>& t) {
    double bytes = allowance.bytes(t.size(), t.floating());
    for (const Tensor<Number>& element : t.elements) bytes += value_bytes(allowance, element);
    return bytes;
}

/// Evaluates a graph and, for its control-flow nodes, their subgraphs.
template <class Numerics>
class GraphEvaluator {
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
        /// The model graph's inputs as doubles, where the truth takes them so (evaluate_graph_from_doubles):
        /// read as the constants are. They come before constants of the same name (an input given
        /// overrides its initializer).
        const Values<double>* graph_inputs = nullptr;
        const Scope* outer = nullptr;
    };

    /// `memo_graph` (nullptr: none) is the graph whose nodes' outputs NodeOutputMemo keeps, under
    /// the model `memo_model`.
    GraphEvaluator(const std::function<Numerics(std::size_t)>& numerics_for, const NodeObserver<Number>& observer,
                   const DecisionObserver& decisions, TensorAllowance& allowance, int opset, const Graph* memo_graph,
                   std::uint64_t memo_model)
        : numerics_for_(numerics_for),
          observer_(observer),
          decisions_(decisions),
          allowance_(allowance),
          opset_(opset),
          memo_graph_(memo_graph),
          memo_model_(memo_model) {}

    /// The value `name` as seen from `scope`; nullptr where no scope has it. A constant of the model's
    /// graph is converted with `numerics` and lives until the node that reads it has run.
    const Tensor<Number>* find(const Scope& scope, const std::string& name, const Numerics& numerics);

    /// Runs the nodes of `graph` in `scope` (which holds its inputs); `control`: the progress of the
    /// model's graph (null in subgraphs, which only check for cancellation).
    void run_nodes(const Graph& graph, Scope& scope, RunControl* control, RunControl* cancellation);

    /// Runs `graph` with its inputs bound to `bound` (in order) in a scope inside `outer`, and returns
    /// its outputs in order; `owner`: the node that holds the subgraph.
    Tensors run_subgraph(const Graph& graph, Tensors bound, const Scope& outer, const Node& owner,
                         RunControl* cancellation);

    /// The graph attribute `attribute` of `node`; throws naming both where it has none.
    const Graph& subgraph(const Node& node, const std::string& attribute) const;

    /// Tells the decision observer that `node` decided `decision`.
    void decided(const Node& node, std::int64_t decision) const {
        if (decisions_) decisions_(node.id, decision);
    }

    /// Adds `bytes` (negative: released) to what the evaluation holds; throws past the memory limit.
    void hold(std::string_view what, double bytes) { allowance_.hold(what, bytes); }

    /// What a value costs.
    double tensor_bytes(const Tensor<Number>& t) const { return value_bytes(allowance_, t); }

private:
    const std::function<Numerics(std::size_t)>& numerics_for_;
    const NodeObserver<Number>& observer_;
    const DecisionObserver& decisions_;
    TensorAllowance& allowance_;
    int opset_;
    const Graph* memo_graph_;
    std::uint64_t memo_model_;
    /// Each subgraph's initializers as its evaluations see them, made once.
    std::map<const Graph*, Values<Number>> subgraph_constants_;
    /// The model graph's constants converted for the nodes running now (a control-flow node's and
    /// those of its subgraphs), with their bytes; an initializer left in doubles has its type and shape here.
    std::list<std::pair<Tensor<Number>, double>> converted_;

    /// What `scope` sees by `name`: a value (or a subgraph's constant) in the evaluation's numbers, or
    /// else the model graph's input or initializer in doubles; neither where no scope has it.
    struct Located {
        const Tensor<Number>* value = nullptr;
        const Tensor<double>* in_doubles = nullptr;
    };
    Located locate(const Scope& scope, const std::string& name) const;
    /// The model graph's initializer or input `name` in the evaluation's numbers, held until the node
    /// that reads it has run (an emulated run reads the doubles as they are).
    const Tensor<Number>* converted(const std::string& name, const Tensor<double>& constant, const Numerics& numerics);

    /// A subgraph's initializers, as Constant nodes of the node that holds it make theirs.
    const Values<Number>& constants_of(const Graph& graph, const Node& owner);
};

}  // namespace floatscope::emu::onnx
