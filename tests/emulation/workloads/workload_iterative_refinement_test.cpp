// The iterative-refinement workload: its matrices against Eigen's SVD, its MPFR solve against an
// MPFR residual, and the convergence facts of Carson and Higham (2018): fp16 factors refine to fp64
// accuracy for kappa = 10^2 and fail for kappa = 10^8 (kappa u_f >> 1); GMRES-IR reaches u at
// kappa = 10^4, its GMRES checked against an MPFR solve and Krylov theory.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "core/catalog.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/linalg/conditioned_matrix.hpp"
#include "emulation/workloads/linalg/preconditioned_gmres.hpp"
#include "emulation/workloads/linalg/mpfr_solve.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/core/mpfr_reference.hpp"

namespace {

using floatscope::core::parse_format;
using floatscope::emu::find_workload;
using floatscope::emu::Parameters;
using floatscope::emu::parse_policy;
using floatscope::emu::RunControl;
using floatscope::emu::Trace;
using floatscope::emu::TraceRegion;
using floatscope::emu::TruthTrace;
using floatscope::test::RefNumber;

const floatscope::emu::Workload& refinement() { return find_workload("iterative-refinement"); }

Trace run_refinement(const std::string& policy, const std::vector<std::string>& assignments) {
    Trace trace;
    RunControl control;
    refinement().run(Parameters::parse(refinement().parameters(), assignments), parse_policy(policy), trace, control);
    return trace;
}

/// The solution of the generated system from the ground-truth run, as doubles.
std::vector<double> true_solution(const std::vector<std::string>& assignments) {
    const floatscope::emu::TruthPrecisionScope scope(256);
    TruthTrace truth;
    RunControl control;
    refinement().run_ground_truth(Parameters::parse(refinement().parameters(), assignments), 256, truth, control);
    std::vector<double> x;
    for (const auto& v : truth.regions().at(0).values) x.push_back(v.convert_to<double>());
    return x;
}

/// ||x - truth||_inf / ||truth||_inf, NaN when x holds a NaN.
double forward_error(const std::vector<double>& x, const std::vector<double>& truth) {
    double difference = 0, size = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (std::isnan(x[i])) return NAN;
        difference = std::max(difference, std::fabs(x[i] - truth[i]));
        size = std::max(size, std::fabs(truth[i]));
    }
    return difference / size;
}

double metric(const TraceRegion& region, const std::string& name) {
    for (const auto& m : region.metrics)
        if (m.name == name) return m.value;
    FAIL("region '" << region.label << "' has no metric " << name);
    return 0;
}

/// The rule of LAPACK's xGERFSX, checked on the values the run reports: it ends at the first
/// iterate whose correction was at most u or shrank by less than half of the one before.
void check_correction_rule(const Trace& trace, double u) {
    const auto& regions = trace.regions();
    REQUIRE(regions.size() >= 2);
    for (std::size_t i = 1; i < regions.size(); ++i) {
        INFO(regions[i].label);
        CHECK(metric(regions[i], "stopping_tolerance") == u);
        const double value = metric(regions[i], "stopping_test_value");
        const bool last_one = i + 1 == regions.size();
        const bool shrank = i == 1 || value <= metric(regions[i - 1], "stopping_test_value") / 2;
        CHECK(last_one == (value <= u || !shrank));
    }
}

}  // namespace

TEST_CASE("random_conditioned_matrix has singular values from 1 to 1/kappa", "[workload][refinement]") {
    for (const double kappa : {1.0, 1e2, 1e8}) {
        INFO(kappa);
        std::mt19937_64 rng(3);
        const std::vector<double> a = floatscope::emu::random_conditioned_matrix(20, kappa, rng);
        using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        const Eigen::Map<const RowMajor> m(a.data(), 20, 20);
        const Eigen::VectorXd sigma = Eigen::JacobiSVD<Eigen::MatrixXd>(m).singularValues();
        CHECK(sigma(0) == Approx(1).epsilon(1e-12));
        // The smallest singular value is off by about n 2^-53 absolutely (see the header).
        CHECK(sigma(19) == Approx(1 / kappa).epsilon(1e-12 * kappa));
        CHECK(sigma(10) == Approx(std::pow(kappa, -10.0 / 19)).epsilon(1e-10));
    }
}

