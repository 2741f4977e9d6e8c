// LU iterative refinement in three precisions, emulated: the iterate, its residuals and corrections.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/stochastic_source.hpp"
#include "core/wide_format.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/arithmetic/wide_format_arithmetic.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/simulation/trace.hpp"
#include "emulation/workloads/linalg/preconditioned_gmres.hpp"

namespace floatscope::emu {

/// A x = b as generated, in double: the real inputs every policy and the ground truth share.
struct LinearSystem {
    std::size_t n = 0;
    std::vector<double> a;  ///< n x n, row-major
    std::vector<double> b;
};

/// ||v||_inf, NaN when an entry is.
double norm_inf(std::span<const double> v);

/// A residual r as the correction solve takes it: r = 2^exponent scaled, the largest |scaled_i| in
/// [1, 2) (both exact), so that a converging residual, which soon falls below the smallest fp16
/// number (6e-8), or below the smallest double where u_r is wider, does not reach the factors as 0.
struct ScaledResidual {
    std::vector<double> scaled;
    long exponent = 0;
    double norm = 0;  ///< ||r||_inf as computed in u_r, to the nearest double
};

/// The emulated refinement (Carson and Higham, SIAM J. Sci. Comput. 40(2), 2018): A = LU in u_f
/// (the compute role); x_0 from the factors; then r = b - A x in u_r (the accumulate role), solve
/// A d = r with the factors in u_f, x = x + d in u (the storage role: the working precision).
///
/// Widths: u_f is within binary64 (the factors are doubles). u and u_r may be wider than binary64
/// (binary128, binary256, any eXmY or P3109 format): a wide u_r takes the wide path, where A, b
/// and x are patterns of u (WideFormatArithmetic), the residual is a chain of fused multiply-adds in
/// u_r and each r_i reaches the solve scaled and then rounded to the nearest double. A u wider than
/// binary64 needs a u_r at least as wide (three precisions: u_r = u^2 or so; two: u_r = u).
class LuRefinement {
public:
    /// Throws floatscope::Error (with the reason) for the role widths above that it does not take.
    LuRefinement(const LinearSystem& system, const PrecisionPolicy& policy, std::uint64_t seed);

    const core::FormatSpec& working_format() const { return working_.format; }
    /// ||A||_inf of A in u (its nearest doubles where u is wide).
    double a_norm() const;

    /// Factorizes A in u_f and sets x_0, the factors' solution of A x = b rounded to u.
    void start();
    /// r = b - A x in u_r, each row accumulated with fused multiply-adds from b_i.
    ScaledResidual residual();
    /// Solves A d = r with the factors in u_f and sets x = x + d in u; returns ||d||_inf / ||x||_inf
    /// of x before the update.
    double correct(const ScaledResidual& r);

    struct GmresStep {
        double correction;  ///< ||d||_inf / ||x||_inf, as correct() returns it
        int iterations;  ///< GMRES's Arnoldi steps
    };
    /// GMRES-IR's step (Carson and Higham 2018): solves U^-1 L^-1 A d = U^-1 L^-1 r by
    /// GMRES in u (preconditioned_gmres), the preconditioner applied with the factors' solves in u_f
    /// and A's products with GMRES's vectors in u; then x = x + d in u as correct() does. u must be
    /// within binary64 (the workload refuses a wider one).
    GmresStep correct_by_gmres(const ScaledResidual& r, const GmresSettings& settings);

    /// The iterate, each entry's nearest double (exact where u is within binary64).
    std::vector<double> x() const;
    /// The iterate exactly, at u's precision, where u is wider than binary64; nullopt otherwise.
    std::optional<std::vector<TruthNumber>> exact_x() const;
    /// Keeps the iterate in `region`: its doubles, or its exact values where u is wide.
    void record(TraceRegion& region) const;

private:
    void factorize();
    std::vector<double> solve(std::span<const double> rhs);
    std::vector<double> preconditioned_product(std::span<const double> v);
    double update(std::span<const double> scaled_d, long exponent);
    std::vector<double> in_working(std::span<const double> values, std::span<const double> base = {});
    std::vector<double> narrow_residual();
    ScaledResidual wide_residual();

    std::size_t n_;
    core::FormatRounding working_, factor_, residual_;
    core::StochasticSource random_;
    std::vector<double> a_, b_;  ///< A and b in u (their nearest doubles where u is wide)
    std::vector<double> a_residual_, b_residual_;  ///< the same in a narrow u_r
    std::vector<double> x_;  ///< the iterate, narrow path
    std::vector<double> lu_;  ///< L (unit diagonal, not stored) and U in u_f
    std::vector<std::size_t> pivots_;  ///< row k was swapped with row pivots_[k]

    /// The patterns of the wide path (u_r wider than binary64).
    struct WidePath {
        WideFormatArithmetic working, residual;
        std::vector<core::WideBits> minus_a, b;  ///< -A and b in u_r (exact: A and b are values of u)
        std::vector<core::WideBits> x;  ///< the iterate in u
    };
    std::optional<WidePath> wide_;
};

}  // namespace floatscope::emu
