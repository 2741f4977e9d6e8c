// Reading NumPy .npy files of any rank as tensors: the graph inputs users save with numpy.save.
#pragma once

#include <string_view>

#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// The tensor an .npy file (format versions 1 to 3, C order) holds, of any rank (0-d included):
/// '<f2' '<f4' '<f8' as exact doubles (float16, float, double), '<i4' '<i8' '|i1' '|u1' as
/// integers (int32, int64, int8, uint8), '|b1' as bools 0 and 1. Throws floatscope::Error naming
/// `source` and what is wrong: not an .npy file, another dtype (big-endian ones included),
/// Fortran order, fewer data bytes than the shape needs, more elements than the memory limit allows.
Tensor<double> parse_npy_array(std::string_view bytes, std::string_view source);

}  // namespace floatscope::emu::onnx
