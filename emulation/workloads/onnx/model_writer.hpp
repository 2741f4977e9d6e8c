// Writing ONNX models (ModelProto) with ONNX's own protobuf definitions (Debian's libonnx-dev):
// what train-mlp exports its classifier with.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "emulation/workloads/onnx/graph.hpp"

namespace floatscope::emu::onnx {

/// The bytes of a ModelProto holding `graph`: ir_version 8, the ai.onnx opset graph.opset,
/// producer_name "floatscope", `doc_string` as the model's doc_string. Inputs and outputs become
/// ValueInfos of tensors (a dimension with a name in dimension_names is symbolic, a negative one
/// without a name is left unknown); initializers become TensorProtos with raw_data, little-endian:
/// Float and Double values rounded to binary32 / binary64, Float16 and BFloat16 to their bit
/// patterns (round to nearest even: exact for values of the type), integers as their type's two's
/// complement, bools as one byte 0/1. Nodes keep their order, names, domains and attributes.
/// Throws floatscope::Error naming the graph part: a tensor whose values do not fill its shape or
/// an integer outside its type, an attribute of kind Other, a shape whose dimension names do not
/// match its rank, a graph with opset 0.
std::string model_bytes(const Graph& graph, std::string_view doc_string = {});

/// model_bytes written to `path` all at once (core/atomic_file.hpp): on any error the file is left
/// as it was. Throws floatscope::Error naming the file and what failed.
void write_model(const Graph& graph, const std::filesystem::path& path, std::string_view doc_string = {});

}  // namespace floatscope::emu::onnx
