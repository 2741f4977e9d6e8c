// A dense (fully connected) layer under a precision policy: the part mlp-forward and train-mlp share.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/stochastic_source.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/nn/elementwise.hpp"
#include "emulation/workloads/nn/matrix.hpp"

namespace floatscope::emu {

/// The seed of `layer`'s stochastic roundings in `role` (0 storage, 1 compute, 2 accumulate, 3
/// output, 4 the matrix products' operands), distinct per layer and role.
std::uint64_t layer_seed(std::uint64_t seed, int layer, int role);

/// What one layer of a network computes in, read once from the policy.
struct LayerPrecision {
    /// The roles of `layer` of `layer_count`; `seed` seeds the stochastic roundings of the layer.
    LayerPrecision(const PrecisionPolicy& policy, int layer, int layer_count, std::uint64_t seed);

    AccumulationModel matmul;  ///< policy.matmul_model(layer, layer_count)
    ElementwiseArithmetic storage;  ///< parameters and data as kept in memory
    ElementwiseArithmetic compute;  ///< elementwise operations
    ElementwiseArithmetic accumulate;  ///< reductions
    ElementwiseArithmetic output;  ///< what the layer writes out
    core::StochasticSource operand_random;  ///< stochastic operand roundings of the matrix products
};

/// C = A B under `model` (gemm.hpp: every entry what the model defines, results rounded to the
/// model's output format). gemm's models take no stochastic rounding; an operand whose rounding
/// is stochastic is rounded here first (drawing from `random`) and then passes the model's
/// quantization unchanged, since a value of a format is left alone by every rounding mode.
Matrix matmul(AccumulationModel model, const Matrix& a, const Matrix& b, core::StochasticSource& random);

/// The affine part of a dense layer, h = x w + bias: z = x w under `model`, then per entry
/// h = compute(compute(z) + compute(bias_j)), the bias added in the compute format as a GPU
/// epilogue or an autocast addition does (the roundings into the compute format are exact when
/// the operands are already its values).
Matrix dense_affine(LayerPrecision& precision, const AccumulationModel& model, const Matrix& x, const Matrix& w,
                    std::span<const double> bias);

/// Sums over the rows (the bias gradient): each column summed in order in the accumulate format,
/// every term converted into it first, and the sum rounded to the output format.
std::vector<double> column_sums(const LayerPrecision& precision, const Matrix& m);

}  // namespace floatscope::emu
