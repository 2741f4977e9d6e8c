// iterative-refinement: LU in a low format, residuals in a high one, updates in the working one.
#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format_properties.hpp"
#include "core/format_width.hpp"
#include "core/memory_budget.hpp"
#include "core/mpfr_number.hpp"
#include "core/round_array.hpp"
#include "core/stochastic_source.hpp"
#include "emulation/accumulation/error_bounds.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/arithmetic/scalar.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/linalg/conditioned_matrix.hpp"
#include "emulation/workloads/linalg/mpfr_solve.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::emu {

namespace {

/// The bits of the reference solution run() measures its metrics against: its error, of order
/// n kappa 2^-128, stays far below any working format's rounding for kappa up to 10^14.
constexpr int reference_precision = 128;

/// A x = b as generated, in double: the real inputs every policy and the ground truth share.
struct LinearSystem {
    std::size_t n = 0;
    std::vector<double> a;  ///< n x n, row-major
    std::vector<double> b;
};

/// A with condition number kappa (conditioned_matrix.hpp), x* standard normal, b = A x* in double.
LinearSystem generated_system(const Parameters& parameters) {
    LinearSystem system;
    system.n = static_cast<std::size_t>(parameters.integer("n"));
    std::mt19937_64 rng(static_cast<std::uint64_t>(parameters.integer("seed")));
    system.a = random_conditioned_matrix(system.n, parameters.real("kappa"), rng);
    const std::vector<double> x = draw_many(Distribution::Normal, system.n, rng);
    system.b.assign(system.n, 0);
    for (std::size_t i = 0; i < system.n; ++i)
        for (std::size_t j = 0; j < system.n; ++j) system.b[i] += system.a[i * system.n + j] * x[j];
    return system;
}

double norm_inf(std::span<const double> v) {
    double m = 0;
    for (double x : v) m = std::isnan(x) || std::isnan(m) ? NAN : std::max(m, std::fabs(x));
    return m;
}

/// ||A||_inf: the largest row sum of |a_ij|.
double matrix_norm_inf(std::span<const double> a, std::size_t n) {
    double m = 0;
    for (std::size_t i = 0; i < n; ++i) {
        double row = 0;
        for (std::size_t j = 0; j < n; ++j) row += std::fabs(a[i * n + j]);
        m = std::max(m, row);
    }
    return m;
}

/// The errors of an iterate of the generated system, measured the way the literature reports them.
class ErrorMeasures {
public:
    explicit ErrorMeasures(const LinearSystem& system) : system_(system), a_norm_(matrix_norm_inf(system.a, system.n)) {
        const std::vector<TruthNumber> solution = mpfr_solve(system.a, system.b, system.n, reference_precision);
        for (const TruthNumber& x : solution) reference_.push_back(mpfr_get_d(x.backend().data(), MPFR_RNDN));
        // Rows [a_i1 .. a_in, -b_i]: dotted with [x, 1] they give the residual, exactly.
        augmented_.reserve(system.n * (system.n + 1));
        for (std::size_t i = 0; i < system.n; ++i) {
            augmented_.insert(augmented_.end(), system.a.begin() + static_cast<std::ptrdiff_t>(i * system.n),
                              system.a.begin() + static_cast<std::ptrdiff_t>((i + 1) * system.n));
            augmented_.push_back(-system.b[i]);
        }
    }

    /// ||x - x_hat||_inf / ||x_hat||_inf with x_hat the solution of the generated system.
    double forward_error(std::span<const double> x) const {
        std::vector<double> difference(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) difference[i] = x[i] - reference_[i];
        return norm_inf(difference) / norm_inf(reference_);
    }

