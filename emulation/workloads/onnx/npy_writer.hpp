// Writing tensors as NumPy .npy files: the graph outputs save-outputs keeps.
#pragma once

#include <filesystem>
#include <string>

#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// The bytes of an .npy file (format 1.0, C order) holding `tensor`: floating tensors as
/// little-endian float64 ('<f8', exact for every value a run holds), integers as '<i8', bools as '|b1'.
std::string npy_bytes(const Tensor<double>& tensor);
/// Writes them to `path` atomically (core::AtomicFile): nothing is left behind on failure.
void write_npy(const std::filesystem::path& path, const Tensor<double>& tensor);

}  // namespace floatscope::emu::onnx
