// Tests of floatscope-cli list, run, sweep and merge as a process: reports, shards, exit codes.
#include <catch2/catch.hpp>

#include "tests/app/test_support.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "emulation/simulation/report.hpp"

namespace fs = std::filesystem;
using floatscope::emu::Report;
using floatscope::emu::ReportRow;
using floatscope::test::CliResult;
using floatscope::test::read_file;
using floatscope::test::run_cli;
using floatscope::test::TempDir;

namespace {

Report csv_report(const std::string& text) {
    std::istringstream in(text);
    return floatscope::emu::read_csv(in);
}

/// The value of one metric of one policy's region (NaN-free lookups fail the test when absent).
double metric(const Report& report, const std::string& policy, int region, const std::string& name,
              const std::string& run = "1") {
    for (const ReportRow& r : report.rows)
        if (r.run == run && r.policy == policy && r.region_index == region && r.region_kind != "run" &&
            r.metric == name)
            return r.value;
    FAIL("no row " << policy << " " << region << " " << name);
    return 0;
}

/// The rows with timings zeroed, and the creation time cleared: what two identical runs share.
Report untimed(Report r) {
    r.created.clear();
    for (ReportRow& row : r.rows)
        if (row.region_kind == "run") row.value = 0;
    return r;
}

}  // namespace

TEST_CASE("list shows the workloads, their parameters and the accumulation presets") {
    const CliResult r = run_cli({"list"});
    REQUIRE(r.exit_code == 0);
    for (const char* text :
         {"overflow-demo", "sum", "harmonic|uniform|normal", "steps", "nvidia_v100_fp16", "bf16_fp32"})
        CHECK(r.out.find(text) != std::string::npos);
    const CliResult one = run_cli({"list", "sum"});
    CHECK(one.exit_code == 0);
    CHECK(one.out.rfind("sum: ", 0) == 0);
    CHECK(run_cli({"list", "nope"}).exit_code == 2);
}

TEST_CASE("run overflow-demo: 10^4 x 10^4 overflows fp16 (max 65504), not fp32") {
    TempDir dir;
    const fs::path csv = dir.path() / "report.csv";
    const CliResult r = run_cli({"run", "overflow-demo", "--formats", "fp16,fp32", "--csv", csv.string()});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("normwise_rel_error") != std::string::npos);  // the summary table
    const Report report = csv_report(read_file(csv));
    REQUIRE(report.runs.size() == 1);
    CHECK(report.runs[0].workload == "overflow-demo");
    CHECK(report.runs[0].mpfr_precision == 256);
    REQUIRE(report.runs[0].policies.size() == 2);
    CHECK(report.runs[0].policies[0].first == "fp16");
    // Region 2 is p = a * b: 10^8 is beyond fp16's 65504 and exact in fp32 (10^8 = 390625 * 2^8).
    CHECK(metric(report, "fp16", 2, "overflow_count") == 1);
    CHECK(metric(report, "fp16", 2, "inf_count") == 1);
    CHECK(metric(report, "fp16", 3, "nan_count") == 1);  // p - p = inf - inf
    CHECK(metric(report, "fp32", 2, "overflow_count") == 0);
    CHECK(metric(report, "fp32", 2, "rel_error_max") == 0);
    CHECK(metric(report, "fp32", 2, "bits_correct_min") == 24);  // exact: all of binary32's 24 bits
    CHECK(metric(report, "fp32", 2, "normwise_bits_correct") == 24);
    CHECK(metric(report, "fp32", 2, "exact") == 1);
}

TEST_CASE("run: reports to stdout, JSON and CSV agree") {
    const CliResult csv = run_cli({"run", "overflow-demo", "--formats", "bf16", "--csv", "-", "--threads", "1"});
    const CliResult json = run_cli({"run", "overflow-demo", "--formats", "bf16", "--json", "-"});
    REQUIRE(csv.exit_code == 0);
    REQUIRE(json.exit_code == 0);
    std::istringstream json_text(json.out);
    CHECK(untimed(csv_report(csv.out)) == untimed(floatscope::emu::read_json(json_text)));
}

TEST_CASE("run: bad input exits 2 naming the valid choices, and writes no file") {
    TempDir dir;
    const std::string csv = (dir.path() / "report.csv").string();
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"run", "nope"}, "unknown workload 'nope'; valid: overflow-demo, sum"},
        {{"run", "sum", "--set", "terms=5"}, "unknown parameter 'terms'; valid: series"},
        {{"run", "sum", "--set", "n=0"}, "expected an integer in [1, 16777216]"},
        {{"run", "sum", "--set", "series=geometric"}, "expected one of harmonic, uniform, normal"},
        {{"run", "sum", "--policy", "fp16; compte=fp32"}, "unknown key 'compte'"},
        {{"run", "sum", "--formats", "fp18"}, "unknown format 'fp18'; did you mean"},
        {{"run", "sum", "--mpfr-precision", "8"}, "--mpfr-precision: '8' is not a whole number in 53..65536"},
        {{"sweep", "sum", "--grid", "n=10,0"}, "expected an integer in [1, 16777216]"},
        {{"sweep", "sum", "--grid", "n"}, "--grid 'n': write name=value1,value2"},
        {{"sweep", "sum", "--grid", "n=1", "--set", "n=2"}, "'n' is both in --set and in --grid"},
        {{"sweep", "sum", "--shard", "3/3"}, "--shard '3/3': write i/N with 0 <= i < N"},
        {{"sweep", "sum", "--shard", "x"}, "--shard 'x'"},
    };
    for (const auto& [arguments, message] : cases) {
        std::vector<std::string> with_file = arguments;
        with_file.insert(with_file.end(), {"--csv", csv});
        const CliResult r = run_cli(with_file);
        INFO(r.err);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find(message) != std::string::npos);
        CHECK(r.out.empty());
        CHECK_FALSE(fs::exists(csv));
    }
    const CliResult merge = run_cli({"merge", (dir.path() / "missing.csv").string()});
    CHECK(merge.exit_code == 2);
    CHECK(merge.err.find("cannot read report") != std::string::npos);
}

