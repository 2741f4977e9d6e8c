// ONNX operators built on matrix products and sliding windows: MatMul, Gemm, Conv, ConvTranspose,
// and the pools.
#include "emulation/workloads/onnx/operators/linear_families.hpp"

namespace floatscope::emu::onnx {

void add_linear_operators(OperatorTable& table) {
    add_matrix_product_operators(table);
    add_convolution_operators(table);
    add_pooling_operators(table);
}

}  // namespace floatscope::emu::onnx