    /// The normwise backward error ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf) (Rigal and
    /// Gaches 1967; Higham 2002, 7.1), with the residual computed exactly and rounded once.
    double backward_error(std::span<const double> x) const {
        if (!std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); })) return NAN;
        std::vector<double> x_and_one(x.begin(), x.end());
        x_and_one.push_back(1);
        const std::vector<TruthNumber> extended = to_truth(x_and_one, 53);
        const std::size_t width = system_.n + 1;
        double residual = 0;
        for (std::size_t i = 0; i < system_.n; ++i) {
            const TruthNumber r =
                exact_dot(extended, std::span<const double>(augmented_).subspan(i * width, width), 53);
            residual = std::max(residual, std::fabs(mpfr_get_d(r.backend().data(), MPFR_RNDN)));
        }
        return residual / (a_norm_ * norm_inf(x) + norm_inf(system_.b));
    }

private:
    const LinearSystem& system_;
    double a_norm_;
    std::vector<double> reference_;
    std::vector<double> augmented_;
};

/// The emulated refinement (Carson and Higham, SIAM J. Sci. Comput. 40(2), 2018):
/// A = LU in u_f; x_0 from the factors; then r = b - A x in u_r, solve A d = r with the factors in
/// u_f (r scaled to avoid underflow), x = x + d in u.
class Refinement {
public:
    Refinement(const LinearSystem& system, const PrecisionPolicy& policy, std::uint64_t seed)
        : n_(system.n),
          working_(policy.at(Role::Storage)),
          factor_(policy.at(Role::Compute)),
          residual_(policy.at(Role::Accumulate)),
          random_(rounding_seed(seed)),
          a_(system.a.size()),
          b_(system.b.size()) {
        core::round_array(working_.format, working_.mode, system.a, a_, &random_);
        core::round_array(working_.format, working_.mode, system.b, b_, &random_);
        if (core::is_wider_than_binary64(residual_.format)) {
            check_wide_residual(residual_);
            wide_residual_.emplace(residual_.format.mantissa_bits + 1);
            return;  // A and b, doubles, are values of u_r
        }
        // The copies the residual reads: exact when u_r is at least as precise as u, as it should be.
        a_residual_.resize(a_.size());
        b_residual_.resize(b_.size());
        core::round_array(residual_.format, residual_.mode, a_, a_residual_, &random_);
        core::round_array(residual_.format, residual_.mode, b_, b_residual_, &random_);
    }

    const core::FormatSpec& working_format() const { return working_.format; }
    std::span<const double> b() const { return b_; }
    double a_norm() const { return matrix_norm_inf(a_, n_); }

