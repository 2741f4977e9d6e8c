// LU iterative refinement: factors and solves in u_f, residuals in u_r, updates in u (of any width).
#include "emulation/workloads/linalg/lu_refinement.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format_width.hpp"
#include "core/mpfr_number.hpp"
#include "core/round_array.hpp"
#include "emulation/accumulation/error_bounds.hpp"
#include "emulation/arithmetic/scalar.hpp"
#include "emulation/workloads/data/random_values.hpp"

namespace floatscope::emu {

double norm_inf(std::span<const double> v) {
    double m = 0;
    for (double x : v) m = std::isnan(x) || std::isnan(m) ? NAN : std::max(m, std::fabs(x));
    return m;
}

namespace {

/// The role widths the refinement takes: factors within binary64, a wide u with a u_r that holds it.
void check_widths(const core::FormatRounding& working, const core::FormatRounding& factor,
                  const core::FormatRounding& residual) {
    if (core::is_wider_than_binary64(factor.format))
        throw Error(fmt::format("iterative-refinement: the factors' format u_f (the compute role) '{}' is wider "
                                "than binary64; u_f is within binary64 (fp16, bf16, fp32, fp64, ...), while the "
                                "working (storage) and residual (accumulate) formats may be wider",
                                factor.format.name));
    if (core::is_wider_than_binary64(working.format) && !holds_values_of(residual.format, working.format))
        throw Error(fmt::format("iterative-refinement: the working format u (the storage role) '{}' is wider than "
                                "binary64, and the residual format u_r (the accumulate role) '{}' does not hold "
                                "its values; a wide u needs a u_r at least as wide (accumulate={} for two "
                                "precisions, or wider such as binary256 for three)",
                                working.format.name, residual.format.name, working.format.name));
}

}  // namespace

LuRefinement::LuRefinement(const LinearSystem& system, const PrecisionPolicy& policy, std::uint64_t seed)
    : n_(system.n),
      working_(policy.at(Role::Storage)),
      factor_(policy.at(Role::Compute)),
      residual_(policy.at(Role::Accumulate)),
      random_(rounding_seed(seed)),
      a_(system.a.size()),
      b_(system.b.size()) {
    check_widths(working_, factor_, residual_);
    if (core::is_wider_than_binary64(residual_.format)) {
        wide_.emplace(WidePath{WideFormatArithmetic(working_, &random_), WideFormatArithmetic(residual_, &random_),
                               {}, {}, {}});
        // A and b rounded to u, and their values in u_r (exact: u_r holds u's values).
        const auto to_residual = [&](double v, bool negated, double& nearest) {
            const core::WideBits in_working = wide_->working.round(v);
            nearest = wide_->working.nearest_double(in_working);
            const core::WideBits r = wide_->residual.convert(wide_->working, in_working);
            return negated ? wide_->residual.negate(r) : r;
        };
        for (std::size_t i = 0; i < a_.size(); ++i) wide_->minus_a.push_back(to_residual(system.a[i], true, a_[i]));
        for (std::size_t i = 0; i < b_.size(); ++i) wide_->b.push_back(to_residual(system.b[i], false, b_[i]));
        return;
    }
    core::round_array(working_.format, working_.mode, system.a, a_, &random_);
    core::round_array(working_.format, working_.mode, system.b, b_, &random_);
    // The copies the residual reads: exact when u_r is at least as precise as u, as it should be.
    a_residual_.resize(a_.size());
    b_residual_.resize(b_.size());
    core::round_array(residual_.format, residual_.mode, a_, a_residual_, &random_);
    core::round_array(residual_.format, residual_.mode, b_, b_residual_, &random_);
}

double LuRefinement::a_norm() const {
    double m = 0;
    for (std::size_t i = 0; i < n_; ++i) {
        double row = 0;
        for (std::size_t j = 0; j < n_; ++j) row += std::fabs(a_[i * n_ + j]);
        m = std::max(m, row);
    }
    return m;
}

void LuRefinement::start() {
    factorize();
    const std::vector<double> x0 = solve(b_);
    if (!wide_) {
        x_ = in_working(x0);
        return;
    }
    wide_->x.clear();
    for (const double v : x0) wide_->x.push_back(wide_->working.round(v));
}

/// LU with partial pivoting, every multiplication, subtraction and division rounded to u_f.
void LuRefinement::factorize() {
    PrecisionScope scope(factor_.format, factor_.mode, &random_);
    const auto at = [&](std::size_t i, std::size_t j) { return Emulated::from_value(lu_[i * n_ + j]); };
    lu_.resize(a_.size());
    for (std::size_t i = 0; i < a_.size(); ++i) lu_[i] = Emulated(a_[i]).value();
    pivots_.resize(n_);
    for (std::size_t k = 0; k < n_; ++k) {
        std::size_t pivot = k;
        for (std::size_t i = k + 1; i < n_; ++i)
            if (std::fabs(lu_[i * n_ + k]) > std::fabs(lu_[pivot * n_ + k])) pivot = i;
        pivots_[k] = pivot;
        if (pivot != k)
            std::swap_ranges(lu_.begin() + static_cast<std::ptrdiff_t>(k * n_),
                             lu_.begin() + static_cast<std::ptrdiff_t>((k + 1) * n_),
                             lu_.begin() + static_cast<std::ptrdiff_t>(pivot * n_));
        const Emulated diagonal = at(k, k);
        for (std::size_t i = k + 1; i < n_; ++i) {
            const Emulated multiplier = at(i, k) / diagonal;
            lu_[i * n_ + k] = multiplier.value();
            for (std::size_t j = k + 1; j < n_; ++j) lu_[i * n_ + j] = (at(i, j) - multiplier * at(k, j)).value();
        }
    }
}

/// Solves A y = rhs with the factors, in u_f (rhs converted to u_f first).
std::vector<double> LuRefinement::solve(std::span<const double> rhs) {
    PrecisionScope scope(factor_.format, factor_.mode, &random_);
    const auto at = [&](std::size_t i, std::size_t j) { return Emulated::from_value(lu_[i * n_ + j]); };
    std::vector<Emulated> y(rhs.begin(), rhs.end());
    for (std::size_t k = 0; k < n_; ++k) std::swap(y[k], y[pivots_[k]]);
    for (std::size_t i = 0; i < n_; ++i)
        for (std::size_t j = 0; j < i; ++j) y[i] = y[i] - at(i, j) * y[j];
    for (std::size_t i = n_; i-- > 0;) {
        for (std::size_t j = i + 1; j < n_; ++j) y[i] = y[i] - at(i, j) * y[j];
        y[i] = y[i] / at(i, i);
    }
    std::vector<double> out(n_);
    for (std::size_t i = 0; i < n_; ++i) out[i] = y[i].value();
    return out;
}

/// Rounds `values` to u; with `base` (values of u), returns base + values in u instead.
std::vector<double> LuRefinement::in_working(std::span<const double> values, std::span<const double> base) {
    PrecisionScope scope(working_.format, working_.mode, &random_);
    std::vector<double> out(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        const Emulated v(values[i]);
        out[i] = (base.empty() ? v : Emulated::from_value(base[i]) + v).value();
    }
    return out;
}

ScaledResidual LuRefinement::residual() {
    if (wide_) return wide_residual();
    ScaledResidual r;
    r.scaled = narrow_residual();
    r.norm = norm_inf(r.scaled);
    r.exponent = r.norm > 0 && std::isfinite(r.norm) ? std::ilogb(r.norm) : 0;
    for (double& v : r.scaled) v = std::ldexp(v, static_cast<int>(-r.exponent));
    return r;
}

std::vector<double> LuRefinement::narrow_residual() {
    PrecisionScope scope(residual_.format, residual_.mode, &random_);
    const std::vector<Emulated> xr(x_.begin(), x_.end());
    std::vector<double> r(n_);
    for (std::size_t i = 0; i < n_; ++i) {
        Emulated acc = Emulated::from_value(b_residual_[i]);
        for (std::size_t j = 0; j < n_; ++j) acc = fma(-Emulated::from_value(a_residual_[i * n_ + j]), xr[j], acc);
        r[i] = acc.value();
    }
    return r;
}

/// The residual in u_r, then scaled exactly in MPFR (u_r's exponents may leave a double's range)
/// and rounded to the nearest double: the solve rounds it to u_f next.
ScaledResidual LuRefinement::wide_residual() {
    const WideFormatArithmetic& in_residual = wide_->residual;
    std::vector<core::WideBits> xr;
    xr.reserve(n_);
    for (const core::WideBits& v : wide_->x) xr.push_back(in_residual.convert(wide_->working, v));
    std::vector<TruthNumber> r;
    r.reserve(n_);
    bool finite = true;
    for (std::size_t i = 0; i < n_; ++i) {
        core::WideBits acc = wide_->b[i];
        for (std::size_t j = 0; j < n_; ++j) acc = in_residual.fma(wide_->minus_a[i * n_ + j], xr[j], acc);
        r.push_back(in_residual.exact(acc));
        finite = finite && mpfr_number_p(r.back().backend().data());
    }
    ScaledResidual out;
    const auto largest = std::max_element(r.begin(), r.end(), [](const TruthNumber& x, const TruthNumber& y) {
        return mpfr_cmpabs(x.backend().data(), y.backend().data()) < 0;
    });
    if (!finite) {
        out.norm = NAN;
        for (const TruthNumber& v : r) out.norm = mpfr_nan_p(v.backend().data()) ? NAN : out.norm;
        if (!std::isnan(out.norm)) out.norm = INFINITY;
    } else {
        out.norm = std::fabs(mpfr_get_d(largest->backend().data(), MPFR_RNDN));
        // |largest| in [2^exponent, 2^(exponent + 1)), as std::ilogb gives it for a double.
        if (!mpfr_zero_p(largest->backend().data())) out.exponent = mpfr_get_exp(largest->backend().data()) - 1;
    }
    for (TruthNumber& v : r) {
        mpfr_mul_2si(v.backend().data(), v.backend().data(), -out.exponent, MPFR_RNDN);  // exact
        out.scaled.push_back(mpfr_get_d(v.backend().data(), MPFR_RNDN));
    }
    return out;
}

double LuRefinement::correct(const ScaledResidual& r) { return update(solve(r.scaled), r.exponent); }

LuRefinement::GmresStep LuRefinement::correct_by_gmres(const ScaledResidual& r, const GmresSettings& settings) {
    const std::vector<double> rhs = in_working(solve(r.scaled));  // M^-1 r, r scaled as the solve takes it
    const GmresSolution solution = preconditioned_gmres(
        [this](std::span<const double> v) { return preconditioned_product(v); }, rhs, settings, working_, &random_);
    return {update(solution.d, r.exponent), solution.iterations};
}

/// U^-1 L^-1 A v: A v in u (a chain of fused multiply-adds per row), scaled by a power of two to a
/// largest entry in [1, 2) as the residual is (a v near A's smallest singular vectors would
/// otherwise reach u_f's subnormals), solved with the factors in u_f, scaled back and rounded to u.
std::vector<double> LuRefinement::preconditioned_product(std::span<const double> v) {
    std::vector<double> product(n_);
    {
        PrecisionScope scope(working_.format, working_.mode, &random_);
        for (std::size_t i = 0; i < n_; ++i) {
            Emulated acc = Emulated::from_value(0.0);
            for (std::size_t j = 0; j < n_; ++j)
                acc = fma(Emulated::from_value(a_[i * n_ + j]), Emulated::from_value(v[j]), acc);
            product[i] = acc.value();
        }
    }
    const double largest = norm_inf(product);
    const int exponent = largest > 0 && std::isfinite(largest) ? std::ilogb(largest) : 0;
    for (double& p : product) p = std::ldexp(p, -exponent);
    std::vector<double> z = solve(product);
    for (double& value : z) value = std::ldexp(value, exponent);
    return in_working(z);
}

/// x = x + scaled_d 2^exponent in u; returns ||d||_inf / ||x||_inf of x before the update.
double LuRefinement::update(std::span<const double> scaled_d, long exponent) {
    if (!wide_) {
        std::vector<double> d(scaled_d.begin(), scaled_d.end());
        for (double& v : d) v = std::ldexp(v, static_cast<int>(exponent));
        const double correction = norm_inf(d) / norm_inf(x_);
        x_ = in_working(d, x_);
        return correction;
    }
    const double correction = std::ldexp(norm_inf(scaled_d), static_cast<int>(exponent)) / norm_inf(x());
    core::MpfrNumber step(53);
    for (std::size_t i = 0; i < n_; ++i) {
        mpfr_set_d(step.get(), scaled_d[i], MPFR_RNDN);
        mpfr_mul_2si(step.get(), step.get(), exponent, MPFR_RNDN);  // exact: d_i 2^exponent
        wide_->x[i] = wide_->working.add(wide_->x[i], wide_->working.round(step.get()));
    }
    return correction;
}

std::vector<double> LuRefinement::x() const {
    if (!wide_) return x_;
    std::vector<double> out;
    out.reserve(n_);
    for (const core::WideBits& v : wide_->x) out.push_back(wide_->working.nearest_double(v));
    return out;
}

std::optional<std::vector<TruthNumber>> LuRefinement::exact_x() const {
    if (!wide_ || !core::is_wider_than_binary64(working_.format)) return std::nullopt;
    std::vector<TruthNumber> out;
    out.reserve(n_);
    for (const core::WideBits& v : wide_->x) out.push_back(wide_->working.exact(v));
    return out;
}

void LuRefinement::record(TraceRegion& region) const {
    if (std::optional<std::vector<TruthNumber>> exact = exact_x())
        region.set_wide_values(std::move(*exact));
    else
        region.values = x();
}

}  // namespace floatscope::emu
