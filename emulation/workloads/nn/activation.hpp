// Activation functions of the neural-network workloads: in a format, their derivatives, and in MPFR.
#pragma once

#include <span>
#include <string_view>

#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/workloads/nn/elementwise.hpp"

namespace floatscope::emu {

enum class Activation {
    Relu,  ///< max(x, 0); NaN stays NaN
    Gelu,  ///< x/2 (1 + erf(x / sqrt 2)), the exact GELU (Hendrycks, Gimpel, arXiv:1606.08415)
    Tanh,
};

/// "relu" "gelu" "tanh"; parse throws floatscope::Error listing them.
const char* to_string(Activation activation);
Activation parse_activation(std::string_view name);

/// y_i = f(h_i) in the format of `compute` (h_i values of that format; in and out may alias).
/// relu is exact. gelu and tanh are evaluated in double (a few ulps of double off the real
/// value) and rounded once, as a GPU kernel evaluates them in fp32 and rounds: the result is the
/// correctly rounded one except when the real value lies within those few ulps of a rounding
/// boundary of the format.
void activate(Activation activation, const ElementwiseArithmetic& compute, std::span<const double> h,
              std::span<double> y);

/// dh_i = dy_i f'(h_i) in the format of `compute`: relu passes dy_i where h_i > 0 and gives +0
/// elsewhere (as PyTorch does at 0); gelu and tanh round f'(h_i) (evaluated in double) and dy_i to
/// the format and multiply them, rounded once.
void activation_backward(Activation activation, const ElementwiseArithmetic& compute, std::span<const double> h,
                         std::span<const double> dy, std::span<double> dh);

/// x = f(x) in MPFR at x's precision (gelu through mpfr_erf, tanh through mpfr_tanh), for the ground truth.
void activate_truth(Activation activation, TruthNumber& x);

}  // namespace floatscope::emu