    /// LU with partial pivoting, every multiplication, subtraction and division rounded to u_f.
    void factorize() {
        PrecisionScope scope(factor_.format, factor_.mode, &random_);
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
    std::vector<double> solve(std::span<const double> rhs) {
        PrecisionScope scope(factor_.format, factor_.mode, &random_);
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

    /// Solves A d = r with the factors, r scaled by a power of two to a largest entry in [1, 2) and
    /// d scaled back (both exact, in double): a converging residual soon falls below the smallest
    /// fp16 number (6e-8), and unscaled it would reach the factors as zero.
    std::vector<double> solve_scaled(std::vector<double> r) {
        const double size = norm_inf(r);
        const int exponent = size > 0 && std::isfinite(size) ? std::ilogb(size) : 0;
        for (double& v : r) v = std::ldexp(v, -exponent);
        std::vector<double> d = solve(r);
        for (double& v : d) v = std::ldexp(v, exponent);
        return d;
    }

    /// r = b - A x in u_r, each row accumulated with fused multiply-adds from b_i. A u_r wider than
    /// binary64 (binary128: three-precision refinement) accumulates in MPFR at its precision, and
    /// each r_i reaches the solve rounded to nearest double.
    std::vector<double> residual(std::span<const double> x) {
        if (wide_residual_) return wide_residual(x);
        PrecisionScope scope(residual_.format, residual_.mode, &random_);
        const std::vector<Emulated> xr(x.begin(), x.end());
        std::vector<double> r(n_);
        for (std::size_t i = 0; i < n_; ++i) {
            Emulated acc = Emulated::from_value(b_residual_[i]);
            for (std::size_t j = 0; j < n_; ++j) acc = fma(-Emulated::from_value(a_residual_[i * n_ + j]), xr[j], acc);
            r[i] = acc.value();
        }
        return r;
    }

    /// Rounds `values` to u; with `base` (values of u), returns base + values in u instead.
    std::vector<double> in_working(std::span<const double> values, std::span<const double> base = {}) {
        PrecisionScope scope(working_.format, working_.mode, &random_);
        std::vector<double> out(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
            const Emulated v(values[i]);
            out[i] = (base.empty() ? v : Emulated::from_value(base[i]) + v).value();
        }
        return out;
    }

private:
    Emulated at(std::size_t i, std::size_t j) const { return Emulated::from_value(lu_[i * n_ + j]); }

    /// The wide residual formats whose roundings MPFR at their precision makes exactly: sums of
    /// products of doubles lie between 2^-2148 and 2^2056 (n <= 100), inside the normal range of
    /// any binary format of 13 or more exponent bits, so that neither subnormals nor overflow can
    /// occur; and the modes MPFR has.
    static void check_wide_residual(const core::FormatRounding& r) {
        using core::RoundingMode;
        // The residual rounds through MPFR as an IEEE eXmY format does: P3109's single NaN and its
        // ties at P = 1 (to the even exponent, where MPFR goes away from zero) are not modelled.
        if (r.format.is_p3109())
            throw Error(fmt::format("iterative-refinement: the residual format '{}' is a P3109 format wider than "
                                    "binary64; a wide residual takes IEEE-encoded formats (binary128, binary256, "
                                    "e15m112, ...)",
                                    r.format.name));
        if (r.format.exponent_bits < 13)
            throw Error(
                fmt::format("iterative-refinement: a residual format wider than binary64 needs at least 13 "
                            "exponent bits (binary128, binary256, e15m112, ...); '{}' has {}",
                            r.format.name, r.format.exponent_bits));
        if (r.mode != RoundingMode::NearestEven && r.mode != RoundingMode::TowardZero &&
            r.mode != RoundingMode::Upward && r.mode != RoundingMode::Downward)
            throw Error(
                fmt::format("iterative-refinement: the residual format '{}', wider than binary64, rounds with "
                            "rne, rtz, rup or rdn; not {}",
                            r.format.name, core::to_string(r.mode)));
    }

    std::vector<double> wide_residual(std::span<const double> x) {
        using core::RoundingMode;
        const mpfr_rnd_t mode = residual_.mode == RoundingMode::TowardZero ? MPFR_RNDZ
                                : residual_.mode == RoundingMode::Upward   ? MPFR_RNDU
                                : residual_.mode == RoundingMode::Downward ? MPFR_RNDD
                                                                           : MPFR_RNDN;
        core::MpfrNumber a(53), xj(53);
        mpfr_ptr acc = wide_residual_->get();
        std::vector<double> r(n_);
        for (std::size_t i = 0; i < n_; ++i) {
            mpfr_set_d(acc, b_[i], MPFR_RNDN);  // exact: u_r holds every double
            for (std::size_t j = 0; j < n_; ++j) {
                mpfr_set_d(a.get(), -a_[i * n_ + j], MPFR_RNDN);
                mpfr_set_d(xj.get(), x[j], MPFR_RNDN);
                mpfr_fma(acc, a.get(), xj.get(), acc, mode);
            }
            r[i] = mpfr_get_d(acc, MPFR_RNDN);
        }
        return r;
    }

    std::size_t n_;
    core::FormatRounding working_, factor_, residual_;
    core::StochasticSource random_;
    std::vector<double> a_, b_;  ///< A and b in u
    std::vector<double> a_residual_, b_residual_;  ///< the same in u_r (narrow u_r)
    std::optional<core::MpfrNumber> wide_residual_;  ///< a wide u_r's accumulator, at its precision
    std::vector<double> lu_;  ///< L (unit diagonal, not stored) and U in u_f
    std::vector<std::size_t> pivots_;  ///< row k was swapped with row pivots_[k]
};

/// Why the refinement ends at an iterate, or nullopt to go on. `correction` is ||d|| / ||x|| of
/// the correction that made the iterate, `previous` of the one before (NaN while there is none).
/// The correction test is that of LAPACK's extra-precise xGERFSX (Demmel, Hida, Kahan, Li,
/// Mukherjee and Riedy, ACM TOMS 32(2), 2006): the iterate has converged once its correction is at
/// most u, and makes no more progress once a correction shrinks by less than half of the one before,
/// which is where the forward error meets its limiting accuracy, where the residual test (a
/// backward error) may end the iteration well above it.
std::optional<metric::RefinementStop> stop_reason(const std::string& stop, bool finite, bool residual_converged,
                                                  double correction, double previous, double u, bool last_allowed) {
    using metric::RefinementStop;
    if (!finite) return RefinementStop::NotFinite;
    if (stop == "residual" && residual_converged) return RefinementStop::ResidualTest;
    if (stop == "correction" && correction <= u) return RefinementStop::CorrectionTest;
    if (stop == "correction" && correction > previous / 2) return RefinementStop::NoProgress;
    if (last_allowed) return RefinementStop::MaxIterations;
    return std::nullopt;
}

class IterativeRefinement final : public Workload {
public:
    std::string name() const override { return "iterative-refinement"; }
    /// Measured (floatscope-cli run --threads 1, 2-core Xeon with AVX-512, the defaults, fp32 and bf16): 20 ms against
    /// 21-41 ms; the policies' emulated LU costs as much as the truth's few MPFR solves.
    double truth_time_ratio() const override { return 0.7; }
    std::string summary() const override {
        return "mixed-precision LU iterative refinement of Ax = b with a prescribed condition number; "
               "converges while kappa x u_f < 1";
    }
    std::string help() const override {
        return "Solves A x = b, A an n x n random matrix with 2-norm condition number kappa (U diag(sigma) V^T, "
               "singular values geometric from 1 to 1/kappa) and b = A x* (x* standard normal), by LU "
               "iterative refinement in three precisions (Carson and Higham, SIAM J. Sci. Comput. 40(2), "
               "2018): the factorisation and the solves with its factors in the compute format u_f, the "
               "residual r = b - A x in the accumulate format u_r (scaled by a power of two to a largest "
               "entry near 1 before the solve, so that a small residual does not underflow in u_f; u_r may "
               "be wider than binary64, such as binary128, with rne, rtz, rup or rdn: each r_i then reaches "
               "the solve rounded to the nearest double), A, b and "
               "x stored and updated in the storage (working) format u; the output role is not used. Region "
               "i (kind 'iteration') holds x_i (x_0 from the factors alone); its counters count the "
               "operations that produced x_i and its residual. Metrics: forward_error (||x - x_hat||_inf / "
               "||x_hat||_inf against the solution of the generated system, solved in MPFR at 128 bits), "
               "backward_error (normwise, with the residual computed exactly), residual_norm (||r||_inf as "
               "computed in u_r), converged (1 once ||r||_inf <= sqrt(n) u ||A||_inf ||x||_inf, the "
               "stopping test of LAPACK's dsgesv), error_bound_limiting_accuracy (u + 4 n u_r kappa, Carson "
               "and Higham's estimate of where the forward error settles), stopping_test_value and "
               "stopping_tolerance (the test the stop parameter chose), and, in the last region, stop_reason "
               "(1 the residual test, 2 the correction test, 3 no progress, 4 max-iterations, 5 NaN or inf). "
               "stop=correction (the default) is LAPACK xGERFSX's test (Demmel et al., ACM TOMS 32(2), 2006): "
               "the iteration ends once the correction that made x_i is at most u ||x_{i-1}||, or shrank by "
               "less than half of the one before: where the forward error meets its limit. stop=residual "
               "ends on the backward error, possibly while the forward error is still kappa times larger; "
               "stop=none runs max-iterations steps. Theory: while kappa u_f is well below 1 the error falls "
               "by a factor of about kappa u_f per step, to about u when u_r = u^2 and about kappa u when "
               "u_r = u; from kappa u_f ~ 1 on (fp16: kappa ~ 2048) convergence is no longer guaranteed. "
               "Observed with fp16 factors, fp64 elsewhere, n = 50: the correction test ends kappa = 10^2 at "
               "x_9, 10^3 at x_12, 2 x 10^3 at x_15 (forward errors 1.8e-15, 2.4e-14, 3.7e-14), the residual "
               "test at x_7, x_10, x_12 (1.7e-15, 5.5e-14, 2.8e-13); 10^4 diverges (no progress at x_2). "
               "With fp32 storage, fp16 factors and fp64 residuals at kappa = 10^2 the corrections stop at "
               "a forward error of 2.5e-7 (4 u), where the residual test ends at 3.0e-6. With a binary128 "
               "residual (accumulate=binary128) and stop=none the forward error of kappa up to 5 x 10^3 "
               "reaches 10 u, where an fp64 residual stalls near kappa u. The ground truth is the solution "
               "of the generated system in MPFR (Gaussian elimination, n^3/3 operations: hence n <= 100).";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"n", ParameterType::Integer, "50", 1, 100, {}, "order of the matrix"},
            {"kappa", ParameterType::Real, "1000", 1, 1e14, {}, "2-norm condition number of A"},
            {"max-iterations", ParameterType::Integer, "20", 0, 200, {}, "refinement steps at most"},
            {"seed", ParameterType::Integer, "1", 0, 9007199254740991.0, {}, "seed of A, x* and stochastic rounding"},
            {"stop",
             ParameterType::Choice,
             "correction",
             0,
             0,
             {"correction", "residual", "none"},
             "stop where the corrections stop shrinking (the forward error's limit: LAPACK xGERFSX's test), "
             "once the residual is small (a backward error: LAPACK dsgesv's test), or run all max-iterations "
             "steps"},
        };
        return schema;
    }

