// NodeOutputMemo: an ONNX graph's node outputs kept from one emulated run for the next while an
// OutputReuseScope lives, so that configurations sharing a node's formats and inputs (the advisor's
// differ in a few nodes) compute it once. A node's outputs are a function of its formats, its seed
// and its inputs' values (control flow and sequences aside, which are never kept): those are the key.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "emulation/workloads/onnx/numerics.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

struct NodeKey {
    std::uint64_t model = 0;  ///< which loaded model
    std::size_t node = 0;  ///< Node::id
    NodeFormats formats;
    std::uint64_t seed = 0;  ///< EmulatedNumerics::seed
    std::vector<std::uint64_t> inputs;  ///< content_hash of each input (0: an input left out)
    friend bool operator==(const NodeKey&, const NodeKey&) = default;
};

/// A 64-bit hash of a plain tensor's element type, shape and values, each double bit for bit (-0
/// apart from +0). Two inputs that differ and hash alike would share outputs: with 64 bits, a
/// chance of about n^2 / 2^65 among the n tensors of a tune.
std::uint64_t content_hash(const Tensor<double>& t);

/// What a node made: its outputs (one per output of the node, an empty tensor where it has none) and
/// the operands its matrix products counted (OperandRange::log2_counts; empty where it counts none).
struct KeptNode {
    std::vector<Tensor<double>> outputs;
    std::map<int, std::uint64_t> operand_counts;
};

class NodeOutputMemo {
public:
    /// The process's one: keeps nothing while no OutputReuseScope lives, and drops all when it ends.
    static NodeOutputMemo& instance();

    /// What the node of `key` made in an earlier run.
    std::optional<KeptNode> find(const NodeKey& key);
    /// Keeps copies of `outputs` (nullptr: an output the node leaves out) and its operand counts
    /// within the scope's budget, dropping the least recently used; nothing when they are more than
    /// the budget.
    void keep(const NodeKey& key, const std::vector<const Tensor<double>*>& outputs,
              const std::map<int, std::uint64_t>& operand_counts);
    void clear();
    /// How many finds were answered since the process began (a measure of the reuse).
    std::uint64_t hits() const { return hits_; }

private:
    NodeOutputMemo() = default;
    struct Entry {
        NodeKey key;
        KeptNode made;
        std::uint64_t bytes = 0;
    };
    std::mutex mutex_;
    std::list<Entry> entries_;  ///< most recently used first
    std::unordered_multimap<std::uint64_t, std::list<Entry>::iterator> by_hash_;
    std::uint64_t bytes_ = 0;
    std::atomic<std::uint64_t> hits_{0};
};

}  // namespace floatscope::emu::onnx
