// The families add_linear_operators registers, each in a file of its own.
#pragma once

#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::emu::onnx {

void add_matrix_product_operators(OperatorTable& table);  ///< MatMul, Gemm
void add_convolution_operators(OperatorTable& table);  ///< Conv, ConvTranspose
void add_pooling_operators(OperatorTable& table);  ///< MaxPool, AveragePool, GlobalMaxPool, GlobalAveragePool

}  // namespace floatscope::emu::onnx
