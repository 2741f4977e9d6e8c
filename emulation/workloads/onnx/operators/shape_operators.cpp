// ONNX operators that move or make elements without arithmetic (every element type), and the
// shapes and constants a graph computes.
#include "emulation/workloads/onnx/operators/shape_families.hpp"

namespace floatscope::emu::onnx {

void add_shape_operators(OperatorTable& table) {
    add_layout_operators(table);
    add_indexing_operators(table);
    add_constant_operators(table);
}

}  // namespace floatscope::emu::onnx