TEST_CASE("mpfr_solve leaves a residual at the level of its precision", "[workload][refinement]") {
    std::mt19937_64 rng(9);
    constexpr std::size_t n = 12;
    const std::vector<double> a = floatscope::emu::random_conditioned_matrix(n, 1e6, rng);
    std::vector<double> b;
    for (std::size_t i = 0; i < n; ++i) b.push_back(static_cast<double>(i) - 5.5);
    const floatscope::emu::TruthPrecisionScope scope(200);
    const std::vector<floatscope::emu::TruthNumber> x = floatscope::emu::mpfr_solve(a, b, n, 200);
    // The residual b - A x, computed exactly here (53 + 200 bits per product, sums at 1000 bits).
    for (std::size_t i = 0; i < n; ++i) {
        RefNumber residual(1000), product(1000);
        mpfr_set_d(residual.get(), b[i], MPFR_RNDN);
        for (std::size_t j = 0; j < n; ++j) {
            mpfr_mul_d(product.get(), x[j].backend().data(), a[i * n + j], MPFR_RNDN);
            mpfr_sub(residual.get(), residual.get(), product.get(), MPFR_RNDN);
        }
        // Backward stable: |r| <~ n u ||A|| ||x|| with u = 2^-200, ||x|| <= kappa ||b|| = 5.5e6.
        CHECK(std::fabs(mpfr_get_d(residual.get(), MPFR_RNDN)) < std::ldexp(1.0, -200) * 100 * 6e6);
    }
    std::vector<double> singular(n * n, 1.0);
    CHECK_THROWS_AS(floatscope::emu::mpfr_solve(singular, b, n, 100), floatscope::Error);
}

TEST_CASE("fp16 factors refine to fp64 accuracy for kappa = 10^2", "[workload][refinement]") {
    const std::vector<std::string> assignments = {"n=50", "kappa=100", "seed=4", "stop=residual"};
    const std::vector<double> truth = true_solution(assignments);
    const Trace trace = run_refinement("fp64; compute=fp16", assignments);
    const auto& regions = trace.regions();
    REQUIRE(regions.size() >= 2);
    for (std::size_t i = 0; i < regions.size(); ++i) {
        CHECK(regions[i].kind == "iteration");
        CHECK(regions[i].index == static_cast<int>(i));
        CHECK(regions[i].label == "x_" + std::to_string(i));
        CHECK(regions[i].format == parse_format("fp64"));
    }
    // x_0 comes from fp16 factors: its error is of order kappa u_f (u_f = 2^-11), far from fp64's.
    const double initial = forward_error(regions[0].values, truth);
    CHECK(initial > 1e-6);
    CHECK(initial < 1);
    // Each step multiplies the error by about kappa u_f = 0.05 until it reaches the limit of
    // u_r = u: at most a small multiple of n kappa u (Carson and Higham 2018, section 3).
    CHECK(forward_error(regions[1].values, truth) < initial / 4);
    const TraceRegion& last = regions.back();
    CHECK(metric(last, "converged") == 1);
    CHECK(regions.size() <= 15);
    const double final_error = forward_error(last.values, truth);
    CHECK(final_error < 50 * 100 * std::ldexp(1.0, -53));
    CHECK(metric(last, "backward_error") < 50 * std::ldexp(1.0, -53));
    // The workload's own measure agrees with the error against the MPFR truth.
    CHECK(metric(last, "forward_error") == Approx(final_error).epsilon(1e-6).margin(1e-18));
    CHECK(metric(regions[0], "forward_error") == Approx(initial).epsilon(1e-9));
    for (std::size_t i = 0; i + 1 < regions.size(); ++i) CHECK(metric(regions[i], "converged") == 0);
}

