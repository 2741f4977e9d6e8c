// PyTorch autocast's op lists mapped to ONNX op types: which nodes an `autocast = FORMAT` policy
// runs in the low format, which in fp32, and which in the format of their inputs.
#pragma once

#include <string_view>

namespace floatscope::emu::onnx {

enum class AutocastList {
    LowerPrecision,  ///< matrix products and convolutions: in the autocast format
    Float32,  ///< ops autocast runs in float32 (exp, log, pow, softmax, layer norm, sums, ...)
    Promote,  ///< everything else: in the widest format among the node's floating inputs
};

/// The list of `op_type`, after the CUDA lists of PyTorch's autocast documentation ("CUDA Ops
/// that can autocast to float16" and "... to float32", torch.amp, PyTorch 2.x): matmul, mm, bmm,
/// addmm, linear, conv*, conv_transpose*, LSTMCell, GRUCell, RNNCell (MatMul, Gemm, Conv,
/// ConvTranspose, LSTM, GRU, RNN) in the low format;
/// exp, log, pow, reciprocal, rsqrt, softplus, softmax, log_softmax, layer_norm, group_norm, sum,
/// prod, norms (Exp, Log, Pow, Reciprocal, Softplus, Softmax, LogSoftmax, LayerNormalization,
/// InstanceNormalization, ReduceSum, ReduceProd, ReduceSumSquare, ReduceL1, ReduceL2,
/// ReduceLogSumExp) in float32.
AutocastList autocast_list(std::string_view op_type);

}  // namespace floatscope::emu::onnx
