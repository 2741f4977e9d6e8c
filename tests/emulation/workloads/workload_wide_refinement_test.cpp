// iterative-refinement with a working precision wider than binary64: forward errors against an MPFR
// solve at 2p + 30 bits or more, its residuals against an MPFR fma chain, and the widths refused.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <mpfr.h>

#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/linalg/conditioned_matrix.hpp"
#include "emulation/workloads/linalg/mpfr_solve.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/core/mpfr_reference.hpp"

namespace {

using floatscope::emu::find_workload;
using floatscope::emu::Parameters;
using floatscope::emu::parse_policy;
using floatscope::emu::RunControl;
using floatscope::emu::Trace;
using floatscope::emu::TraceRegion;
using floatscope::emu::TruthNumber;
using floatscope::test::RefNumber;

const floatscope::emu::Workload& refinement() { return find_workload("iterative-refinement"); }

Trace run_refinement(const std::string& policy, const std::vector<std::string>& assignments) {
    Trace trace;
    RunControl control;
    refinement().run(Parameters::parse(refinement().parameters(), assignments), parse_policy(policy), trace, control);
    return trace;
}

double metric(const TraceRegion& region, const std::string& name) {
    for (const auto& m : region.metrics)
        if (m.name == name) return m.value;
    FAIL("region '" << region.label << "' has no metric " << name);
    return 0;
}

/// The system as the workload documents it: A from random_conditioned_matrix, x* standard normal
/// from the same generator, b = A x* summed in double in column order.
struct System {
    std::size_t n;
    std::vector<double> a, b;
};

System generated(std::size_t n, double kappa, std::uint64_t seed) {
    System s{n, {}, std::vector<double>(n, 0.0)};
    std::mt19937_64 rng(seed);
    s.a = floatscope::emu::random_conditioned_matrix(n, kappa, rng);
    const std::vector<double> x = floatscope::emu::draw_many(floatscope::emu::Distribution::Normal, n, rng);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) s.b[i] += s.a[i * n + j] * x[j];
    return s;
}

/// ||x - x_hat||_inf / ||x_hat||_inf in MPFR, x the region's exact values, x_hat `solution`.
double forward_error(const TraceRegion& region, const std::vector<TruthNumber>& solution) {
    REQUIRE(region.wide_values.size() == solution.size());
    RefNumber difference(4000), largest(4000), size(4000);
    mpfr_set_zero(largest.get(), 1);
    mpfr_set_zero(size.get(), 1);
    for (std::size_t i = 0; i < solution.size(); ++i) {
        mpfr_sub(difference.get(), region.wide_values[i].backend().data(), solution[i].backend().data(), MPFR_RNDN);
        mpfr_abs(difference.get(), difference.get(), MPFR_RNDN);
        mpfr_max(largest.get(), largest.get(), difference.get(), MPFR_RNDN);
        mpfr_abs(difference.get(), solution[i].backend().data(), MPFR_RNDN);
        mpfr_max(size.get(), size.get(), difference.get(), MPFR_RNDN);
    }
    mpfr_div(difference.get(), largest.get(), size.get(), MPFR_RNDN);
    return mpfr_get_d(difference.get(), MPFR_RNDN);
}

}  // namespace

TEST_CASE("binary128 working precision: a binary256 residual reaches u, a binary128 one stalls near kappa u",
          "[workload][refinement][wide]") {
    // Carson and Higham (2018), 3.2: the forward error's limit is about u + 4 n u_r kappa: u with
    // u_r = u^2 or so (three precisions), about kappa u with u_r = u (two).
    const double u = std::ldexp(1.0, -113);
    const double kappa = 1e4;
    const std::vector<std::string> assignments = {"n=50", "kappa=1e4", "seed=4", "stop=none", "max-iterations=12"};
    const System system = generated(50, kappa, 4);
    // 2p + 30 for binary256's p = 237 and more: the reference's own error is far below binary128's u.
    const std::vector<TruthNumber> solution = floatscope::emu::mpfr_solve(system.a, system.b, 50, 600);
    const Trace three = run_refinement("binary128; compute=fp32; accumulate=binary256", assignments);
    REQUIRE(three.regions().size() == 13);
    const double three_error = forward_error(three.regions().back(), solution);
    CHECK(three_error <= 10 * u);
    CHECK(metric(three.regions().back(), "forward_error") == Approx(three_error).epsilon(1e-6));
    const Trace two = run_refinement("binary128; compute=fp32", assignments);
    const double two_error = forward_error(two.regions().back(), solution);
    CHECK(two_error > 10 * u);
    CHECK(two_error > kappa * u / 100);
    CHECK(two_error < 10 * kappa * u);
    CHECK(metric(two.regions().back(), "forward_error") == Approx(two_error).epsilon(1e-6));
    // fp16 factors (kappa u_f = 0.5 at 10^3) converge too, slowly: about a bit a step.
    const std::vector<std::string> fp16_assignments = {"n=50", "kappa=1e3", "seed=4", "max-iterations=60"};
    const System fp16_system = generated(50, 1e3, 4);
    const std::vector<TruthNumber> fp16_solution =
        floatscope::emu::mpfr_solve(fp16_system.a, fp16_system.b, 50, 600);
    const Trace fp16 = run_refinement("binary128; compute=fp16; accumulate=binary256", fp16_assignments);
    CHECK(forward_error(fp16.regions().back(), fp16_solution) <= 10 * u);
    CHECK(metric(fp16.regions().back(), "stop_reason") == 2);  // the correction test: converged
}

