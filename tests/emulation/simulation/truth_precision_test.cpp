// The ground truth's precision (emulation/simulation/truth_precision): 2p + 30 bits for the widest
// format a run's policies name, chosen when not asked for, refused with the reason when asked for
// below that, and the precision used in the report.
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/truth_precision.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

std::vector<PrecisionPolicy> policies(std::initializer_list<const char*> texts) {
    std::vector<PrecisionPolicy> parsed;
    for (const char* text : texts) parsed.push_back(parse_policy(text));
    return parsed;
}

}  // namespace

TEST_CASE("the truth needs 2p + 30 bits for the widest format of any role, override or autocast", "[truth]") {
    // p: fp32 24, fp64 53, binary128 113 (IEEE 754-2019 Table 3.5), binary256 237, int32 32 bits.
    CHECK(truth_precision_need(policies({"fp16", "fp32"})).bits == 2 * 24 + 30);
    CHECK(truth_precision_need(policies({"fp32", "fp64; storage=fp16"})).bits == 2 * 53 + 30);
    const TruthPrecisionNeed quad = truth_precision_need(policies({"fp64; compute=fp16; accumulate=binary128"}));
    CHECK(quad.bits == 2 * 113 + 30);
    CHECK(quad.format == "binary128");
    CHECK(quad.policy == "fp64; compute=fp16; accumulate=binary128");
    CHECK(truth_precision_need(policies({"fp16", "fp64; accumulate=binary256"})).bits == 2 * 237 + 30);
    CHECK(truth_precision_need(policies({"fp16; layers 0 = fp64"})).bits == 2 * 53 + 30);
    CHECK(truth_precision_need(policies({"autocast = fp64"})).bits == 2 * 53 + 30);
    CHECK(truth_precision_need(policies({"int32"})).bits == 2 * 32 + 30);
    CHECK(truth_precision_need({}).bits == 0);
}

TEST_CASE("the truth's precision: 256 by default, raised for wide formats, refused below the need", "[truth]") {
    CHECK(chosen_truth_precision(0, policies({"fp16", "fp64"})) == 256);
    CHECK(chosen_truth_precision(0, policies({"fp64; accumulate=binary128"})) == 256);
    CHECK(chosen_truth_precision(0, policies({"fp64; accumulate=binary256"})) == 504);
    CHECK(chosen_truth_precision(0, policies({"fp64; accumulate=e20m400"})) == 2 * 401 + 30);
    CHECK(chosen_truth_precision(136, policies({"fp64"})) == 136);
    CHECK(chosen_truth_precision(2000, policies({"fp64; accumulate=binary256"})) == 2000);
    CHECK_THROWS_WITH(chosen_truth_precision(135, policies({"fp32", "fp64"})),
                      Catch::Contains("MPFR precision 135 bits: below the 136 bits") &&
                          Catch::Contains("'fp64' of policy 'fp64'"));
    CHECK_THROWS_WITH(chosen_truth_precision(300, policies({"fp64; accumulate=binary256"})),
                      Catch::Contains("504") && Catch::Contains("binary256"));
}

TEST_CASE("a run reports the truth's precision it used", "[truth]") {
    RunRequest r;
    r.workload = &find_workload("iterative-refinement");
    r.parameters = Parameters::parse(r.workload->parameters(), {"n=8"});
    r.policies = policies({"fp64; compute=fp16; accumulate=binary256"});
    RunControl control;
    CHECK(run(r, control).runs.at(0).mpfr_precision == 504);
    r.policies = policies({"fp32"});
    CHECK(run(r, control).runs.at(0).mpfr_precision == 256);
    r.mpfr_precision = 100;
    CHECK(run(r, control).runs.at(0).mpfr_precision == 100);
    r.policies = policies({"fp64"});
    CHECK_THROWS_AS(run(r, control), Error);
}