TEST_CASE("fp16 factors do not converge for kappa = 10^8", "[workload][refinement]") {
    // kappa u_f = 10^8 x 2^-11 ~ 5 x 10^4: far beyond the condition kappa u_f < 1 of the theory.
    const std::vector<std::string> assignments = {"n=50", "kappa=1e8", "seed=4", "max-iterations=10", "stop=residual"};
    const std::vector<double> truth = true_solution(assignments);
    const Trace trace = run_refinement("fp64; compute=fp16", assignments);
    for (const TraceRegion& region : trace.regions()) {
        INFO(region.label);
        CHECK(metric(region, "converged") == 0);
        const double error = forward_error(region.values, truth);
        CHECK((std::isnan(error) || error > 1e-3));
    }
    // With fp64 factors the same system converges at once, to about kappa u.
    const Trace fp64 = run_refinement("fp64", assignments);
    CHECK(metric(fp64.regions().back(), "converged") == 1);
    CHECK(fp64.regions().size() <= 3);
    CHECK(forward_error(fp64.regions().back().values, truth) < 50 * 1e8 * std::ldexp(1.0, -53));
}

TEST_CASE("the correction test ends at the forward error's limit, where the residual test ends far above it",
          "[workload][refinement]") {
    // The Stories' case: fp32 working, fp16 or bf16 factors, fp64 residuals, kappa = 100. The
    // limit is what 40 steps reach; the residual test (a backward error of sqrt(n) u) ends while the
    // forward error is still about kappa times larger (issue 38: 3.0e-6 and 5.3e-6 against 2.5e-7).
    const std::vector<std::string> system = {"n=50", "kappa=100", "seed=1"};
    const std::vector<double> truth = true_solution(system);
    const double u = std::ldexp(1.0, -24);
    for (const std::string factors : {"fp16", "bf16"}) {
        INFO(factors);
        const std::string policy = "fp32; compute=" + factors + "; accumulate=fp64";
        auto with = [&](std::vector<std::string> more) {
            more.insert(more.end(), system.begin(), system.end());
            return run_refinement(policy, more);
        };
        const Trace all = with({"stop=none", "max-iterations=40"});
        double limit = INFINITY;
        for (const TraceRegion& region : all.regions()) limit = std::min(limit, forward_error(region.values, truth));
        CHECK(limit < 8 * u);
        CHECK(metric(all.regions().back(), "stop_reason") == 4);  // max-iterations

        const Trace correction = with({});  // the default
        const TraceRegion& last = correction.regions().back();
        CHECK(forward_error(last.values, truth) <= 1.5 * limit);
        const double stop = metric(last, "stop_reason");
        CHECK((stop == 2 || stop == 3));
        check_correction_rule(correction, u);

        const Trace residual = with({"stop=residual"});
        CHECK(metric(residual.regions().back(), "stop_reason") == 1);
        CHECK(forward_error(residual.regions().back().values, truth) > 5 * limit);
        CHECK(metric(residual.regions().back(), "stopping_tolerance") == Approx(std::sqrt(50.0) * u));
    }
}

TEST_CASE("the correction test ends a diverging refinement at its first correction that did not halve",
          "[workload][refinement]") {
    // kappa u_f = 10^4 x 2^-11 ~ 5: the iteration diverges, and the residual test never ends it.
    const std::vector<std::string> assignments = {"n=50", "kappa=1e4", "seed=1"};
    const Trace correction = run_refinement("fp64; compute=fp16", assignments);
    CHECK(metric(correction.regions().back(), "stop_reason") == 3);
    check_correction_rule(correction, std::ldexp(1.0, -53));
    std::vector<std::string> residual_test = assignments;
    residual_test.push_back("stop=residual");
    const Trace residual = run_refinement("fp64; compute=fp16", residual_test);
    CHECK(residual.regions().size() == 21);
    CHECK(metric(residual.regions().back(), "stop_reason") == 4);
}

TEST_CASE("iterative refinement is deterministic and stops at max-iterations", "[workload][refinement]") {
    const std::vector<std::string> assignments = {"n=10", "kappa=1e3", "max-iterations=0"};
    const Trace once = run_refinement("fp32; compute=bf16", assignments);
    REQUIRE(once.regions().size() == 1);
    CHECK(once.regions()[0].values == run_refinement("fp32; compute=bf16", assignments).regions()[0].values);
    CHECK(once.regions()[0].counters.operations > 0);
    CHECK_THROWS_AS(Parameters::parse(refinement().parameters(), {"n=101"}), floatscope::Error);
    CHECK_THROWS_AS(Parameters::parse(refinement().parameters(), {"kappa=0.5"}), floatscope::Error);
}

