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
#include "emulation/accumulation/error_bounds.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/simulation/truth_precision.hpp"
#include "emulation/workloads/linalg/conditioned_matrix.hpp"
#include "emulation/workloads/linalg/lu_refinement.hpp"
#include "emulation/workloads/linalg/mpfr_solve.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::emu {

namespace {

/// The fewest bits of the reference solution run() measures its metrics against: its error, of
/// order n kappa 2^-128, stays far below the rounding of any working format within binary64 for
/// kappa up to 10^14.
constexpr int minimum_reference_precision = 128;

/// The reference solution's bits for `policy`: 2p + 30 for its widest format (the ground truth's
/// need, truth_precision.hpp), 128 at least, so that a binary128 or binary256 iterate's forward
/// error (down to 2^-113 or 2^-237) is measured against a solution far more accurate than it.
int reference_precision(const PrecisionPolicy& policy) {
    return std::max(minimum_reference_precision, truth_precision_need({policy}).bits);
}

/// u of the stopping tests: 2^-p for a format wider than binary64 (whose properties in doubles
/// format_properties does not give), format_properties' otherwise.
double working_unit_roundoff(const core::FormatSpec& working) {
    return core::is_wider_than_binary64(working) ? std::ldexp(1.0, -working.mantissa_bits - 1)
                                                 : core::format_properties(working).unit_roundoff;
}

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

/// GMRES-IR's settings where solver=gmres, nullopt for LU-IR. GMRES runs on doubles rounded to u,
/// so u must be within binary64; a wider u is refused (its GMRES would need every Arnoldi operation
/// on wide patterns, and with u_r = u^2 a binary128 u already needs a binary256 residual).
std::optional<GmresSettings> gmres_settings(const Parameters& parameters, const PrecisionPolicy& policy) {
    if (parameters.text("solver") != "gmres") return std::nullopt;
    const core::FormatSpec& working = policy.at(Role::Storage).format;
    if (core::is_wider_than_binary64(working))
        throw Error(fmt::format("iterative-refinement: solver=gmres runs GMRES in the working format u (the "
                                "storage role), which must be within binary64; '{}' is wider (solver=lu takes it)",
                                working.name));
    return GmresSettings{parameters.real("gmres-tolerance"), static_cast<int>(parameters.integer("gmres-max-iterations"))};
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
    ErrorMeasures(const LinearSystem& system, int precision)
        : system_(system),
          a_norm_(matrix_norm_inf(system.a, system.n)),
          exact_reference_(mpfr_solve(system.a, system.b, system.n, precision)) {
        for (const TruthNumber& x : exact_reference_) reference_.push_back(mpfr_get_d(x.backend().data(), MPFR_RNDN));
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

    /// The same for an iterate of a format wider than binary64, from its exact values: x - x_hat
    /// in MPFR at the reference's precision (a double x_hat would limit it to about 1e-16).
    double forward_error(const std::vector<TruthNumber>& x) const {
        const mpfr_prec_t precision = mpfr_get_prec(exact_reference_.front().backend().data());
        core::MpfrNumber difference(precision), largest_difference(precision), largest_reference(precision);
        mpfr_set_zero(largest_difference.get(), 1);
        mpfr_set_zero(largest_reference.get(), 1);
        for (std::size_t i = 0; i < x.size(); ++i) {
            mpfr_srcptr reference = exact_reference_[i].backend().data();
            mpfr_sub(difference.get(), x[i].backend().data(), reference, MPFR_RNDN);
            if (mpfr_nan_p(difference.get())) return NAN;
            if (mpfr_cmpabs(difference.get(), largest_difference.get()) > 0)
                mpfr_abs(largest_difference.get(), difference.get(), MPFR_RNDN);
            if (mpfr_cmpabs(reference, largest_reference.get()) > 0)
                mpfr_abs(largest_reference.get(), reference, MPFR_RNDN);
        }
        mpfr_div(difference.get(), largest_difference.get(), largest_reference.get(), MPFR_RNDN);
        return mpfr_get_d(difference.get(), MPFR_RNDN);
    }

    /// The normwise backward error ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf) (Rigal and
    /// Gaches 1967; Higham 2002, 7.1), with the residual computed exactly and rounded once. `exact`:
    /// the iterate's values (any precision), `x`: their nearest doubles.
    double backward_error(std::span<const double> x, std::vector<TruthNumber> exact) const {
        if (!std::all_of(exact.begin(), exact.end(), [](const TruthNumber& v) { return mpfr_number_p(v.backend().data()); }))
            return NAN;
        exact.push_back(truth_number(53));
        mpfr_set_ui(exact.back().backend().data(), 1, MPFR_RNDN);
        const std::size_t width = system_.n + 1;
        double residual = 0;
        for (std::size_t i = 0; i < system_.n; ++i) {
            const TruthNumber r = exact_dot(exact, std::span<const double>(augmented_).subspan(i * width, width), 53);
            residual = std::max(residual, std::fabs(mpfr_get_d(r.backend().data(), MPFR_RNDN)));
        }
        return residual / (a_norm_ * norm_inf(x) + norm_inf(system_.b));
    }

private:
    const LinearSystem& system_;
    double a_norm_;
    std::vector<TruthNumber> exact_reference_;
    std::vector<double> reference_;  ///< exact_reference_'s nearest doubles
    std::vector<double> augmented_;
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
               "converges while kappa x u_f < 1 (solver=gmres: GMRES-IR, far beyond)";
    }
    std::string help() const override {
        return "Solves A x = b, A an n x n random matrix with 2-norm condition number kappa (U diag(sigma) V^T, "
               "singular values geometric from 1 to 1/kappa) and b = A x* (x* standard normal), by LU "
               "iterative refinement in three precisions (Carson and Higham, SIAM J. Sci. Comput. 40(2), "
               "2018): the factorisation and the solves with its factors in the compute format u_f, the "
               "residual r = b - A x in the accumulate format u_r (scaled by a power of two to a largest "
               "entry near 1 before the solve, so that a small residual does not underflow in u_f), A, b and "
               "x stored and updated in the storage (working) format u; the output role is not used. Widths: "
               "u_f is within binary64; u and u_r may be wider (binary128, binary256, eXmY, P3109; every "
               "rounding mode), a wide u with a u_r that holds its values (u_r = u: two precisions; wider: "
               "three), and a wide u_r's scaled residual reaches the solve rounded to the nearest double. Region "
               "i (kind 'iteration') holds x_i (x_0 from the factors alone); its counters count the "
               "operations that produced x_i and its residual. Metrics: forward_error (||x - x_hat||_inf / "
               "||x_hat||_inf against the solution of the generated system, solved in MPFR at 2p + 30 bits of the "
               "policy's widest format, 128 at least), "
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
               "reaches 10 u, where an fp64 residual stalls near kappa u. With a binary128 working precision "
               "(n = 50, seed 4), fp32 factors and a binary256 residual end at 5.8e-35 (0.6 u) for kappa = 10^3 "
               "and 10^4, where a binary128 residual stalls at 9.5e-33 and 1.7e-31 (near kappa u); fp16 factors "
               "reach 5.8e-35 at kappa = 10^3 in 34 steps. solver=gmres is GMRES-IR (Carson and Higham 2018): each "
               "correction solves U^-1 L^-1 A d = U^-1 L^-1 r by unrestarted GMRES from d = 0, its own operations "
               "(modified Gram-Schmidt, Givens rotations, dot products as fused multiply-add chains) rounded to u, "
               "the preconditioner the same u_f triangular solves as LU-IR, A's products in u (the paper's analysis "
               "takes the preconditioned product at u^2; its result is rounded to u_f by the solve at once), the "
               "residual in u_r as before; it stops at gmres-tolerance times the preconditioned right-hand side's "
               "2-norm or after gmres-max-iterations steps, and each iterate from x_1 on reports gmres_iterations. "
               "It needs u within binary64. Observed (n = 50, seed 1, fp16 factors, fp64 working, binary128 "
               "residual): kappa = 10^4 ends at x_12 with a forward error of 1.1e-16 after 4 to 6 GMRES steps per "
               "correction, where LU-IR diverges; with an fp64 residual GMRES-IR stalls near kappa u. The ground "
               "truth is the solution "
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
            {"solver",
             ParameterType::Choice,
             "lu",
             0,
             0,
             {"lu", "gmres"},
             "how each correction solves A d = r: with the LU factors in u_f (LU-IR), or by GMRES in u "
             "preconditioned by them (GMRES-IR, Carson and Higham 2018), which converges for kappa far beyond "
             "1/u_f"},
            {"gmres-tolerance", ParameterType::Real, "1e-2", 1e-16, 0.5, {},
             "solver=gmres: GMRES stops once the preconditioned residual's 2-norm is at most this times its start. "
             "Refinement needs each correction only to a relative error well below 1 (Carson and Higham 2018), and "
             "with the preconditioner's solves in u_f a smaller tolerance costs GMRES steps, not refinement steps "
             "(fp16 factors, n = 50, kappa = 10^4: 1e-2, 1e-4 and 1e-8 end at x_12, x_13, x_12 after 58, 103 and "
             "152 GMRES steps)"},
            {"gmres-max-iterations", ParameterType::Integer, "100", 1, 100, {},
             "solver=gmres: Arnoldi steps per correction at most (GMRES is not restarted)"},
        };
        return schema;
    }

