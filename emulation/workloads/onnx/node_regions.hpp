// The regions of an onnx run, node by node: what the onnx workload hands the trace (a policy's run)
// or the engine (the truth) as its graph's nodes run, with the decisions of its control flow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/tensor.hpp"
#include "emulation/workloads/onnx/tensor_allowance.hpp"

namespace floatscope::emu::onnx {

/// The first floating output of a node, or nullptr.
template <class Number>
const Tensor<Number>* first_floating(const std::vector<const Tensor<Number>*>& outputs) {
    for (const Tensor<Number>* t : outputs)
        if (t && t->floating()) return t;
    return nullptr;
}

inline std::string node_label(const onnx::Node& node) {
    return fmt::format("{} ({})", node.path.empty() ? node.name : node.path, node.op_type);
}

/// "If_2 (If): branch", "Loop_0 (Loop): iterations", "NMS_0 (NonMaxSuppression): selected": the
/// label of a node's decisions.
inline std::string decision_label(const onnx::Node& node) {
    const char* decides = node.op_type == "If"                  ? "branch"
                          : node.op_type == "NonMaxSuppression" ? "selected"
                                                                : "iterations";
    return fmt::format("{}: {}", node_label(node), decides);
}

/// The regions of one run, by node: kind node (index Node::id), a node's first floating output each
/// time it ran, concatenated (a Loop's body nodes over its iterations); kind branch (index the If's or
/// Loop's Node::id), its decisions, governing the node regions of its subgraphs. Indices go by the
/// node, not by what ran, so that a run that takes another branch than the truth pairs what both ran.
/// A node of the model's graph is handed on as it runs (the truth hands its regions to the engine
/// one at a time); the regions inside a control-flow node's subgraphs when that node has run, its
/// decisions before the regions they govern, so that the engine knows a divergence first.
template <class Number>
class NodeRegions {
public:
    /// add_node(node, values) and add_branch(node, decisions, the last Node::id of its subgraphs)
    /// make the regions; add_node's values live only until it returns (a node's output, read by later
    /// nodes): a policy's trace copies them, the truth's engine measures them at once. `count_kept`: the
    /// values handed on are counted as kept (a policy's trace keeps them all; the truth keeps none).
    using AddNode = std::function<void(const onnx::Node&, std::span<const Number>)>;
    using AddBranch = std::function<void(const onnx::Node&, const std::vector<std::int64_t>&, int)>;
    NodeRegions(const Graph& graph, AddNode add_node, AddBranch add_branch, bool count_kept)
        : nodes_(onnx::nodes_by_id(graph)),
          add_node_(std::move(add_node)),
          add_branch_(std::move(add_branch)),
          count_kept_(count_kept) {
        for (const onnx::Node& node : graph.nodes) top_.insert(node.id);
    }

    void node_ran(std::size_t id, const std::vector<const Tensor<Number>*>& outputs) {
        const Tensor<Number>* t = first_floating(outputs);
        const bool top = top_.count(id) != 0;
        // Values held until their control-flow node has run are kept, by the truth too.
        if (t && (count_kept_ || !top))
            onnx::keep_tensor("the trace's copy of " + nodes_[id]->describe() + "'s output", t->size(), true);
        if (!top) {
            if (t) values_[id].insert(values_[id].end(), t->numbers.begin(), t->numbers.end());
            return;
        }
        for (auto& [branch, decisions] : decisions_) add_branch_(*nodes_[branch], decisions, last_inside(branch));
        decisions_.clear();
        for (const auto& [inside, values] : values_) add_node_(*nodes_[inside], values);
        values_.clear();
        if (t) add_node_(*nodes_[id], t->numbers);
    }
    void decided(std::size_t id, std::int64_t decision) { decisions_[id].push_back(decision); }

private:
    std::vector<const onnx::Node*> nodes_;
    AddNode add_node_;
    AddBranch add_branch_;
    bool count_kept_;
    std::set<std::size_t> top_;  ///< the ids of the model graph's nodes
    std::map<std::size_t, std::vector<Number>> values_;  ///< of subgraph nodes, until their node has run
    std::map<std::size_t, std::vector<std::int64_t>> decisions_;

    int last_inside(std::size_t id) const {
        std::size_t inside = 0;
        for (const auto& [name, subgraph] : onnx::subgraphs(*nodes_[id]))
            inside += onnx::node_count_with_subgraphs(*subgraph);
        return static_cast<int>(id + inside);
    }
};

}  // namespace floatscope::emu::onnx