TEST_CASE("three precisions: fp16 factors, fp64 working, binary128 residual reach u where fp64 residuals stall",
          "[workload][refinement]") {
    // Carson and Higham (2018), 3.2: the forward error's limit is about u + 4 n u_r kappa. With u_r
    // = u it stalls near kappa u; with u_r = 2^-113 it reaches u itself, while kappa u_f < 1.
    const double u = std::ldexp(1.0, -53);
    for (const double kappa : {1e2, 1e3, 5e3}) {
        INFO("kappa " << kappa);
        const std::vector<std::string> assignments = {"n=50", "kappa=" + std::to_string(kappa), "seed=4", "stop=none",
                                                      "max-iterations=40"};
        const std::vector<double> truth = true_solution(assignments);
        const Trace three = run_refinement("fp64; compute=fp16; accumulate=binary128", assignments);
        REQUIRE(three.regions().size() == 41);
        const double three_error = forward_error(three.regions().back().values, truth);
        CHECK(three_error <= 10 * u);
        CHECK(metric(three.regions().back(), "forward_error") == Approx(three_error).margin(1e-18));
        // The limiting-accuracy bound drawn beside it is u_r's: u + 4 n 2^-113 kappa.
        CHECK(metric(three.regions().back(), "error_bound_limiting_accuracy") ==
              Approx(u + 4 * 50 * std::ldexp(1.0, -113) * kappa));
        if (kappa < 1e3) continue;
        const Trace two = run_refinement("fp64; compute=fp16", assignments);
        CHECK(forward_error(two.regions().back().values, truth) > 10 * u);
    }
}

TEST_CASE("a binary128 residual is the fma chain rounded in binary128 (GCC's __float128 as the reference)",
          "[workload][refinement]") {
    // The system as the workload documents it: A from random_conditioned_matrix, x* standard normal
    // from the same generator, b = A x* summed in double in column order.
    constexpr std::size_t n = 20;
    const std::vector<std::string> assignments = {"n=20", "kappa=1e3", "seed=7", "max-iterations=3", "stop=none"};
    std::mt19937_64 rng(7);
    const std::vector<double> a = floatscope::emu::random_conditioned_matrix(n, 1e3, rng);
    const std::vector<double> x_star = floatscope::emu::draw_many(floatscope::emu::Distribution::Normal, n, rng);
    std::vector<double> b(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) b[i] += a[i * n + j] * x_star[j];
    const Trace trace = run_refinement("fp64; compute=fp16; accumulate=binary128", assignments);
    REQUIRE(trace.regions().size() == 4);
    for (const TraceRegion& region : trace.regions()) {
        double norm = 0;
        for (std::size_t i = 0; i < n; ++i) {
            __float128 acc = b[i];
            for (std::size_t j = 0; j < n; ++j)  // the product of two doubles is exact in binary128
                acc = acc - static_cast<__float128>(a[i * n + j]) * static_cast<__float128>(region.values[j]);
            norm = std::max(norm, std::fabs(static_cast<double>(acc)));
        }
        INFO(region.label);
        CHECK(metric(region, "residual_norm") == norm);
    }
}

namespace {

/// The forward error of each iterate of a run, against the truth.
std::vector<double> forward_errors(const Trace& trace, const std::vector<double>& truth) {
    std::vector<double> errors;
    for (const TraceRegion& region : trace.regions()) errors.push_back(forward_error(region.values, truth));
    return errors;
}

}  // namespace

