// Tests of `floatscope-cli fpcore` as a process: the table, the tidy CSV report, given inputs,
// and the exit codes of syntax errors and of --check-coverage.
#include <catch2/catch.hpp>

#include "tests/app/test_support.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using floatscope::test::run_cli;
using floatscope::test::TempDir;
using Result = floatscope::test::CliResult;

const std::string accuracy = FLOATSCOPE_TEST_DATA "/fpcore/accuracy.fpcore";

}  // namespace

TEST_CASE("fpcore prints a table and writes the same tidy CSV as run") {
    TempDir dir;
    const fs::path csv = dir.path() / "report.csv";
    const Result r = run_cli({"fpcore", accuracy, "--formats", "fp32,bf16", "--samples", "32", "--csv", csv.string()});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("benchmark") && Catch::Contains("bits_avg") && Catch::Contains("exact identity"));
    CHECK_THAT(r.out, Catch::Contains("5 of 5 FPCores evaluated under every format (100.0%)"));
    const std::string text = floatscope::test::read_file(csv);
    CHECK(text.rfind("run,workload,policy,region_kind,region_index,region,metric,value\n", 0) == 0);
    CHECK_THAT(text, Catch::Contains("1,difference of square roots,bf16,output,0,result,bits_error_avg,"));
    CHECK_THAT(text, Catch::Contains("1,harmonic sum,fp32,iteration,0,"));
}

TEST_CASE("fpcore evaluates given inputs") {
    const Result r = run_cli({"fpcore", accuracy, "--formats", "fp64", "--input", "x=4", "--input", "x=0x1p-3"});
    // The benchmarks of x run on the two points; the others say why they cannot, and the exit status
    // says that something did not evaluate (--check-coverage states how much may not).
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("names 'x', not an argument (arguments: a, b, c)"));
    CHECK_THAT(r.out, Catch::Contains("3 of 5 FPCores evaluated under every format"));
}

TEST_CASE("fpcore exits 2 on a syntax error, naming line and column") {
    TempDir dir;
    const fs::path bad = dir.write("bad.fpcore", "(FPCore (x)\n  (+ x (frob x)))\n");
    const Result r = run_cli({"fpcore", bad.string()});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("bad.fpcore:2:8: unknown operation 'frob'"));
    CHECK(r.out.empty());
}

TEST_CASE("fpcore --check-coverage fails below the fraction") {
    TempDir dir;
    const fs::path file =
        dir.write("loop.fpcore", "(FPCore (x) :pre (<= 0 x 1) (while TRUE ([x x (+ x 1)]) x))\n(FPCore (x) (* x 2))\n");
    const Result low = run_cli({"fpcore", file.string(), "--formats", "fp16", "--samples", "4", "--max-iterations",
                                "50", "--check-coverage", "0.9"});
    CHECK(low.exit_code == 1);
    CHECK_THAT(low.out, Catch::Contains("1 of 2 FPCores evaluated under every format (50.0%)"));
    CHECK_THAT(low.err, Catch::Contains("coverage 0.500 is below --check-coverage 0.900"));
    const Result ok = run_cli({"fpcore", file.string(), "--formats", "fp16", "--samples", "4", "--max-iterations", "50",
                               "--check-coverage", "0.5"});
    CHECK(ok.exit_code == 0);
}

TEST_CASE("fpcore over a corpus: a file that does not parse is reported in its row and the rest runs") {
    TempDir dir;
    const fs::path good = dir.write("good.fpcore", "(FPCore (x) :name \"double\" (* x 2))\n");
    const fs::path bad = dir.write("bad.fpcore", "(FPCore (x)\n  (+ x (frob x)))\n");
    const fs::path csv = dir.path() / "report.csv";
    const Result r = run_cli(
        {"fpcore", bad.string(), good.string(), "--formats", "fp32,bf16", "--samples", "8", "--csv", csv.string()});
    CHECK(r.exit_code == 1);  // something failed
    CHECK_THAT(r.out, Catch::Contains("double") && Catch::Contains("bad.fpcore:2:8: unknown operation 'frob'"));
    CHECK_THAT(r.out,
               Catch::Contains("1 of 2 FPCores evaluated under every format (50.0%); 1 file(s) could not be read"));
    CHECK_THAT(r.err, Catch::Contains("(file skipped)"));
    const std::string report = floatscope::test::read_file(csv);
    CHECK_THAT(report, Catch::Contains(bad.string() + ",fp32,run,0,") && Catch::Contains(",error,1"));
    // The same run passes a coverage check it meets: the check decides the status, as before.
    CHECK(run_cli({"fpcore", bad.string(), good.string(), "--samples", "8", "--check-coverage", "0.5"}).exit_code == 0);
}

TEST_CASE("fpcore measures a large file against the memory limit before it parses it") {
    TempDir dir;
    std::string terms;
    for (int i = 0; i < 100'000; ++i) terms += " (+ x 1)";
    const std::string file = dir.write("large.fpcore", "(FPCore (x) (+" + terms + "))").string();
    // 800 KB of text: about 96 MB of tree and program, past a 64 MiB limit.
    const Result refused = run_cli({"fpcore", file, "--samples", "1", "--formats", "fp32", "--memory-limit", "64M"});
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.err,
               Catch::Contains("(800016 bytes of FPCore) needs") && Catch::Contains("the limit is 64 MiB"));
}
