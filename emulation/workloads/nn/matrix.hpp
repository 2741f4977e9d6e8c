// Row-major matrices of doubles: the arrays the neural-network workloads pass between layers.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace floatscope::emu {

/// rows x cols values, row-major (the layout gemm takes).
struct Matrix {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<double> values;

    Matrix() = default;
    Matrix(std::size_t r, std::size_t c) : rows(r), cols(c), values(r * c) {}

    double& operator()(std::size_t i, std::size_t j) { return values[i * cols + j]; }
    double operator()(std::size_t i, std::size_t j) const { return values[i * cols + j]; }
    std::span<double> row(std::size_t i) { return {values.data() + i * cols, cols}; }
    std::span<const double> row(std::size_t i) const { return {values.data() + i * cols, cols}; }
};

/// The transpose, as a new row-major matrix.
inline Matrix transpose(const Matrix& m) {
    Matrix t(m.cols, m.rows);
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) t(j, i) = m(i, j);
    return t;
}

}  // namespace floatscope::emu
