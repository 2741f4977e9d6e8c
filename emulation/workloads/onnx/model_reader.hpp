// Reading ONNX models (ModelProto) and tensors (TensorProto .pb files) with ONNX's own protobuf
// definitions (Debian's libonnx-dev).
#pragma once

#include <filesystem>
#include <string_view>

#include "core/data_folder.hpp"
#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// The graph of the model in `path`: initializers with their embedded or external data (the
/// data files relative to the model's folder), inputs, outputs, nodes in topological order (their
/// subgraphs' nodes listed), the ai.onnx opset. Throws floatscope::Error naming the file and what
/// is wrong: not a model, a tensor of an unsupported element type (naming the tensor), external
/// data missing or short, a cycle, a node reading a value nothing makes, tensors that would exceed
/// the memory limit (before allocating them, with the sizes), no ai.onnx opset. Operators and
/// opsets FloatScope does not evaluate read: check_evaluable (unsupported_operators.hpp) lists them.
Graph read_model(const std::filesystem::path& path);
/// The same from the bytes of a model (external data relative to `folder`); `source` names it in errors.
Graph parse_model(std::string_view bytes, std::string_view source, const core::DataFolder& folder = {});

/// Adds to graph.value_shapes the shapes ONNX's shape inference finds for the values of the model
/// in `path` (read again: inference works on the protobuf), for people (onnx-info, the GUI's
/// node list); what it cannot infer stays unknown.
void add_inferred_shapes(Graph& graph, const std::filesystem::path& path);

/// The tensor a TensorProto .pb file holds (ONNX's test data: input_0.pb ...), exact in double.
Tensor<double> read_tensor_file(const std::filesystem::path& path);
Tensor<double> parse_tensor(std::string_view bytes, std::string_view source);

/// The value a graph input or output declared as `declared` holds, from ONNX's test data: a
/// TensorProto, a SequenceProto of tensors or an OptionalProto (of a tensor or such a sequence).
Tensor<double> read_value_file(const std::filesystem::path& path, const ValueInfo& declared);
/// The tensor of a graph input from a file: .pb (TensorProto) or .npy (float16/32/64, int8/32/64, uint8,
/// bool, any rank; numpy's C order). Throws naming the file for other files.
Tensor<double> read_input_file(const std::filesystem::path& path);

}  // namespace floatscope::emu::onnx
