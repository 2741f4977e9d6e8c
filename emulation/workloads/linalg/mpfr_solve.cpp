// Gaussian elimination with partial pivoting in MPFR, every operation rounded to the truth precision.
#include "emulation/workloads/linalg/mpfr_solve.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::emu {

namespace {

/// rop = rop - x * y, rounded once.
void subtract_product(mpfr_ptr rop, mpfr_srcptr x, mpfr_srcptr y) {
    mpfr_fms(rop, x, y, rop, MPFR_RNDN);  // x * y - rop
    mpfr_neg(rop, rop, MPFR_RNDN);
}

}  // namespace

std::vector<TruthNumber> mpfr_solve(std::span<const double> a, std::span<const double> b, std::size_t n,
                                    int precision) {
    if (a.size() != n * n || b.size() != n)
        throw Error(
            fmt::format("mpfr_solve: expected a {0} x {0} matrix and {0} right-hand sides, got {1} and {2} "
                        "values",
                        n, a.size(), b.size()));
    // Below 53 bits the inputs themselves would be rounded; the elimination works at least at that.
    precision = std::max(precision, 53);
    auto numbers = [&](std::span<const double> values) {
        std::vector<TruthNumber> out(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
            mpfr_set_prec(out[i].backend().data(), precision);
            mpfr_set_d(out[i].backend().data(), values[i], MPFR_RNDN);  // exact: precision >= 53
        }
        return out;
    };
    std::vector<TruthNumber> m = numbers(a);
    std::vector<TruthNumber> x = numbers(b);
    auto at = [&](std::size_t i, std::size_t j) { return m[i * n + j].backend().data(); };
    TruthNumber multiplier;
    mpfr_set_prec(multiplier.backend().data(), precision);

    for (std::size_t k = 0; k < n; ++k) {
        std::size_t pivot = k;
        for (std::size_t i = k + 1; i < n; ++i)
            if (mpfr_cmpabs(at(i, k), at(pivot, k)) > 0) pivot = i;
        if (mpfr_zero_p(at(pivot, k)))
            throw Error(fmt::format("mpfr_solve: the matrix is singular (no nonzero pivot in column {})", k));
        if (pivot != k) {
            for (std::size_t j = 0; j < n; ++j) std::swap(m[k * n + j], m[pivot * n + j]);
            std::swap(x[k], x[pivot]);
        }
        for (std::size_t i = k + 1; i < n; ++i) {
            mpfr_div(multiplier.backend().data(), at(i, k), at(k, k), MPFR_RNDN);
            for (std::size_t j = k + 1; j < n; ++j) subtract_product(at(i, j), multiplier.backend().data(), at(k, j));
            subtract_product(x[i].backend().data(), multiplier.backend().data(), x[k].backend().data());
        }
    }
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t j = i + 1; j < n; ++j)
            subtract_product(x[i].backend().data(), at(i, j), x[j].backend().data());
        mpfr_div(x[i].backend().data(), x[i].backend().data(), at(i, i), MPFR_RNDN);
    }
    return x;
}

}  // namespace floatscope::emu
