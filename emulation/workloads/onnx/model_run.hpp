// What every run of the onnx workload reads: the model, its inputs (files, tensors in memory or the
// seed) and its labels, read once per process while the parameters and files stay the same.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emulation/simulation/parameters.hpp"
#include "emulation/workloads/onnx.hpp"
#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// What every run of the workload reads: the graph, its inputs, the labels of a classifier's inputs.
struct ModelRun {
    Graph graph;
    std::vector<Tensor<double>> inputs;
    std::vector<std::int64_t> labels;  ///< empty: no accuracy
    /// The elements of the graph's node outputs whose shapes are declared or inferred (a symbolic
    /// dimension counts as batch), for the memory estimate; the evaluation itself counts every
    /// tensor as it is made (TensorAllowance).
    double node_values = 0;
    /// What a symbolic dimension is in this run (input_batch): the declared work counts with it.
    std::int64_t batch = 1;
    /// Which load this is, for the node outputs kept across runs (NodeOutputMemo): a model read again
    /// is another, whatever its address.
    std::uint64_t serial = next_serial();
    /// Whether every floating initializer is a binary32 value (a float32 model's weights): rounding
    /// them into binary32 or binary64 with nearest even then leaves them as they are, and a run in
    /// such a storage format reads them without a rounded copy of its own.
    bool initializers_binary32 = false;

    static std::uint64_t next_serial() {
        static std::atomic<std::uint64_t> loads{0};
        return ++loads;
    }
};

/// The elements of value `name` as its declared or inferred shape says (a symbolic dimension
/// counts as batch); 0 where neither says.
double known_elements(const Graph& graph, const std::string& name, std::int64_t batch);

/// The model of `p` (model=), and its inputs from `given` (tensors held in memory; may be null), the
/// inputs= files (.npy, .pb or IDX images from first=) or the seed, with labels= read. Read once per
/// process while the parameters and the files they name stay the same: the engine's checks, every
/// policy and the truth share one reading (seconds each for a model of many megabytes). The last
/// reading is kept. Tensors given in memory (`given`, the Python module's) are not cached: nothing
/// names their contents.
std::shared_ptr<const ModelRun> load_shared(const Parameters& p, const OnnxTensors* given);

}  // namespace floatscope::emu::onnx
