// The formats of every node of a graph under a precision policy: the roles, autocast's lists,
// and the op-type and node-name overrides.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/numerics.hpp"

namespace floatscope::emu::onnx {

/// Each node's NodeFormats, decided before the graph runs. Without autocast a node takes the
/// policy's roles; with it, autocast_list decides: LowerPrecision nodes compute and write in the
/// autocast format (accumulating in the policy's accumulate format, fp32 by default), Float32
/// nodes take the policy's roles, Promote nodes compute and write in the widest format among the
/// formats their floating inputs were written in (inputs and initializers: the storage format;
/// 0-d initializers, scalars in PyTorch, do not widen).
/// Nodes in subgraphs (If's branches, Loop's and Scan's bodies) likewise, `nodes` clauses matching
/// their paths ("If_2/then_branch/*").
/// Then the policy's `ops` and `nodes` overrides apply, the last matching one winning. Matrix
/// products follow policy.matmul_model of the node's formats.
class GraphPrecision {
public:
    GraphPrecision(const Graph& graph, const PrecisionPolicy& policy);

    /// The formats of the node whose Node::id is `id` (its index in a graph without subgraphs).
    const NodeFormats& node(std::size_t id) const { return nodes_.at(id); }
    /// The format of the graph's inputs and initializers (the storage role).
    const core::FormatRounding& storage() const { return storage_; }

private:
    void add_nodes(const Graph& graph, const PrecisionPolicy& policy,
                   std::map<std::string, core::FormatRounding>& written);
    core::FormatRounding storage_;
    std::vector<NodeFormats> nodes_;
};

}  // namespace floatscope::emu::onnx
