// Random square matrices with a prescribed condition number: U diag(sigma) V^T.
#include "emulation/workloads/linalg/conditioned_matrix.hpp"

#include <cmath>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/data/random_values.hpp"

namespace floatscope::emu {

namespace {

/// A Haar-distributed random orthogonal matrix (Mezzadri 2007, section 5).
Eigen::MatrixXd random_orthogonal(std::size_t n, std::mt19937_64& rng) {
    const auto size = static_cast<Eigen::Index>(n);
    Eigen::MatrixXd gaussian(size, size);
    for (Eigen::Index i = 0; i < size; ++i)
        for (Eigen::Index j = 0; j < size; ++j) gaussian(i, j) = draw(Distribution::Normal, rng);
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(gaussian);
    Eigen::MatrixXd q = qr.householderQ() * Eigen::MatrixXd::Identity(size, size);
    // Without this the distribution of Q depends on the sign convention of the factorisation.
    const Eigen::MatrixXd& r = qr.matrixQR();
    for (Eigen::Index j = 0; j < size; ++j)
        if (r(j, j) < 0) q.col(j) = -q.col(j);
    return q;
}

}  // namespace

std::vector<double> random_conditioned_matrix(std::size_t n, double kappa, std::mt19937_64& rng) {
    if (n == 0) throw Error("random_conditioned_matrix: the size must be at least 1");
    if (!(kappa >= 1) || !std::isfinite(kappa))
        throw Error(fmt::format("random_conditioned_matrix: the condition number must be at least 1, got {}", kappa));
    const auto size = static_cast<Eigen::Index>(n);
    const Eigen::MatrixXd u = random_orthogonal(n, rng);
    const Eigen::MatrixXd v = random_orthogonal(n, rng);
    Eigen::VectorXd sigma(size);
    for (Eigen::Index i = 0; i < size; ++i)
        sigma(i) = n == 1 ? 1.0 : std::pow(kappa, -static_cast<double>(i) / static_cast<double>(n - 1));
    const Eigen::MatrixXd a = u * sigma.asDiagonal() * v.transpose();
    std::vector<double> out(n * n);
    for (Eigen::Index i = 0; i < size; ++i)
        for (Eigen::Index j = 0; j < size; ++j)
            out[static_cast<std::size_t>(i) * n + static_cast<std::size_t>(j)] = a(i, j);
    return out;
}

}  // namespace floatscope::emu