TEST_CASE("GMRES-IR with fp16 factors and a binary128 residual reaches 10 u where LU-IR and an fp64 residual do not",
          "[workload][refinement]") {
    // kappa u_f = 10^4 x 2^-11 ~ 5: LU-IR diverges, while GMRES preconditioned by the same factors
    // converges for kappa up to about u_f^-2 (Carson and Higham 2018), to the limit u + 4 n u_r kappa.
    const double u = std::ldexp(1.0, -53);
    for (const char* kappa : {"1e3", "1e4"}) {
        INFO("kappa " << kappa);
        const std::vector<std::string> system = {"n=50", std::string("kappa=") + kappa, "seed=4"};
        const std::vector<double> truth = true_solution(system);
        auto with = [&](const std::string& policy, std::vector<std::string> more) {
            more.insert(more.end(), system.begin(), system.end());
            return run_refinement(policy, more);
        };
        const Trace gmres = with("fp64; compute=fp16; accumulate=binary128", {"solver=gmres"});
        const TraceRegion& last = gmres.regions().back();
        const double error = forward_error(last.values, truth);
        CHECK(error <= 10 * u);
        CHECK(metric(last, "forward_error") == Approx(error).margin(1e-18));
        CHECK(metric(last, "stop_reason") == 2);  // the correction test: d_i <= u ||x_i||
        CHECK(gmres.regions().size() <= 16);  // 10 and 13 iterates (x_0 included) when written
        // Each correction took a few GMRES steps, reported from x_1 on.
        for (std::size_t i = 1; i < gmres.regions().size(); ++i) {
            const double steps = metric(gmres.regions()[i], "gmres_iterations");
            CHECK(steps >= 1);
            CHECK(steps <= 20);
        }
        CHECK(forward_error(gmres.regions().front().values, truth) > 1e-4);  // x_0: the fp16 factors alone

        // Two precisions (u_r = u): the same GMRES-IR stalls near kappa u, far above u.
        const std::vector<double> two =
            forward_errors(with("fp64; compute=fp16", {"solver=gmres", "stop=none", "max-iterations=20"}), truth);
        const double best_two = *std::min_element(two.begin() + 1, two.end());
        CHECK(best_two > 10 * u);
        CHECK(best_two < 50 * std::stod(kappa) * u);

        // LU-IR with the same three precisions: at kappa = 10^4 it does not converge at all.
        const Trace lu = with("fp64; compute=fp16; accumulate=binary128", {"stop=none", "max-iterations=20"});
        for (const auto& m : lu.regions().back().metrics) CHECK(m.name != std::string("gmres_iterations"));
        const std::vector<double> lu_errors = forward_errors(lu, truth);
        if (std::string(kappa) == "1e4")
            for (const double e : lu_errors) CHECK((std::isnan(e) || e > 1e-3));
    }
}

TEST_CASE("solver=gmres refuses a working format wider than binary64", "[workload][refinement]") {
    CHECK_THROWS_WITH(run_refinement("binary128; compute=fp16; accumulate=binary256", {"n=5", "solver=gmres"}),
                      Catch::Contains("must be within binary64"));
}

namespace {

/// ||c - B d||_2 / ||c||_2, the residual computed exactly in MPFR (1000 bits hold every product and sum).
double relative_residual(const std::vector<double>& b, const std::vector<double>& c, const std::vector<double>& d) {
    const std::size_t n = c.size();
    RefNumber residual(1000), product(1000), squares(1000), c_squares(1000);
    mpfr_set_zero(squares.get(), 1);
    mpfr_set_zero(c_squares.get(), 1);
    for (std::size_t i = 0; i < n; ++i) {
        mpfr_set_d(residual.get(), c[i], MPFR_RNDN);
        for (std::size_t j = 0; j < n; ++j) {
            mpfr_set_d(product.get(), b[i * n + j], MPFR_RNDN);
            mpfr_mul_d(product.get(), product.get(), d[j], MPFR_RNDN);
            mpfr_sub(residual.get(), residual.get(), product.get(), MPFR_RNDN);
        }
        mpfr_fma(squares.get(), residual.get(), residual.get(), squares.get(), MPFR_RNDN);
        mpfr_set_d(product.get(), c[i], MPFR_RNDN);
        mpfr_fma(c_squares.get(), product.get(), product.get(), c_squares.get(), MPFR_RNDN);
    }
    mpfr_div(squares.get(), squares.get(), c_squares.get(), MPFR_RNDN);
    return std::sqrt(mpfr_get_d(squares.get(), MPFR_RNDN));
}

}  // namespace

