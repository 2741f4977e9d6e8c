// The ONNX graph of a trained MLP classifier, as torch.onnx.export writes nn.Linear layers at opset 17.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "emulation/workloads/nn/activation.hpp"
#include "emulation/workloads/nn/matrix.hpp"
#include "emulation/workloads/onnx/graph.hpp"

namespace floatscope::emu {

/// One dense layer as the classifier multiplies it: x w + bias, w in x out.
struct DenseWeights {
    Matrix weights;
    std::vector<double> bias;
};

/// The names of the exported graph's values.
inline constexpr const char* classifier_input_name = "image";
inline constexpr const char* classifier_logits_name = "logits";
inline constexpr const char* classifier_probabilities_name = "probabilities";

/// The classifier `layers` (each layer's inputs the previous one's outputs) with `activation`
/// after every layer but the last, as an opset-17 graph: input `image` [batch, inputs] float (batch
/// symbolic), per layer l a Gemm (transB = 1: the weight initializer fc<l>.weight stored out x in,
/// as PyTorch stores and exports a Linear; bias fc<l>.bias), the activation (Relu; Tanh; gelu
/// decomposed as torch.onnx.export writes the exact GELU before opset 20: x * (1 + Erf(x /
/// sqrt 2)) * 0.5 with Div, Erf, Add, Mul, Mul), and the outputs `logits` [batch, classes] and
/// `probabilities`, their Softmax along the classes. Weights and biases are float initializers:
/// the writer rounds them to binary32 (exact for values of fp32, fp16, bf16 and narrower formats).
/// Throws floatscope::Error when there is no layer or consecutive layers' widths disagree.
onnx::Graph classifier_graph(const std::vector<DenseWeights>& layers, Activation activation);

}  // namespace floatscope::emu
