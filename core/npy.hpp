// NumPy .npy files of 2-D float16, float32 and float64 arrays: the matrices users bring from their GPUs.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/format.hpp"

namespace floatscope::core {

/// A row-major matrix of exact values.
struct Matrix {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<double> values;  ///< rows * cols, row after row
};

/// The matrix an .npy file (format versions 1 to 3) holds: a 2-D C-order array of little-endian
/// float16, float32 or float64 ('<f2', '<f4', '<f8'). Throws floatscope::Error naming `source` and
/// what is wrong (not an .npy file, another dtype, Fortran order, not 2-D, too short) otherwise.
Matrix parse_npy(std::string_view bytes, std::string_view source);

/// The bytes of an .npy file (version 1.0) holding `matrix` as `element`'s dtype: fp16 ('<f2') or
/// fp32 ('<f4'), the values rounded to it with rne (exact for values of the format). Throws
/// floatscope::Error for another element format.
std::string npy_bytes(const Matrix& matrix, const FormatSpec& element);

}  // namespace floatscope::core
