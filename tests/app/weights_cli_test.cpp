// `run weights` and `weights-info` as processes on the NumPy writer's checkpoints; a lying file exits 2.
#include <catch2/catch.hpp>

#include <string>

#include "tests/app/test_support.hpp"

namespace {

using Catch::Contains;
using floatscope::test::run_cli;

const std::string folder = FLOATSCOPE_CHECKPOINTS;

}  // namespace

TEST_CASE("weights-info: tensors, dtypes, shapes and GGUF metadata", "[weights]") {
    const auto r = run_cli({"weights-info", folder + "/blocks.gguf"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("(gguf, 1 file): 9 tensors, 1728 parameters"));
    CHECK_THAT(r.out, Contains("blk.q4_0.weight") && Contains("Q4_0") && Contains("[4, 64]"));
    CHECK_THAT(r.out, Contains("general.architecture") && Contains("llama"));
    const auto sharded = run_cli({"weights-info", folder + "/sharded"});
    REQUIRE(sharded.exit_code == 0);
    CHECK_THAT(sharded.out, Contains("(safetensors, 2 files): 4 tensors, 104 parameters"));
}

TEST_CASE("run weights: the tidy report, and exit 2 for a lying checkpoint", "[weights]") {
    // Without --formats or --policy it runs once, under fp32: the schemes are the comparison.
    const auto r = run_cli(
        {"run", "weights", "--set", "model=" + folder + "/sharded", "--set", "schemes=int8,mxfp4", "--csv", "-"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("weights,fp32,tensor,0,layers.0.weight [int8],sqnr_db,") ||
                          Contains("weights,fp32,tensor,0,embed.weight [int8],sqnr_db,"));
    CHECK_THAT(r.out, Contains("weights,fp32,model,3,bf16,model_bytes,208"));
    CHECK_THAT(r.out, !Contains(",bf16,tensor,"));
    const floatscope::test::TempDir dir;
    const std::string lie = dir.write("lie.safetensors", std::string("\x10\0\0\0\0\0\0\0{}", 10)).string();
    const auto bad = run_cli({"run", "weights", "--formats", "fp32", "--set", "model=" + lie});
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Contains("header length 16 runs past the end of the file (10 bytes)"));
    const auto info = run_cli({"weights-info", lie});
    CHECK(info.exit_code == 2);
}
