// The onnx workload on tensors held in memory: the caller hands the graph inputs in and takes the graph
// outputs back without files (the Python module's run("onnx", inputs=[arrays], save_outputs=True)).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu {

/// What the caller holds in place of the inputs= and save-outputs= files.
struct OnnxTensors {
    /// One per graph input, in order, in place of inputs= (which must then be empty); empty: inputs=
    /// or the seed, as usual.
    std::vector<onnx::Tensor<double>> inputs;
    /// Called after each run with the run's name (the policy's; "ground-truth" for the MPFR evaluation,
    /// its values rounded to double as save-outputs= writes them), the graph output's name and its
    /// tensor, once per graph output; from the thread each run is on, so possibly several at once.
    /// Empty: not called.
    std::function<void(const std::string& run, const std::string& output, const onnx::Tensor<double>& tensor)> outputs;
};

/// The onnx workload (same name, parameters, checks and results) reading and handing on `tensors`. It
/// is not in the registry: a RunRequest points at it while it runs.
std::unique_ptr<const Workload> onnx_workload_on(std::shared_ptr<const OnnxTensors> tensors);

}  // namespace floatscope::emu
