// The error measures on the built-in workloads, through the engine as `run` computes them, against
// facts independent of the code: mlp-forward's normwise error grows with depth in the low formats
// and bf16's range leaves nothing to underflow; the harmonic sum's stagnated value against H_n in
// MPFR; gemm's normwise error below Higham's gamma_k worked out here.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <mpfr.h>

#include "emulation/simulation/engine.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

Report run_workload(const std::string& workload, const std::vector<std::string>& parameters,
                    const std::vector<std::string>& policies) {
    RunRequest request;
    request.workload = &find_workload(workload);
    request.parameters = Parameters::parse(request.workload->parameters(), parameters);
    for (const std::string& p : policies) request.policies.push_back(parse_policy(p));
    request.threads = 2;
    RunControl control;
    return run(request, control);
}

/// metric -> value per region index, of one policy and region kind.
std::map<int, double> along(const Report& report, const std::string& policy, const std::string& kind,
                            const std::string& metric) {
    std::map<int, double> out;
    for (const ReportRow& row : report.rows)
        if (row.policy == policy && row.region_kind == kind && row.metric == metric) out[row.region_index] = row.value;
    return out;
}

}  // namespace

TEST_CASE("mlp-forward defaults: normwise error small in fp32, growing in bf16 and fp16, true underflow in e4m3",
          "[measures][mlp-forward]") {
    const Report report = run_workload("mlp-forward", {}, {"fp32", "bf16", "fp16", "fp8_e4m3"});
    const auto fp32 = along(report, "fp32", "layer", "normwise_rel_error");
    const auto bf16 = along(report, "bf16", "layer", "normwise_rel_error");
    const auto fp16 = along(report, "fp16", "layer", "normwise_rel_error");
    REQUIRE(fp32.size() == 16);
    REQUIRE(bf16.size() == 16);
    REQUIRE(fp16.size() == 16);
    for (int layer = 0; layer < 16; ++layer) {
        INFO("layer " << layer);
        CHECK(fp32.at(layer) < 1e-5);
        CHECK(fp16.at(layer) < bf16.at(layer));  // 11 bits against 8, and the same range for these values
        CHECK(bf16.at(layer) < 0.1);
        CHECK(fp16.at(layer) < 0.1);
    }
    // Roughly with depth: the last layer's error is well above the first's in both.
    CHECK(bf16.at(15) > 1.5 * bf16.at(0));
    CHECK(fp16.at(15) > 1.5 * fp16.at(0));
    // bf16 reaches 2^-126: no exact value of these layers lies below its normal range.
    for (const auto& [layer, count] : along(report, "bf16", "layer", "underflow_count")) CHECK(count == 0);
    // e4m3's smallest normal is 2^-6: small activations lie below it.
    double e4m3_underflow = 0;
    for (const auto& [layer, count] : along(report, "fp8_e4m3", "layer", "underflow_count")) e4m3_underflow += count;
    CHECK(e4m3_underflow > 0);
}

TEST_CASE("sum, harmonic, fp16 naive: the normwise error at n = 5000 is |7.0859375 - H_5000| / H_5000",
          "[measures][sum]") {
    const Report report = run_workload("sum", {"n=5000"}, {"fp16"});
    mpfr_t h, term;
    mpfr_inits2(256, h, term, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_zero(h, 1);
    for (unsigned long i = 1; i <= 5000; ++i) {
        mpfr_set_ui(term, i, MPFR_RNDN);
        mpfr_ui_div(term, 1, term, MPFR_RNDN);
        mpfr_add(h, h, term, MPFR_RNDN);
    }
    mpfr_sub_d(term, h, 7.0859375, MPFR_RNDN);  // fp16's stagnated sum (the workload's help says why)
    mpfr_div(term, term, h, MPFR_RNDN);
    const double expected = std::fabs(mpfr_get_d(term, MPFR_RNDN));
    mpfr_clears(h, term, static_cast<mpfr_ptr>(nullptr));
    const auto normwise = along(report, "fp16", "terms", "normwise_rel_error");
    const auto n = along(report, "fp16", "terms", "n");
    REQUIRE(n.rbegin()->second == 5000);
    CHECK(normwise.rbegin()->second == Approx(expected).epsilon(1e-12));
    // Bounds sit above the measured error wherever gamma_n gives one (n u < 1).
    const auto bound = along(report, "fp16", "terms", "error_bound_deterministic");
    CHECK_FALSE(bound.empty());
    for (const auto& [index, b] : bound) CHECK(normwise.at(index) <= b);
}

TEST_CASE("gemm, fp16, uniform inputs: the normwise error stays below gamma_k at every k", "[measures][gemm]") {
    const Report report = run_workload("gemm", {"distribution=uniform"}, {"fp16"});
    const auto normwise = along(report, "fp16", "k", "normwise_rel_error");
    const auto k = along(report, "fp16", "k", "k");
    REQUIRE(normwise.size() == 5);
    const double u = std::ldexp(1.0, -11);  // binary16: 11 significant bits, round to nearest
    for (const auto& [index, error] : normwise) {
        const double ku = k.at(index) * u;
        INFO("k = " << k.at(index));
        if (ku < 1) CHECK(error < ku / (1 - ku));  // Higham, Accuracy and Stability, 3.1
        CHECK(error > 0);
    }
}