TEST_CASE("sweep: grid order, run ids, and shards that merge back to the whole sweep") {
    TempDir dir;
    const std::vector<std::string> sweep = {"sweep",    "sum",    "--formats",          "fp16,bf16", "--grid",
                                            "n=10,100", "--grid", "method=naive,kahan", "--threads", "2"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = sweep;
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    const fs::path all = dir.path() / "all.csv";
    REQUIRE(run_cli(with({"--csv", all.string()})).exit_code == 0);
    const Report whole = csv_report(read_file(all));
    REQUIRE(whole.runs.size() == 4);
    // The first --grid varies slowest: run 2 is n=10 with kahan.
    for (const auto& [name, value] : whole.runs[1].parameters) {
        if (name == "n") CHECK(value == "10");
        if (name == "method") CHECK(value == "kahan");
    }
    CHECK(whole.runs[3].run == "4");

    std::vector<std::string> shard_files;
    for (int i = 0; i < 3; ++i) {
        // Shards in both formats: merge reads each by its content.
        const fs::path file = dir.path() / ("shard" + std::to_string(i) + (i == 1 ? ".json" : ".csv"));
        const CliResult r =
            run_cli(with({"--shard", std::to_string(i) + "/3", i == 1 ? "--json" : "--csv", file.string()}));
        REQUIRE(r.exit_code == 0);
        shard_files.push_back(file.string());
    }
    std::vector<std::string> merge = {"merge"};
    merge.insert(merge.end(), shard_files.rbegin(), shard_files.rend());
    const CliResult merged = run_cli(merge);
    REQUIRE(merged.exit_code == 0);
    CHECK(untimed(csv_report(merged.out)) == untimed(whole));

    // A shard missing (its job failed): merge names it and writes nothing, unless told to go on.
    const fs::path partial = dir.path() / "partial.csv";
    const CliResult refused = run_cli({"merge", shard_files[0], shard_files[2], "--csv", partial.string()});
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.err, Catch::Contains("missing shard 1 of 3"));
    CHECK_FALSE(fs::exists(partial));
    const CliResult allowed =
        run_cli({"merge", shard_files[0], shard_files[2], "--allow-missing", "--csv", partial.string()});
    REQUIRE(allowed.exit_code == 0);
    const Report partial_report = csv_report(read_file(partial));
    CHECK(partial_report.missing_shards == "1");
    CHECK(partial_report.runs.size() == 3);  // runs 1 and 4 (points 0 and 3) of shard 0, run 3 of shard 2
    CHECK(run_cli({"merge", shard_files[0], shard_files[0], shard_files[1], shard_files[2]}).exit_code == 2);
}

TEST_CASE("sweep --resume: checkpoints into its report and continues a killed sweep where it stopped") {
    TempDir dir;
    const std::vector<std::string> sweep = {"sweep",         "sum",    "--formats",          "fp16",      "--grid",
                                            "n=10,100,1000", "--grid", "method=naive,kahan", "--threads", "2"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = sweep;
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    const fs::path whole_file = dir.path() / "whole.csv";
    REQUIRE(run_cli(with({"--csv", whole_file.string()})).exit_code == 0);
    const Report whole = csv_report(read_file(whole_file));

    // A sweep killed after its first three grid points left a report of those runs.
    const fs::path checkpoint = dir.path() / "checkpoint.csv";
    REQUIRE(run_cli(with({"--resume", checkpoint.string()})).exit_code == 0);
    Report partial = csv_report(read_file(checkpoint));
    CHECK(untimed(partial) == untimed(whole));  // a fresh --resume sweep is the sweep
    std::erase_if(partial.runs, [](const floatscope::emu::RunInfo& r) { return std::stoi(r.run) > 3; });
    std::erase_if(partial.rows, [](const ReportRow& r) { return std::stoi(r.run) > 3; });
    for (ReportRow& row : partial.rows)
        if (row.metric == "seconds") row.value = 1234.5;  // a mark: these runs must not run again
    std::ostringstream text;
    floatscope::emu::write_csv(partial, text);
    const fs::path killed = dir.write("killed.csv", text.str());

    REQUIRE(run_cli(with({"--resume", killed.string()})).exit_code == 0);
    const Report resumed = csv_report(read_file(killed));
    CHECK(untimed(resumed) == untimed(whole));
    int marked = 0;
    for (const ReportRow& row : resumed.rows) marked += row.metric == "seconds" && row.value == 1234.5;
    CHECK(marked == 3);  // runs 1..3, one policy each, kept as they were

    // Another sweep's report is not continued, and stays as it was.
    const std::string before = read_file(killed);
    std::vector<std::string> other = sweep;
    other[3] = "bf16";
    other.insert(other.end(), {"--resume", killed.string()});
    const CliResult refused = run_cli(other);
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.err, Catch::Contains("is not this sweep's grid point"));
    CHECK(read_file(killed) == before);
}
