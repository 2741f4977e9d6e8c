// If, Loop, Scan and SequenceMap: the control-flow nodes, which run their subgraphs through the
// graph's evaluator (GraphEvaluator) and report their decisions (a branch, a number of iterations).
#pragma once

#include "emulation/simulation/run_control.hpp"
#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::emu::onnx {

template <class Numerics>
class GraphEvaluator;

/// Whether `node` is one of the control-flow operators run here rather than from the operator table.
bool is_control_flow(const Node& node);

/// Runs the control-flow node of `call`, its subgraphs in scopes inside `scope`.
template <class Numerics>
Outputs<Numerics> run_control_flow(GraphEvaluator<Numerics>& evaluator, const OperatorCall<Numerics>& call,
                                   const typename GraphEvaluator<Numerics>::Scope& scope, RunControl* cancellation);

}  // namespace floatscope::emu::onnx