    /// A, its LU factors, the augmented [A, -b] and the conditioned matrix's factors in double, and
    /// the reference solution's MPFR elimination of [A, b], at 2p + 30 bits of the widest format a
    /// policy may name (e30m1024: 2080 bits), which also bounds a wide path's patterns of A and b.
    void check(const Parameters& parameters) const override {
        const double n = parameters.real("n");
        core::require_memory(fmt::format("iterative-refinement with n={}", parameters.integer("n")),
                             8 * 6 * n * (n + 1) + 2 * n * (n + 1) * core::mpfr_number_bytes(2 * 1025 + 30));
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
        const std::optional<GmresSettings> gmres = gmres_settings(parameters, policy);
        const LinearSystem system = generated_system(parameters);
        const ErrorMeasures measures(system, reference_precision(policy));
        const int max_iterations = static_cast<int>(parameters.integer("max-iterations"));
        const std::string stop = parameters.text("stop");
        LuRefinement refinement(system, policy, static_cast<std::uint64_t>(parameters.integer("seed")));
        const double u = working_unit_roundoff(refinement.working_format());
        const double a_norm = refinement.a_norm();
        // dsgesv's residual test: ||r|| <= sqrt(n) u ||A|| ||x||.
        const double residual_tolerance = std::sqrt(static_cast<double>(system.n)) * u;
        // Carson and Higham (SIAM J. Sci. Comput. 40(2), 2018, 3.2): the forward error converges to
        // about u + 4 n u_r cond(A, x), with kappa standing for cond(A, x).
        const double limiting_accuracy =
            unit_roundoff(policy.at(Role::Storage)) +
            4 * static_cast<double>(system.n) * unit_roundoff(policy.at(Role::Accumulate)) * parameters.real("kappa");

        OperationCounters counters;
        {
            CountingScope counting(counters);
            refinement.start();
        }
        // ||d_{i-1}|| / ||x_{i-1}||, the correction that made x_i, and the one before it, for the
        // correction test.
        double correction = NAN, previous_correction = NAN;
        int gmres_iterations = 0;  // GMRES's steps in the correction that made x_i
        for (int i = 0;; ++i) {
            ScaledResidual r;
            {
                CountingScope counting(counters);
                r = refinement.residual();
            }
            const std::vector<double> x = refinement.x();
            const std::optional<std::vector<TruthNumber>> exact = refinement.exact_x();
            const double x_norm = norm_inf(x);
            const bool finite = std::isfinite(x_norm);
            const double relative_residual = r.norm / (a_norm * x_norm);
            const bool converged = finite && relative_residual <= residual_tolerance;
            TraceRegion& region = trace.add_region("iteration", i, fmt::format("x_{}", i), refinement.working_format());
            refinement.record(region);
            region.counters = counters;
            region.metrics = {{metric::forward_error, exact ? measures.forward_error(*exact) : measures.forward_error(x)},
                              {metric::backward_error, measures.backward_error(x, exact ? *exact : to_truth(x, 53))},
                              {metric::residual_norm, r.norm},
                              {metric::converged, converged ? 1.0 : 0.0}};
            if (std::isfinite(limiting_accuracy))
                region.metrics.push_back({metric::error_bound_limiting_accuracy, limiting_accuracy});
            if (gmres && i > 0) region.metrics.push_back({metric::gmres_iterations, static_cast<double>(gmres_iterations)});
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
            previous_correction = correction;
            if (gmres) {
                const LuRefinement::GmresStep step = refinement.correct_by_gmres(r, *gmres);
                correction = step.correction;
                gmres_iterations = step.iterations;
            } else {
                correction = refinement.correct(r);
            }
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
