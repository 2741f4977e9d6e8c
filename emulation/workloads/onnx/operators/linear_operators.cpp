// ONNX operators: linear (being written).
#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::emu::onnx {

void add_linear_operators(OperatorTable& table) { (void)table; }

}  // namespace floatscope::emu::onnx
