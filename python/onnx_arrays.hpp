// ONNX graph tensors to and from NumPy: run("onnx", inputs=[arrays], save_outputs=True) without files.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::python {

/// An array (any layout) as a graph input, with the dtypes an .npy input file may have: float16,
/// float32, float64 (values exact in double), int8, int32, int64, uint8 and bool. Throws
/// floatscope::Error naming `what` and the dtypes taken otherwise.
emu::onnx::Tensor<double> tensor_from_array(pybind11::handle x, const std::string& what);

/// A graph output as save-outputs= writes it: float64 for floating tensors (exact for every value a run
/// holds), int64 for integers, bool for bools; of the tensor's shape.
pybind11::array array_from_tensor(const emu::onnx::Tensor<double>& tensor);

/// The graph outputs the runs hand back (emu::OnnxTensors::outputs), from any thread without the GIL.
class OnnxOutputs {
public:
    void add(const std::string& run, const std::string& output, const emu::onnx::Tensor<double>& tensor);
    /// {run: {output: array}}, runs by policy name and "ground-truth"; needs the GIL.
    pybind11::dict to_python() const;

private:
    mutable std::mutex mutex_;
    /// By run, then the outputs in graph order.
    std::map<std::string, std::vector<std::pair<std::string, emu::onnx::Tensor<double>>>> tensors_;
};

}  // namespace floatscope::python
