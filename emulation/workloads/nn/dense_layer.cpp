// A dense layer under a policy: matrix products through gemm (block-scaled: by recipe), the rest elementwise.
#include "emulation/workloads/nn/dense_layer.hpp"

#include "core/round_array.hpp"
#include "emulation/quantize/block_scaled_operands.hpp"

namespace floatscope::emu {

namespace {

/// Rounds the operand itself when its rounding is stochastic; returns the matrix gemm should read.
const Matrix& stochastic_operand(OperandQuantization& q, const Matrix& m, Matrix& rounded,
                                 core::StochasticSource& random) {
    if (!core::is_stochastic(q.rounding.mode)) return m;
    rounded = m;
    // The quotient by the scale is taken in double: its error is far below the 2^-31 resolution
    // of the stochastic rounding's probabilities (round_array), and r * scale / scale is exact.
    for (double& v : rounded.values) v /= q.scale;
    core::round_array(q.rounding.format, q.rounding.mode, rounded.values, rounded.values, &random);
    for (double& v : rounded.values) v *= q.scale;
    q.rounding.mode = core::RoundingMode::NearestEven;
    return rounded;
}

}  // namespace

std::uint64_t layer_seed(std::uint64_t seed, int layer, int role) {
    return (seed * 0x9E3779B97F4A7C15ULL) ^ (static_cast<std::uint64_t>(layer) << 8) ^ static_cast<std::uint64_t>(role);
}

LayerPrecision::LayerPrecision(const PrecisionPolicy& policy, int layer, int layer_count, std::uint64_t seed)
    : matmul(policy.matmul_model(layer, layer_count)),
      storage(policy.at(Role::Storage, layer, layer_count), layer_seed(seed, layer, 0)),
      compute(policy.at(Role::Compute, layer, layer_count), layer_seed(seed, layer, 1)),
      accumulate(policy.at(Role::Accumulate, layer, layer_count), layer_seed(seed, layer, 2)),
      output(policy.at(Role::Output, layer, layer_count), layer_seed(seed, layer, 3)),
      operand_random(layer_seed(seed, layer, 4)) {}

Matrix matmul(AccumulationModel model, const Matrix& a, const Matrix& b, core::StochasticSource& random) {
    Matrix rounded_a, rounded_b;
    const Matrix& qa = stochastic_operand(model.x, a, rounded_a, random);
    const Matrix& qb = stochastic_operand(model.y, b, rounded_b, random);
    Matrix c(a.rows, b.cols);
    matrix_product(model, qa.values, qb.values, c.values, a.rows, a.cols, b.cols);
    return c;
}

Matrix dense_affine(LayerPrecision& precision, const AccumulationModel& model, const Matrix& x, const Matrix& w,
                    std::span<const double> bias) {
    Matrix h = matmul(model, x, w, precision.operand_random);
    const ElementwiseArithmetic& c = precision.compute;
    std::vector<double> b(bias.begin(), bias.end());
    c.round(b, b);
    c.round(h.values, h.values);
    for (std::size_t i = 0; i < h.rows; ++i) {
        const std::span<double> row = h.row(i);
        for (std::size_t j = 0; j < row.size(); ++j) row[j] = c.add(row[j], b[j]);
    }
    return h;
}

std::vector<double> column_sums(const LayerPrecision& precision, const Matrix& m) {
    const ElementwiseArithmetic& acc = precision.accumulate;
    std::vector<double> sums(m.cols, 0.0);
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) sums[j] = acc.add(sums[j], acc.round(m(i, j)));
    precision.output.round(sums, sums);
    return sums;
}

}  // namespace floatscope::emu
