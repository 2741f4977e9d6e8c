// The families of elementwise operators add_elementwise_operators registers, one file each.
#pragma once

#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::emu::onnx {

void add_activation_operators(OperatorTable& table);  ///< Relu, LeakyRelu, PRelu, ThresholdedRelu, Elu, Selu, Celu,
                                                      ///< HardSigmoid, HardSwish, Softplus, Softsign, Shrink, Gelu
void add_comparison_operators(OperatorTable& table);  ///< Equal, Less, ..., Not, And, Or, Xor, Where
void add_cast_operators(OperatorTable& table);  ///< Cast, CastLike, Identity, Dropout

}  // namespace floatscope::emu::onnx
