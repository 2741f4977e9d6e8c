// Fake quantization of a graph's weights: the initializers and Constant-node tensors MatMul, Gemm, Conv and
// ConvTranspose multiply by, quantized with a quantize scheme and dequantized, blocked along the dimension the product
// reduces.
#pragma once

#include <map>
#include <string>

#include "emulation/quantize/quantization_scheme.hpp"
#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// The weight initializers of `graph` by name, each with the node that reads it as its weight
/// (input 1 of MatMul, Gemm, Conv, ConvTranspose, in the graph or in a subgraph; floating; two
/// dimensions or more).
std::map<std::string, const Node*> weight_initializers(const Graph& graph);

/// The weights of `graph` that Constant nodes of the graph itself hold (as paddle2onnx writes a
/// model's weights), by the Constant's output name, each with the node that reads it as above.
std::map<std::string, const Node*> constant_node_weights(const Graph& graph);

/// `weight` (read by `consumer`) quantized with `scheme` and dequantized: each row of the matrix
/// the scheme sees runs along the reduced dimension, as a PyTorch Linear weight (out x in) and
/// a Conv weight (out x in·kernel) lie: MatMul's B (..., K, N) and Gemm's B without transB are
/// quantized as their transposes, ConvTranspose's W (C, M/group, kernel...) as (M/group·kernel) x C.
/// The values are rounded to float first (the schemes read float tensors).
Tensor<double> quantize_weight(const Tensor<double>& weight, const Node& consumer, const QuantizationScheme& scheme);

}  // namespace floatscope::emu::onnx
