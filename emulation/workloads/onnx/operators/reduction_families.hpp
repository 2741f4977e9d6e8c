// The families of operators add_reduction_operators registers besides the Reduce* operators.
#pragma once

#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::emu::onnx {

void add_softmax_operators(OperatorTable& table);  ///< Softmax, LogSoftmax
void add_normalization_operators(OperatorTable& table);  ///< BatchNormalization, LayerNormalization,
                                                         ///< InstanceNormalization, LRN, MeanVarianceNormalization

}  // namespace floatscope::emu::onnx
