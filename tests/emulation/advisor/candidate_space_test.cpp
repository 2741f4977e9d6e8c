// Tests of emulation/advisor/candidate_space: parsing, the order of the settings by cost, and the
// policy clauses they become (read back by parse_policy).
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "emulation/advisor/candidate_space.hpp"

using namespace floatscope;
using namespace floatscope::emu;

TEST_CASE("candidate space: settings widest first, role lists multiply, one format is fixed", "[advisor]") {
    const CandidateSpace space = parse_candidate_space("fp8_e4m3, fp32, bf16; accumulate=fp32; compute=fp16,bf16");
    REQUIRE(space.unit.size() == 6);
    CHECK(space.unit[0].label == "fp32, compute=fp16");
    CHECK(space.unit[0].output_bits == 32);
    CHECK(space.unit[2].output_bits == 16);
    CHECK(space.unit[5].label == "fp8_e4m3, compute=bf16");
    CHECK(space.unit[5].output_bits == 8);
    REQUIRE(space.fixed_roles.size() == 1);
    CHECK(space.matmul == std::vector<std::string>{""});
    CHECK(space.weights == std::vector<std::string>{""});

    // The clauses give the unit its format, then the fixed role, then its own role.
    const PrecisionPolicy policy =
        parse_policy("fp32; " + candidate_clauses(space, space.unit[5], "layers 1"));
    CHECK(policy.at(Role::Output, 1, 3).format.name == "fp8_e4m3");
    CHECK(policy.at(Role::Accumulate, 1, 3).format.name == "fp32");
    CHECK(policy.at(Role::Compute, 1, 3).format.name == "bf16");
    CHECK(policy.at(Role::Output, 0, 3).format.name == "fp32");
}

TEST_CASE("candidate space: matmul presets and weight schemes, unquantized first, by bits per value", "[advisor]") {
    const CandidateSpace space = parse_candidate_space("fp32,bf16; matmul=nvidia_h100_fp8_e4m3; weights=nvfp4,int8,none");
    CHECK(space.matmul == std::vector<std::string>{"", "nvidia_h100_fp8_e4m3"});
    REQUIRE(space.weights == std::vector<std::string>{"", "int8", "nvfp4"});
    CHECK(space.weight_bits[1] > 8);  // int8 codes and a scale per row
    CHECK(space.weight_bits[2] == Approx(4.5));  // nvfp4: 4 bits and an e4m3 scale per 16
}

TEST_CASE("candidate space: what is refused", "[advisor]") {
    for (const char* bad : {"", "accumulate=fp32", "fp32,,bf16", "fp32,fp32", "fp32; bf16", "fp32; colour=red",
                            "fp32; matmul=no_such_preset", "fp32; weights=int99", "fp33"}) {
        INFO(bad);
        CHECK_THROWS_AS(parse_candidate_space(bad), Error);
    }
}
