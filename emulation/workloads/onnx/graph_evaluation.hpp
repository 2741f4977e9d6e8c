// Evaluating an ONNX graph node by node, with the arithmetic of an emulated run or of the ground truth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "emulation/simulation/run_control.hpp"
#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/numerics.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

template <class Number>
using Values = std::map<std::string, Tensor<Number>>;

/// Called after node `id` (Node::id: its index in graph.nodes in a graph without subgraphs) has run,
/// with its outputs in the node's output order (nullptr for an output the node leaves out); a node
/// in a subgraph each time it runs (a Loop's body nodes once per iteration), before the node that
/// holds the subgraph.
template <class Number>
using NodeObserver = std::function<void(std::size_t id, const std::vector<const Tensor<Number>*>& outputs)>;

/// Called when a node has decided, with its Node::id and the decision: an If's branch
/// (1: then_branch, 0: else_branch), the iterations a Loop made, NonMaxSuppression's selection (its
/// size, then its indices).
using DecisionObserver = std::function<void(std::size_t id, std::int64_t decision)>;

/// Checks `inputs` against the graph's declared inputs (one per input, in order): count, element
/// type (a floating input takes any floating tensor, which then carries the declared type), and
/// every fixed dimension. Throws floatscope::Error naming the input.
template <class Number>
void check_inputs(const Graph& graph, std::vector<Tensor<Number>>& inputs);

/// Evaluates the nodes of `graph` in order and returns the graph's outputs by name.
/// `constants`: the initializers as this evaluation sees them (an emulated run's rounded to its
/// storage format and its quantized weights dequantized; the truth's exact), as doubles: the
/// truth converts a constant into its numbers for the node that reads it, and drops the copy after
/// the node, rather than holding every weight of a model in MPFR for the whole run. `inputs`: checked
/// by check_inputs. `numerics_for(id)`: the arithmetic of the node whose Node::id is `id`; every
/// floating output of a node goes through its to_output. A value is released after the last node
/// that reads it. `control` (may be null) is told the progress after each node of the graph.
/// If, Loop and Scan run their subgraphs here, whose nodes read the values of the graphs around
/// them; a subgraph's initializers are as Constant nodes, in the output format of the node that
/// holds the subgraph. `decisions` (may be empty) hears each If's, Loop's and NonMaxSuppression's
/// decisions. `memo_model` (emulated runs): nonzero names the loaded model, under which the graph's
/// nodes' outputs are kept for later runs and taken from earlier ones while an OutputReuseScope
/// lives (NodeOutputMemo).
template <class Numerics>
Values<typename Numerics::Number> evaluate_graph(const Graph& graph, const Values<double>& constants,
                                                 std::vector<Tensor<typename Numerics::Number>> inputs,
                                                 const std::function<Numerics(std::size_t)>& numerics_for,
                                                 const NodeObserver<typename Numerics::Number>& observer,
                                                 RunControl* control, const DecisionObserver& decisions = {},
                                                 std::uint64_t memo_model = 0);

/// The ground truth's evaluate_graph with the graph's inputs as the model's doubles: a tensor input is
/// converted for each node that reads it and dropped after that node, or read as doubles where the
/// node's operator takes them (reads_as_doubles: MatMul and Gemm), as the graph's constants are,
/// rather than held in MPFR until its last reader (a batch of 10,000 images held 7.8 million numbers).
/// The same numbers as evaluate_graph given the inputs converted by from_double.
Values<TruthNumber> evaluate_graph_from_doubles(const Graph& graph, const Values<double>& constants,
                                                std::vector<Tensor<double>> inputs,
                                                const std::function<TruthNumerics(std::size_t)>& numerics_for,
                                                const NodeObserver<TruthNumber>& observer, RunControl* control,
                                                const DecisionObserver& decisions = {});

}  // namespace floatscope::emu::onnx
