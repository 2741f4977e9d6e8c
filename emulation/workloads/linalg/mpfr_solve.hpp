// The ground truth of a linear system: Gaussian elimination in MPFR at a chosen precision.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "emulation/arithmetic/truth_number.hpp"

namespace floatscope::emu {

/// The solution of A x = b (A n x n row-major, both taken exactly as doubles) by Gaussian
/// elimination with partial pivoting, every operation rounded to `precision` bits (fused
/// multiply-subtracts in the elimination): its relative error is of order n kappa(A) 2^-precision
/// (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., 9.3). It costs n^3/3 MPFR
/// operations, about a second for n = 300 at 256 bits; the workloads keep n at 100 or below.
/// Throws floatscope::Error when the sizes do not match or a pivot is exactly zero (A singular).
std::vector<TruthNumber> mpfr_solve(std::span<const double> a, std::span<const double> b, std::size_t n, int precision);

}  // namespace floatscope::emu