TEST_CASE("fp64 working and a binary128 residual reach 10 u at kappa = 10^4 where fp16 factors cannot",
          "[workload][refinement][wide]") {
    // LU refinement converges while kappa u_f < 1 or so: fp32 factors (kappa u_f = 6e-4) refine to
    // u with a binary128 residual and stall near kappa u with an fp64 one; fp16 factors (kappa u_f
    // = 4.9) do not converge at all (fp16 reaches 10 u up to kappa = 5 x 10^3: the test above).
    const double u = std::ldexp(1.0, -53);
    const std::vector<std::string> assignments = {"n=50", "kappa=1e4", "seed=4", "stop=none", "max-iterations=40"};
    const System system = generated(50, 1e4, 4);
    const std::vector<TruthNumber> solution = floatscope::emu::mpfr_solve(system.a, system.b, 50, 600);
    const auto error = [&](const Trace& trace) {
        double difference = 0, size = 0;
        for (std::size_t i = 0; i < solution.size(); ++i) {
            const double t = solution[i].convert_to<double>();
            difference = std::max(difference, std::fabs(trace.regions().back().values[i] - t));
            size = std::max(size, std::fabs(t));
        }
        return difference / size;
    };
    CHECK(error(run_refinement("fp64; compute=fp32; accumulate=binary128", assignments)) <= 10 * u);
    const double two = error(run_refinement("fp64; compute=fp32", assignments));
    CHECK(two > 10 * u);
    CHECK(two > 1e4 * u / 100);
    CHECK(two < 10 * 1e4 * u);
    CHECK(error(run_refinement("fp64; compute=fp16; accumulate=binary128", assignments)) > 1e-6);
}

TEST_CASE("a binary256 working precision is measured against a reference of 2p + 30 bits",
          "[workload][refinement][wide]") {
    // At a fixed 128 bits the reference's own error (about kappa 2^-128) would be the measure.
    const double u = std::ldexp(1.0, -237);
    const std::vector<std::string> assignments = {"n=20", "kappa=1e3", "seed=3", "stop=none", "max-iterations=12"};
    const System system = generated(20, 1e3, 3);
    const std::vector<TruthNumber> solution = floatscope::emu::mpfr_solve(system.a, system.b, 20, 1200);
    const Trace trace = run_refinement("binary256; compute=fp32; accumulate=e20m500", assignments);
    const double error = forward_error(trace.regions().back(), solution);
    CHECK(error <= 10 * u);
    CHECK(metric(trace.regions().back(), "forward_error") == Approx(error).epsilon(1e-6));
}

TEST_CASE("a wide iterate's residual is the fma chain in u_r from its exact values", "[workload][refinement][wide]") {
    constexpr std::size_t n = 20;
    const System system = generated(n, 1e3, 7);
    const Trace trace = run_refinement("binary128; compute=fp16; accumulate=binary256",
                                       {"n=20", "kappa=1e3", "seed=7", "max-iterations=4", "stop=none"});
    REQUIRE(trace.regions().size() == 5);
    RefNumber acc(237), a(53);
    for (const TraceRegion& region : trace.regions()) {
        INFO(region.label);
        REQUIRE(region.wide_values.size() == n);
        double norm = 0;
        for (std::size_t i = 0; i < n; ++i) {
            mpfr_set_d(acc.get(), system.b[i], MPFR_RNDN);  // exact: b and A are doubles, values of binary128
            for (std::size_t j = 0; j < n; ++j) {
                mpfr_set_d(a.get(), -system.a[i * n + j], MPFR_RNDN);
                mpfr_fma(acc.get(), a.get(), region.wide_values[j].backend().data(), acc.get(), MPFR_RNDN);
            }
            norm = std::max(norm, std::fabs(mpfr_get_d(acc.get(), MPFR_RNDN)));
        }
        CHECK(metric(region, "residual_norm") == norm);
        CHECK(region.counters.operations > 0);
    }
}

TEST_CASE("iterative-refinement refuses the widths it does not take, naming the role", "[workload][refinement][wide]") {
    CHECK_THROWS_WITH(run_refinement("fp64; compute=binary128", {"n=4"}),
                      Catch::Contains("u_f (the compute role) 'binary128' is wider than binary64"));
    CHECK_THROWS_WITH(run_refinement("binary128; compute=fp16; accumulate=fp64", {"n=4"}),
                      Catch::Contains("does not hold its values"));
    CHECK_THROWS_WITH(run_refinement("binary256; compute=fp16; accumulate=binary128", {"n=4"}),
                      Catch::Contains("a wide u needs a u_r at least as wide"));
}
