// Deciding each node's formats: a walk over the nodes in order, tracking the format each value was written in.
#include "emulation/workloads/onnx/graph_precision.hpp"

#include <map>
#include <string>

#include "emulation/workloads/onnx/autocast.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The wider of two formats: more significand bits, then more exponent bits.
const core::FormatRounding& wider(const core::FormatRounding& a, const core::FormatRounding& b) {
    if (a.format.mantissa_bits != b.format.mantissa_bits)
        return a.format.mantissa_bits > b.format.mantissa_bits ? a : b;
    return a.format.exponent_bits >= b.format.exponent_bits ? a : b;
}

}  // namespace

GraphPrecision::GraphPrecision(const Graph& graph, const PrecisionPolicy& policy)
    : storage_(policy.roles[static_cast<std::size_t>(Role::Storage)]) {
    nodes_.resize(node_count_with_subgraphs(graph));
    std::map<std::string, core::FormatRounding> written;  // value name -> the format its values are in
    add_nodes(graph, policy, written);
}

void GraphPrecision::add_nodes(const Graph& graph, const PrecisionPolicy& policy,
                               std::map<std::string, core::FormatRounding>& written) {
    const auto role = [&](Role r) { return policy.roles[static_cast<std::size_t>(r)]; };
    for (const Node& node : graph.nodes) {
        NodeFormats f{role(Role::Compute), role(Role::Accumulate), role(Role::Output), {}};
        if (policy.autocast) {
            switch (autocast_list(node.op_type)) {
                case AutocastList::LowerPrecision: f.compute = f.output = *policy.autocast; break;
                case AutocastList::Float32: break;
                case AutocastList::Promote: {
                    const core::FormatRounding* widest = nullptr;
                    for (const std::string& input : node.inputs) {
                        // A 0-d constant (a Python scalar in the exported model) does not widen a
                        // tensor, as in PyTorch's type promotion.
                        const auto constant = graph.initializers.find(input);
                        if (input.empty() || (constant != graph.initializers.end() && constant->second.shape.empty()))
                            continue;
                        const auto it = written.find(input);
                        const core::FormatRounding& format = it != written.end() ? it->second : storage_;
                        widest = widest ? &wider(*widest, format) : &format;
                    }
                    if (widest) f.compute = f.output = *widest;
                    break;
                }
            }
        }
        // A node in a subgraph is selected by its path ("If_2/then_branch/MatMul_0").
        const GraphNode selector{node.op_type, node.path.empty() ? node.name : node.path};
        f.compute = policy.at(Role::Compute, selector, f.compute);
        f.accumulate = policy.at(Role::Accumulate, selector, f.accumulate);
        f.output = policy.at(Role::Output, selector, f.output);
        f.matmul = policy.matmul_model(f.compute, f.accumulate, f.output);
        nodes_.at(node.id) = f;
        for (const auto& [name, subgraph] : subgraphs(node)) add_nodes(*subgraph, policy, written);
        // A control-flow node's outputs are its subgraphs' outputs, written in its output format.
        for (const std::string& output : node.outputs) written[output] = f.output;
    }
}

}  // namespace floatscope::emu::onnx