TEST_CASE("preconditioned_gmres meets its tolerance and matches the MPFR solve", "[workload][refinement]") {
    constexpr std::size_t n = 12;
    std::mt19937_64 rng(11);
    const std::vector<double> b = floatscope::emu::random_conditioned_matrix(n, 1e3, rng);
    const std::vector<double> c = floatscope::emu::draw_many(floatscope::emu::Distribution::Normal, n, rng);
    const floatscope::core::FormatRounding fp64{parse_format("fp64")};
    const auto product = [&](std::span<const double> v) {
        std::vector<double> w(n, 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) w[i] = std::fma(b[i * n + j], v[j], w[i]);
        return w;
    };
    const floatscope::emu::TruthPrecisionScope scope(200);
    const std::vector<floatscope::emu::TruthNumber> exact = floatscope::emu::mpfr_solve(b, c, n, 200);
    for (const double tolerance : {1e-2, 1e-6, 1e-13}) {
        INFO("tolerance " << tolerance);
        const floatscope::emu::GmresSolution solution =
            floatscope::emu::preconditioned_gmres(product, c, {tolerance, static_cast<int>(n)}, fp64, nullptr);
        CHECK(solution.iterations >= 1);
        CHECK(solution.iterations <= static_cast<int>(n));
        // GMRES's own residual estimate stopped it at the tolerance; the true residual agrees
        // up to the rounding of its basis (the data are O(1), kappa(B) = 10^3).
        CHECK(relative_residual(b, c, solution.d) <= tolerance * 1.01 + 1e3 * n * std::ldexp(1.0, -53));
        if (solution.iterations > 1) {  // a looser tolerance would have stopped one step earlier: not over-solved
            const floatscope::emu::GmresSolution shorter = floatscope::emu::preconditioned_gmres(
                product, c, {tolerance, solution.iterations - 1}, fp64, nullptr);
            CHECK(relative_residual(b, c, shorter.d) > tolerance * 0.99);
        }
        // The forward error against the MPFR solve: at most kappa(B) times the residual.
        double difference = 0, size = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const double x = mpfr_get_d(exact[i].backend().data(), MPFR_RNDN);
            difference = std::max(difference, std::fabs(solution.d[i] - x));
            size = std::max(size, std::fabs(x));
        }
        CHECK(difference / size <= 1e3 * std::sqrt(static_cast<double>(n)) * (1.1 * tolerance + 1e-14));
    }
}

TEST_CASE("preconditioned_gmres takes k + 1 steps on identity plus rank k and rounds to its working format",
          "[workload][refinement]") {
    // The minimal polynomial of I + (rank k) has degree k + 1: GMRES is exact after k + 1 steps
    // (Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., 6.5.3), at most.
    constexpr std::size_t n = 30, k = 3;
    std::mt19937_64 rng(5);
    const std::vector<double> p = floatscope::emu::draw_many(floatscope::emu::Distribution::Normal, n * k, rng);
    const std::vector<double> q = floatscope::emu::draw_many(floatscope::emu::Distribution::Normal, n * k, rng);
    const std::vector<double> c = floatscope::emu::draw_many(floatscope::emu::Distribution::Normal, n, rng);
    std::vector<double> b(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            b[i * n + j] = i == j ? 1.0 : 0.0;
            for (std::size_t l = 0; l < k; ++l) b[i * n + j] += p[i * k + l] * q[j * k + l] / n;
        }
    const auto product = [&](std::span<const double> v) {
        std::vector<double> w(n, 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) w[i] += b[i * n + j] * v[j];
        return w;
    };
    const floatscope::emu::GmresSolution fp64 = floatscope::emu::preconditioned_gmres(
        product, c, {1e-12, static_cast<int>(n)}, {parse_format("fp64")}, nullptr);
    CHECK(fp64.iterations <= static_cast<int>(k + 1));
    CHECK(relative_residual(b, c, fp64.d) < 1e-12);
    // In fp32 every entry of d is an fp32 value, and the residual stops near fp32's u, not fp64's.
    const floatscope::emu::GmresSolution fp32 = floatscope::emu::preconditioned_gmres(
        product, c, {1e-12, static_cast<int>(n)}, {parse_format("fp32")}, nullptr);
    for (const double v : fp32.d) CHECK(static_cast<double>(static_cast<float>(v)) == v);
    CHECK(relative_residual(b, c, fp32.d) > 1e-12);
    CHECK(relative_residual(b, c, fp32.d) < 1e-4);
}
