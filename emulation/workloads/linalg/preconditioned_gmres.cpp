// GMRES on the LU-preconditioned correction equation (GMRES-IR), emulated in the working format.
#include "emulation/workloads/linalg/preconditioned_gmres.hpp"

#include <cstddef>

#include "emulation/arithmetic/scalar.hpp"

namespace floatscope::emu {

namespace {

using Vector = std::vector<Emulated>;

Emulated dot(const Vector& x, const Vector& y) {
    Emulated sum = Emulated::from_value(0.0);
    for (std::size_t i = 0; i < x.size(); ++i) sum = fma(x[i], y[i], sum);
    return sum;
}

Emulated norm2(const Vector& x) { return sqrt(dot(x, x)); }

/// The rotation [c s; -s c] that takes (a, b) to (rho, 0), rho = hypot(a, b) computed as
/// |big| sqrt(1 + (small/big)^2), so that squares do not overflow a narrow format.
struct Rotation {
    Emulated c, s;
};

Rotation rotation_for(Emulated a, Emulated b, Emulated& rho) {
    if (b == Emulated::from_value(0.0)) {
        rho = a;
        return {Emulated::from_value(1.0), Emulated::from_value(0.0)};
    }
    const bool a_bigger = abs(a) >= abs(b);
    const Emulated ratio = a_bigger ? b / a : a / b;
    const Emulated root = sqrt(Emulated::from_value(1.0) + ratio * ratio);
    rho = (a_bigger ? abs(a) : abs(b)) * root;
    return {a / rho, b / rho};
}

}  // namespace

GmresSolution preconditioned_gmres(const PreconditionedProduct& product, std::span<const double> rhs,
                                   const GmresSettings& settings, const core::FormatRounding& working,
                                   core::StochasticSource* random) {
    PrecisionScope scope(working.format, working.mode, random);
    const std::size_t n = rhs.size();
    GmresSolution solution{std::vector<double>(n, 0.0), 0};
    Vector start(rhs.begin(), rhs.end());
    const Emulated beta = norm2(start);
    if (!(beta > Emulated::from_value(0.0)) || !isfinite(beta)) return solution;

    std::vector<Vector> basis;  // v_1 .. v_k, orthonormal up to rounding
    std::vector<Vector> r;  // r[j]: column j of the rotated Hessenberg matrix (upper triangular)
    std::vector<Rotation> rotations;
    Vector g = {beta};  // the rotated beta e_1; |g_k| is the preconditioned residual's norm
    basis.emplace_back();
    for (const Emulated& v : start) basis.back().push_back(v / beta);
    const Emulated target = Emulated(settings.tolerance) * beta;
    for (int k = 0; k < settings.max_iterations; ++k) {
        std::vector<double> values(n);
        for (std::size_t i = 0; i < n; ++i) values[i] = basis[k][i].value();
        const std::vector<double> image = product(values);
        Vector w(image.begin(), image.end());
        Vector h;
        for (const Vector& v : basis) {  // modified Gram-Schmidt
            h.push_back(dot(w, v));
            for (std::size_t i = 0; i < n; ++i) w[i] = w[i] - h.back() * v[i];
        }
        const Emulated next = norm2(w);
        for (std::size_t j = 0; j < rotations.size(); ++j) {
            const Emulated top = rotations[j].c * h[j] + rotations[j].s * h[j + 1];
            h[j + 1] = rotations[j].c * h[j + 1] - rotations[j].s * h[j];
            h[j] = top;
        }
        Emulated rho;
        rotations.push_back(rotation_for(h[k], next, rho));
        h[k] = rho;
        g.push_back(-rotations.back().s * g[k]);
        g[k] = rotations.back().c * g[k];
        r.push_back(std::move(h));
        solution.iterations = k + 1;
        const bool breakdown = next == Emulated::from_value(0.0) || !isfinite(next);
        if (abs(g[k + 1]) <= target || breakdown || k + 1 == settings.max_iterations) break;
        basis.emplace_back();
        for (const Emulated& v : w) basis.back().push_back(v / next);
    }
    // R y = g, then d = V y.
    const std::size_t steps = r.size();
    Vector y(steps);
    for (std::size_t i = steps; i-- > 0;) {
        Emulated sum = g[i];
        for (std::size_t j = i + 1; j < steps; ++j) sum = sum - r[j][i] * y[j];
        y[i] = sum / r[i][i];
    }
    for (std::size_t i = 0; i < n; ++i) {
        Emulated sum = Emulated::from_value(0.0);
        for (std::size_t j = 0; j < steps; ++j) sum = fma(basis[j][i], y[j], sum);
        solution.d[i] = sum.value();
    }
    return solution;
}

}  // namespace floatscope::emu
