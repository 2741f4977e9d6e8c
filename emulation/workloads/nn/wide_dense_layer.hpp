// A dense layer on the wide path: every role's values as patterns, for policies with a role wider than binary64.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/stochastic_source.hpp"
#include "core/wide_format.hpp"
#include "emulation/arithmetic/wide_format_arithmetic.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/nn/activation.hpp"

namespace floatscope::emu {

/// Whether any role of `layer` is wider than binary64: the layer then runs on the wide path.
bool needs_wide_layer(const PrecisionPolicy& policy, int layer, int layer_count);

/// What one layer computes in on the wide path, each role's arithmetic on patterns (bit-exact in
/// every format and mode, narrow roles included: WideFormatArithmetic).
struct WideLayerPrecision {
    /// The roles of `layer` of `layer_count`; `seed` seeds the stochastic roundings, per layer and
    /// role. Throws floatscope::Error where the policy asks what the wide path does not model (a
    /// matmul preset, an accumulator that does not hold the compute format's values).
    WideLayerPrecision(const PrecisionPolicy& policy, int layer, int layer_count, std::uint64_t seed);
    WideLayerPrecision(const WideLayerPrecision&) = delete;
    WideLayerPrecision& operator=(const WideLayerPrecision&) = delete;

    core::StochasticSource storage_random, compute_random, accumulate_random, output_random;
    WideFormatArithmetic storage;  ///< parameters and data as kept in memory
    WideFormatArithmetic compute;  ///< the matrix product's operands and the elementwise operations
    WideFormatArithmetic accumulate;  ///< the matrix product's sums and LayerNorm's reductions
    WideFormatArithmetic output;  ///< what the layer writes out
};

/// One dense layer, y = activation(LayerNorm?(x w + bias)), as the narrow path defines it
/// (dense_layer.hpp, layer_norm.hpp) with the default matmul model: w and bias rounded to the
/// storage format; x and w rounded to the compute format; each entry of x w a sequential chain of
/// fused multiply-adds in the accumulate format (wide_sequential_gemm), rounded to the output
/// format and then to the compute format; the bias added, LayerNorm and the activation applied in
/// the compute format (LayerNorm's sums in the accumulate format); y rounded to the output format.
/// GELU and tanh are evaluated in MPFR at the compute format's precision + 100 bits and rounded
/// once (correctly rounded unless the value lies within 2^-(p+90) of a rounding boundary).
/// x: batch x width exact values (the previous layer's output or the stored input); w: width x
/// width and bias: width, in double. Returns y's values in the output format, row-major.
std::vector<core::WideBits> wide_dense_layer(WideLayerPrecision& precision, std::span<const core::WideValue> x,
                                             std::size_t batch, std::span<const double> w,
                                             std::span<const double> bias, Activation activation, bool layer_norm);

}  // namespace floatscope::emu
