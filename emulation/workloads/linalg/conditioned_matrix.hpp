// Random square matrices with a prescribed condition number, for the linear-algebra workloads.
#pragma once

#include <cstddef>
#include <random>
#include <vector>

namespace floatscope::emu {

/// A random n x n matrix (row-major) with 2-norm condition number `kappa`: A = U diag(sigma) V^T
/// with U, V random orthogonal (Haar distributed: the Q of a Gaussian matrix's QR factorisation
/// with R's diagonal made positive, Mezzadri, Notices AMS 54(5), 2007) and singular values
/// sigma_i = kappa^(-i/(n-1)), geometric from 1 to 1/kappa (mode 3 of Higham's randsvd and of
/// LAPACK's xLATMS). Computed in double, so each singular value is off by up to about n 2^-53
/// absolutely: the condition number is kappa to a relative n 2^-53 kappa; keep kappa below 10^14.
/// Throws floatscope::Error for n = 0 or kappa < 1.
std::vector<double> random_conditioned_matrix(std::size_t n, double kappa, std::mt19937_64& rng);

}  // namespace floatscope::emu
