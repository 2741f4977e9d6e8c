// GMRES for refinement's correction equation, every operation of its own rounded to the working format.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "core/format_rounding.hpp"
#include "core/stochastic_source.hpp"

namespace floatscope::emu {

/// When GMRES stops: once the preconditioned residual's 2-norm is at most `tolerance` times its
/// start (the right-hand side's), or after `max_iterations` Arnoldi steps (no restart).
struct GmresSettings {
    double tolerance = 1e-2;
    int max_iterations = 50;
};

struct GmresSolution {
    std::vector<double> d;  ///< values of the working format
    int iterations = 0;  ///< Arnoldi steps taken (0 for a zero right-hand side)
};

/// The preconditioned operator: v (values of the working format) to M^-1 A v, as values of it.
using PreconditionedProduct = std::function<std::vector<double>(std::span<const double>)>;

/// Solves M^-1 A d = rhs (rhs = M^-1 r) from d_0 = 0 by GMRES (Saad and Schultz 1986): Arnoldi with
/// modified Gram-Schmidt, Givens rotations on the Hessenberg matrix, the least-squares solution
/// built once GMRES stops. Every operation it does itself (dot products as chains of fused
/// multiply-adds, norms, rotations, the back substitution, d = V y) is rounded to `working` (a
/// format within binary64: the values are doubles); `product` rounds in whatever formats it uses.
GmresSolution preconditioned_gmres(const PreconditionedProduct& product, std::span<const double> rhs,
                                   const GmresSettings& settings, const core::FormatRounding& working,
                                   core::StochasticSource* random);

}  // namespace floatscope::emu