    /// A, its LU factors, the augmented [A, -b] and the conditioned matrix's factors in double, and
    /// the reference solution's MPFR elimination of [A, b] at 128 bits.
    void check(const Parameters& parameters) const override {
        const double n = parameters.real("n");
        core::require_memory(fmt::format("iterative-refinement with n={}", parameters.integer("n")),
                             8 * 6 * n * (n + 1) + n * (n + 1) * core::mpfr_number_bytes(reference_precision));
    }

    /// Each iteration's region keeps its iterate x_i.
    double recorded_values(const Parameters& parameters) const override {
        return recorded_regions(parameters) * parameters.real("n");
    }
    double recorded_regions(const Parameters& parameters) const override {
        return parameters.real("max-iterations") + 1;
    }

    /// The truth's elimination of [A, b] in MPFR at `precision` bits, beside A and b in double.
    void check_ground_truth(const Parameters& parameters, int precision) const override {
        const double n = parameters.real("n");
        core::require_memory(fmt::format("the iterative-refinement ground truth with n={} at {} bits",
                                         parameters.integer("n"), precision),
                             8 * 2 * n * (n + 1) + n * (n + 1) * core::mpfr_number_bytes(precision));
    }

    void run(const Parameters& parameters, const PrecisionPolicy& policy, Trace& trace,
             RunControl& control) const override {
        const LinearSystem system = generated_system(parameters);
        const ErrorMeasures measures(system);
        const int max_iterations = static_cast<int>(parameters.integer("max-iterations"));
        const std::string stop = parameters.text("stop");
        Refinement refinement(system, policy, static_cast<std::uint64_t>(parameters.integer("seed")));
        const double u = core::format_properties(refinement.working_format()).unit_roundoff;
        const double a_norm = refinement.a_norm();
        // dsgesv's residual test: ||r|| <= sqrt(n) u ||A|| ||x||.
        const double residual_tolerance = std::sqrt(static_cast<double>(system.n)) * u;
        // Carson and Higham (SIAM J. Sci. Comput. 40(2), 2018, 3.2): the forward error converges to
        // about u + 4 n u_r cond(A, x), with kappa standing for cond(A, x).
        const double limiting_accuracy =
            unit_roundoff(policy.at(Role::Storage)) +
            4 * static_cast<double>(system.n) * unit_roundoff(policy.at(Role::Accumulate)) * parameters.real("kappa");

        OperationCounters counters;
        std::vector<double> x;
        {
            CountingScope counting(counters);
            refinement.factorize();
            x = refinement.in_working(refinement.solve(refinement.b()));
        }
        // ||d_{i-1}|| / ||x_{i-1}||, the correction that made x_i, and the one before it, for the
        // correction test.
        double correction = NAN, previous_correction = NAN;
        for (int i = 0;; ++i) {
            std::vector<double> r;
            {
                CountingScope counting(counters);
                r = refinement.residual(x);
            }
            const double residual_norm = norm_inf(r);
            const double x_norm = norm_inf(x);
            const bool finite = std::isfinite(x_norm);
            const double relative_residual = residual_norm / (a_norm * x_norm);
            const bool converged = finite && relative_residual <= residual_tolerance;
            TraceRegion& region = trace.add_region("iteration", i, fmt::format("x_{}", i), refinement.working_format());
            region.values = x;
            region.counters = counters;
            region.metrics = {{metric::forward_error, measures.forward_error(x)},
                              {metric::backward_error, measures.backward_error(x)},
                              {metric::residual_norm, residual_norm},
                              {metric::converged, converged ? 1.0 : 0.0}};
            if (std::isfinite(limiting_accuracy))
                region.metrics.push_back({metric::error_bound_limiting_accuracy, limiting_accuracy});
            if (stop == "residual") {
                region.metrics.push_back({metric::stopping_test_value, relative_residual});
                region.metrics.push_back({metric::stopping_tolerance, residual_tolerance});
            } else if (stop == "correction" && i > 0) {
                region.metrics.push_back({metric::stopping_test_value, correction});
                region.metrics.push_back({metric::stopping_tolerance, u});
            }
            const std::optional<metric::RefinementStop> ended =
                stop_reason(stop, finite, converged, correction, previous_correction, u, i == max_iterations);
            control.checkpoint(static_cast<double>(i + 1) / (max_iterations + 1), region.label);
            if (ended) {
                region.metrics.push_back({metric::stop_reason, static_cast<double>(*ended)});
                break;
            }
            counters = {};
            CountingScope counting(counters);
            const std::vector<double> d = refinement.solve_scaled(r);
            previous_correction = correction;
            correction = norm_inf(d) / x_norm;
            x = refinement.in_working(d, x);
        }
    }

    void run_ground_truth(const Parameters& parameters, int precision, TruthTrace& truth,
                          RunControl& control) const override {
        const LinearSystem system = generated_system(parameters);
        const std::vector<TruthNumber> solution = mpfr_solve(system.a, system.b, system.n, precision);
        const int max_iterations = static_cast<int>(parameters.integer("max-iterations"));
        // The emulated run stops when it converges; the regions after that are never looked up.
        for (int i = 0; i <= max_iterations; ++i)
            truth.add_region("iteration", i, fmt::format("x_{}", i)).values = solution;
        control.checkpoint(1, "solved in MPFR");
    }
};

}  // namespace

const Workload& iterative_refinement_workload() {
    static const IterativeRefinement workload;
    return workload;
}

}  // namespace floatscope::emu
