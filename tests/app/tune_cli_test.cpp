// Tests of `floatscope-cli tune`: bad requests refused before any run, a target nothing meets,
// and the report whose recommendation `run --policy` takes as it is.
#include <catch2/catch.hpp>

#include <sstream>

#include "emulation/simulation/report.hpp"
#include "tests/app/test_support.hpp"

using namespace floatscope;
using namespace floatscope::test;

namespace {

const std::vector<std::string> small = {"tune", "mlp-forward", "--set", "depth=3", "--set", "width=8", "--set",
                                        "batch=4", "--threads", "2"};

std::vector<std::string> with(std::vector<std::string> arguments) {
    std::vector<std::string> all = small;
    all.insert(all.end(), arguments.begin(), arguments.end());
    return all;
}

}  // namespace

TEST_CASE("tune: bad requests exit 2 with a message, before any run", "[cli][advisor]") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--target", "normwise_rel_error<1e-3", "--candidates", "fp32,bf16"}, "no single <= or >="},
        {{"--target", "normwise_rel_error<=1e-3", "--candidates", "fp32,,bf16"}, "empty entry"},
        {{"--target", "normwise_rel_error<=1e-3", "--candidates", "fp32,bf16", "--unit", "node"}, "has no unit 'node'"},
        {{"--target", "normwise_rel_error<=1e-3", "--candidates", "fp32,bf16; weights=int8"}, "need a graph workload"},
        {{"--target", "normwise_rel_error<=1e-3", "--candidates", "fp32,bf16", "--cost", "time"}, "needs --hardware"},
        {{"--target", "normwise_rel_error<=1e-3", "--candidates", "fp32,bf16", "--cost", "money"}, "unknown cost"},
        {{"--target", "normwise_rel_error<=1e-3", "--candidates", "fp32,bf16", "--validate-set", "colour=red"}, "colour"},
    };
    for (const auto& [arguments, message] : cases) {
        const CliResult r = run_cli(with(arguments));
        INFO(r.err);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find(message) != std::string::npos);
        CHECK(r.out.empty());
    }
}

TEST_CASE("tune: a target not even the reference meets exits 1 and says so", "[cli][advisor]") {
    const CliResult r = run_cli(with({"--target", "normwise_rel_error<=1e-30", "--candidates", "fp32,bf16"}));
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("no configuration meets the target") != std::string::npos);
}

TEST_CASE("tune: the report's recommendation runs under `run` as it is", "[cli][advisor]") {
    TempDir dir;
    const std::string csv = (dir.path() / "tune.csv").string();
    const CliResult r = run_cli(with({"--target", "normwise_rel_error<=2e-2", "--candidates", "fp32,bf16,fp16,fp8_e4m3",
                                      "--validate-seed", "7", "--csv", csv}));
    REQUIRE(r.exit_code == 0);
    std::istringstream text(read_file(csv));
    const emu::Report report = emu::read_csv(text);
    std::string recommended;
    int candidates = 0, validated = 0;
    for (const emu::ReportRow& row : report.rows) {
        candidates += row.region_kind == "candidate" && row.metric == "tune_cost";
        validated += row.metric == "tune_validation_error";
        if (row.metric == "tune_recommended" && row.value == 1) recommended = row.policy;
    }
    CHECK(candidates > 10);
    CHECK(validated == 2);  // the reference and the recommendation
    REQUIRE_FALSE(recommended.empty());
    std::string policy;
    for (const auto& [name, text] : report.runs.at(0).policies)
        if (name == recommended) policy = text;
    INFO(policy);
    CHECK(policy != "fp32");
    const CliResult again = run_cli({"run", "mlp-forward", "--set", "depth=3", "--set", "width=8", "--set", "batch=4",
                                     "--policy", policy});
    CHECK(again.exit_code == 0);
}
