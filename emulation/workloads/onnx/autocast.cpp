// PyTorch autocast's op lists, by ONNX op type.
#include "emulation/workloads/onnx/autocast.hpp"

#include <algorithm>
#include <array>

namespace floatscope::emu::onnx {

AutocastList autocast_list(std::string_view op_type) {
    static constexpr std::array<std::string_view, 7> lower = {"MatMul", "Gemm", "Conv", "ConvTranspose",
                                                              "LSTM",   "GRU",  "RNN"};
    static constexpr std::array<std::string_view, 15> float32 = {"Exp",
                                                                 "Log",
                                                                 "Pow",
                                                                 "Reciprocal",
                                                                 "Softplus",
                                                                 "Softmax",
                                                                 "LogSoftmax",
                                                                 "ReduceSum",
                                                                 "ReduceProd",
                                                                 "ReduceL1",
                                                                 "ReduceL2",
                                                                 "ReduceSumSquare",
                                                                 "ReduceLogSumExp",
                                                                 "LayerNormalization",
                                                                 "InstanceNormalization"};
    if (std::find(lower.begin(), lower.end(), op_type) != lower.end()) return AutocastList::LowerPrecision;
    if (std::find(float32.begin(), float32.end(), op_type) != float32.end()) return AutocastList::Float32;
    return AutocastList::Promote;
}

}  // namespace floatscope::emu::onnx
