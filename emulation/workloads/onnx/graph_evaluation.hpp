// Evaluating an ONNX graph node by node, with the arithmetic of an emulated run or of the ground truth.
#pragma once

#include <cstddef>
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

/// Called after node `index` (of graph.nodes) with its outputs, in the node's output order
/// (nullptr for an output the node leaves out).
template <class Number>
using NodeObserver = std::function<void(std::size_t index, const std::vector<const Tensor<Number>*>& outputs)>;

/// Checks `inputs` against the graph's declared inputs (one per input, in order): count, element
/// type (a floating input takes any floating tensor, which then carries the declared type), and
/// every fixed dimension. Throws floatscope::Error naming the input.
template <class Number>
void check_inputs(const Graph& graph, std::vector<Tensor<Number>>& inputs);

/// Evaluates the nodes of `graph` in order and returns the graph's outputs by name.
/// `constants`: the initializers as this evaluation sees them (an emulated run's rounded to its
/// storage format and its quantized weights dequantized; the truth's exact), as doubles: the
/// truth converts a constant into its numbers for the node that reads it, and drops the copy after
/// the node, rather than holding every weight of a model in MPFR for the whole run. `inputs`: checked by
/// check_inputs. `numerics_for(i)`: node i's arithmetic; every floating output of a node goes
/// through its to_output. A value is released after the last node that reads it.
/// `control` (may be null) is told the progress after each node.
template <class Numerics>
Values<typename Numerics::Number> evaluate_graph(const Graph& graph, const Values<double>& constants,
                                                 std::vector<Tensor<typename Numerics::Number>> inputs,
                                                 const std::function<Numerics(std::size_t)>& numerics_for,
                                                 const NodeObserver<typename Numerics::Number>& observer,
                                                 RunControl* control);

}  // namespace floatscope::emu::onnx
