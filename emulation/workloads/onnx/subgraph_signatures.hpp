// The subgraphs of If, Loop and Scan nodes against their nodes, checked before a run: what the
// model declares must fit, so that a model that cannot run is refused before anything is written.
#pragma once

#include <string_view>

#include "emulation/workloads/onnx/graph.hpp"

namespace floatscope::emu::onnx {

/// Throws floatscope::Error naming `source`, the node and what disagrees, for any node of `graph`
/// or of its subgraphs where: an If's then_branch and else_branch make other numbers of outputs
/// than each other or the node, or declare an output of other element types, ranks or fixed
/// dimensions; a Loop's body does not take the trip count, the condition and the node's carried
/// values or does not make the condition, those values and at least its scan outputs; a Scan's body
/// does not take its states and scan inputs and make its states and scan outputs.
void check_subgraph_signatures(const Graph& graph, std::string_view source);

}  // namespace floatscope::emu::onnx
