// Matrices on disk for matmul: NumPy .npy (float16, float32) or CSV (one row a record), by extension.
#pragma once

#include <filesystem>
#include <string>

#include "core/format.hpp"
#include "core/npy.hpp"

namespace floatscope::cli {

/// The matrix in `path`: .npy (core/npy.hpp) when the name ends in .npy, CSV otherwise (every
/// record a row of decimal numbers, all of the same length). Throws floatscope::Error naming
/// `what` and the file when it cannot be read or is not a matrix.
core::Matrix read_matrix_file(const std::filesystem::path& path, const std::string& what);

/// Writes `matrix` (values of `element`, fp16 or fp32) to `path` at once: .npy of that dtype, or
/// CSV with the shortest decimal of each value.
void write_matrix_file(const std::filesystem::path& path, const core::Matrix& matrix, const core::FormatSpec& element);

}  // namespace floatscope::cli
