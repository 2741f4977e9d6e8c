// What a model uses that FloatScope does not evaluate, listed whole: every (operator definition,
// node count), subgraphs (If's branches, Loop's and Scan's bodies) included, so that a user learns
// it all at once rather than one node per run.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "emulation/workloads/onnx/graph.hpp"

namespace floatscope::emu::onnx {

/// One operator definition a model uses that FloatScope does not evaluate.
struct UnsupportedOperator {
    std::string definition;  ///< "Upsample-9", "LSTM (opset 11)", "Attention of domain com.microsoft"
    std::size_t nodes = 0;  ///< how many nodes use it, in subgraphs too
    std::string first_node;  ///< the first, by path: "If_25/then_branch/LSTM_3"
    std::string reason;  ///< why (OperatorTable::unsupported_reason)
};

/// Every operator definition of `graph` (and of its nodes' subgraphs, at the graph's opset) that
/// FloatScope does not evaluate, in the order they first appear; empty when it evaluates them all.
std::vector<UnsupportedOperator> unsupported_operators(const Graph& graph);

/// Throws Unsupported naming `source` and listing every unsupported_operators entry; where there is
/// none, checks the control-flow nodes' subgraphs against them (check_subgraph_signatures).
void check_evaluable(const Graph& graph, std::string_view source);

}  // namespace floatscope::emu::onnx
