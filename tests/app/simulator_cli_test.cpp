// Tests of floatscope-cli list, run, sweep and merge as a process: reports, shards, exit codes.
#include <catch2/catch.hpp>

#include "tests/app/test_support.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
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

TEST_CASE("run: the summary says the truth's precision, raised for a binary256 residual") {
    CHECK_THAT(run_cli({"run", "sum", "--formats", "fp16"}).out, Catch::EndsWith("ground truth: MPFR at 256 bits\n"));
    // binary256: p = 237 (IEEE 754-2019 Table 3.5), so 2p + 30 = 504 bits.
    const CliResult wide = run_cli({"run", "iterative-refinement", "--set", "n=8", "--policy",
                                    "fp64; compute=fp16; accumulate=binary256"});
    REQUIRE(wide.exit_code == 0);
    CHECK_THAT(wide.out, Catch::EndsWith("ground truth: MPFR at 504 bits\n"));
    const CliResult asked = run_cli({"run", "sum", "--formats", "fp16", "--mpfr-precision", "80"});
    CHECK_THAT(asked.out, Catch::EndsWith("ground truth: MPFR at 80 bits\n"));
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

TEST_CASE("run: each refinement's ending is said against its limiting accuracy, and no bound is exceeded in silence") {
    // The Stories' refinement: fp16 factors, fp32 storage, fp64 residuals, kappa = 100. The forward
    // error where the corrections stop is about 4 u_fp32 = 2.4e-7, above the estimate u + 4 n u_r
    // kappa = 5.96e-8; the summary says so, and which test ended it.
    const CliResult r = run_cli({"run", "iterative-refinement", "--set", "n=50", "--set", "kappa=100", "--policy",
                                 "name=fp16 LU; fp32; compute=fp16; accumulate=fp64"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("ENDED: fp16 LU: at x_4 (the correction test): forward error 2.5e-07, 4.2x its limiting "
                     "accuracy 6e-08 (an estimate)") != std::string::npos);
    const CliResult residual =
        run_cli({"run", "iterative-refinement", "--set", "n=50", "--set", "kappa=100", "--set", "stop=residual",
                 "--policy", "name=fp16 LU; fp32; compute=fp16; accumulate=fp64"});
    CHECK(residual.out.find("ENDED: fp16 LU: at x_2 (the residual test): forward error 3e-06, 51x") !=
          std::string::npos);
    // The sum's bounds hold: no ABOVE BOUND line.
    const CliResult sum = run_cli({"run", "sum", "--formats", "fp16,bf16"});
    REQUIRE(sum.exit_code == 0);
    CHECK(sum.out.find("ABOVE BOUND") == std::string::npos);
}

TEST_CASE("run: a policy with NaN or infinite results where the truth is finite is said to have failed") {
    // 10^4 x 10^4 = 10^8 is infinite in fp16, and the NaN of p - p flows through the 6 regions
    // after it; fp32 holds it.
    const CliResult r = run_cli({"run", "overflow-demo", "--formats", "fp16,fp32"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("FAILED: fp16: NaN or infinite results where the truth is finite in 6 regions (first: p = "
                     "10000 * 10000)") != std::string::npos);
    CHECK(r.out.find("FAILED: fp32") == std::string::npos);
    // An FP8 GEMM whose sums pass e4m3's 448 comes out NaN: failed, even though k = 16 is fine.
    const CliResult gemm = run_cli({"run", "gemm", "--set", "m=2", "--set", "n=2", "--set", "k=16,4096", "--policy",
                                    "fp8_e4m3; matmul = nvidia_h100_fp8_e4m3"});
    REQUIRE(gemm.exit_code == 0);
    CHECK(gemm.out.find("FAILED: fp8_e4m3; matmul = nvidia_h100_fp8_e4m3: NaN or infinite results where the truth "
                        "is finite in 1 region (first: k = 4096)") != std::string::npos);
}

TEST_CASE("run: reports to stdout, JSON and CSV agree") {
    const CliResult csv = run_cli({"run", "overflow-demo", "--formats", "bf16", "--csv", "-", "--threads", "1"});
    const CliResult json = run_cli({"run", "overflow-demo", "--formats", "bf16", "--json", "-"});
    REQUIRE(csv.exit_code == 0);
    REQUIRE(json.exit_code == 0);
    std::istringstream json_text(json.out);
    CHECK(untimed(csv_report(csv.out)) == untimed(floatscope::emu::read_json(json_text)));
}

TEST_CASE("run: reports go into devices, links and this process's stdout without replacing them") {
    // Device nodes of the test's own (mknod needs root, as CI runs), never the system's /dev.
    TempDir dir;
    const fs::path null = dir.path() / "null", full = dir.path() / "full";
    REQUIRE(::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
    REQUIRE(::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0);
    fs::create_directory(dir.path() / "kept");
    fs::create_symlink("kept/report.json", dir.path() / "latest.json");

    const CliResult r = run_cli({"run", "overflow-demo", "--formats", "bf16", "--csv", null.string(), "--json",
                                 (dir.path() / "latest.json").string()});
    REQUIRE(r.exit_code == 0);
    CHECK(fs::is_character_file(fs::symlink_status(null)));
    CHECK(fs::is_symlink(fs::symlink_status(dir.path() / "latest.json")));
    std::istringstream json(read_file(dir.path() / "kept" / "report.json"));
    CHECK(floatscope::emu::read_json(json).runs.size() == 1);

    const CliResult no_space = run_cli({"run", "overflow-demo", "--formats", "bf16", "--csv", full.string()});
    CHECK(no_space.exit_code == 2);
    CHECK(no_space.err.find("No space left on device") != std::string::npos);
    CHECK(fs::is_character_file(fs::symlink_status(full)));

    // /dev/fd/1 is this process's stdout (here a file the test reads): the report follows the summary.
    const CliResult to_stdout = run_cli({"run", "overflow-demo", "--formats", "bf16", "--csv", "/dev/fd/1"});
    REQUIRE(to_stdout.exit_code == 0);
    const std::size_t summary = to_stdout.out.find("normwise_rel_error"),
                      header = to_stdout.out.find("run,workload,policy");
    CHECK(summary != std::string::npos);
    CHECK(header != std::string::npos);
    CHECK(std::set<std::string>{"full", "kept", "latest.json", "null"} == [&] {
        std::set<std::string> names;
        for (const auto& entry : fs::directory_iterator(dir.path())) names.insert(entry.path().filename().string());
        return names;
    }());
}

TEST_CASE("output that stdout cannot take exits 2 with the reason, never 0 with a truncated report") {
    TempDir dir;
    const fs::path full = dir.path() / "full", err = dir.path() / "stderr";
    REQUIRE(::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0);  // Linux's full device, our own node
    for (const std::string arguments : {"formats", "run overflow-demo --formats bf16 --csv -"}) {
        INFO(arguments);
        const std::string command = floatscope::test::shell_quote(FLOATSCOPE_CLI) + " " + arguments + " > " +
                                    full.string() + " 2> " + err.string();
        const int status = std::system(command.c_str());
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 2);
        CHECK(read_file(err).find("cannot write the output: No space left on device") != std::string::npos);
    }
}

namespace {

/// The hidden temporaries of `target` in its folder (".report.csv.tmp-PID-RANDOM").
std::vector<fs::path> temporaries_of(const fs::path& target) {
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(target.parent_path()))
        if (entry.path().filename().string().rfind("." + target.filename().string() + ".tmp-", 0) == 0)
            found.push_back(entry.path());
    return found;
}

/// A sweep long enough to be stopped, writing its report to `csv`, as a child process.
pid_t start_long_sweep(const fs::path& csv) {
    std::string seeds = "seed=1";
    for (int s = 2; s <= 20000; ++s) seeds += "," + std::to_string(s);
    std::vector<std::string> words = {FLOATSCOPE_CLI, "sweep", "sum",       "--formats", "fp16",  "--set",     "n=2000",
                                      "--grid",       seeds,   "--threads", "1",         "--csv", csv.string()};
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::signal(SIGINT, SIG_DFL);  // as an interactive shell leaves them
        std::signal(SIGTERM, SIG_DFL);
        std::signal(SIGHUP, SIG_DFL);
        if (std::freopen("/dev/null", "w", stdout) == nullptr) std::_Exit(127);
        ::execv(argv[0], argv.data());
        std::_Exit(127);
    }
    return pid;
}

/// Waits (at most 60 s) until `csv`'s temporary exists.
bool temporary_appears(const fs::path& csv) {
    for (int i = 0; i < 600; ++i) {
        if (!temporaries_of(csv).empty()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

}  // namespace

TEST_CASE(
    "a stopped sweep leaves no temporary: removed on SIGTERM, SIGINT, SIGHUP, and after SIGKILL by the next run") {
    TempDir dir;
    const fs::path csv = dir.path() / "s.csv";
    for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
        INFO("signal " << signal_number);
        const pid_t pid = start_long_sweep(csv);
        REQUIRE(pid > 0);
        REQUIRE(temporary_appears(csv));
        ::kill(pid, signal_number);
        int status = 0;
        REQUIRE(::waitpid(pid, &status, 0) == pid);
        CHECK(WIFSIGNALED(status));  // ended by the signal, as a shell and a scheduler expect
        CHECK(WTERMSIG(status) == signal_number);
        CHECK(temporaries_of(csv).empty());
        CHECK(!fs::exists(csv));
    }
    // SIGKILL cannot be caught: its temporary stays until the next run writing s.csv removes it.
    const pid_t pid = start_long_sweep(csv);
    REQUIRE(temporary_appears(csv));
    ::kill(pid, SIGKILL);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    const std::vector<fs::path> stale = temporaries_of(csv);
    REQUIRE(stale.size() == 1);
    const CliResult next = run_cli({"sweep", "sum", "--formats", "fp16", "--grid", "n=10,20", "--csv", csv.string()});
    REQUIRE(next.exit_code == 0);
    CHECK(temporaries_of(csv).empty());
    CHECK(fs::exists(csv));
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
        {{"sweep", "sum", "--grid", "n=1", "--set", "n=2"}, "'n' is both a fixed parameter and a grid axis"},
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
    CHECK_THAT(refused.err, Catch::Contains("policies [fp16]") && Catch::Contains("policies [bf16]") &&
                                Catch::Contains("resume it with the same workload, grid and policies"));
    CHECK(read_file(killed) == before);
}

TEST_CASE("sweep --resume: a CSV report grows in place by batches, and a kill's half batch is cut back") {
    TempDir dir;
    const std::vector<std::string> sweep = {"sweep",         "sum",    "--formats",          "fp16",      "--grid",
                                            "n=10,100,1000", "--grid", "method=naive,kahan", "--threads", "2"};
    auto with = [&](const fs::path& file) {
        std::vector<std::string> a = sweep;
        a.insert(a.end(), {"--resume", file.string()});
        return a;
    };
    const fs::path whole_file = dir.path() / "whole.csv";
    std::vector<std::string> plain = sweep;
    plain.insert(plain.end(), {"--csv", whole_file.string()});
    REQUIRE(run_cli(plain).exit_code == 0);
    const Report whole = untimed(csv_report(read_file(whole_file)));

    const fs::path file = dir.path() / "grown.csv";
    REQUIRE(run_cli(with(file)).exit_code == 0);
    const std::string full = read_file(file);
    CHECK(untimed(csv_report(full)) == whole);
    // Where each checkpoint row ends: the new report's (no rows), then one per batch of two points.
    std::vector<std::size_t> ends;
    const std::string mark = "\n,,,meta,0,,checkpoint,";
    for (auto at = full.find(mark); at != std::string::npos; at = full.find(mark, at + 1))
        ends.push_back(full.find('\n', at + 1) + 1);
    REQUIRE(ends.size() == 4);

    auto inode = [](const fs::path& p) {
        struct stat s {};
        REQUIRE(::stat(p.c_str(), &s) == 0);
        return s.st_ino;
    };
    // Killed inside a row of the third batch, after the third checkpoint (before its end_of_report
    // row) and inside the first batch: each resumes to the whole sweep, the batches before kept as
    // they were and the file appended to, not replaced.
    for (const std::size_t cut : {ends[2] + (ends[3] - ends[2]) / 2, ends[3], ends[0] + 5}) {
        CAPTURE(cut);
        std::ofstream(file, std::ios::binary | std::ios::trunc) << full.substr(0, cut);
        const auto before = inode(file);
        REQUIRE(run_cli(with(file)).exit_code == 0);
        const std::string resumed = read_file(file);
        CHECK(inode(file) == before);
        const std::size_t kept = *std::prev(std::upper_bound(ends.begin(), ends.end(), cut));
        CHECK(resumed.compare(0, kept, full, 0, kept) == 0);
        CHECK(untimed(csv_report(resumed)) == whole);
    }
}

TEST_CASE("sweep: a grid too large for the memory limit is refused before it is built") {
    std::string values;
    for (int i = 1; i <= 1000; ++i) {
        if (!values.empty()) values += ',';
        values += std::to_string(i);
    }
    // 10^6 grid points: built whole, their requests would take gigabytes and minutes.
    const CliResult refused = run_cli({"sweep", "sum", "--formats", "fp16", "--grid", "n=" + values, "--grid",
                                       "seed=" + values, "--memory-limit", "64M", "--csv", "-"},
                                      "", {{}, 60});
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.err,
               Catch::Contains("a sweep of 1000000 grid points") && Catch::Contains("the limit is 64 MiB"));
    CHECK(refused.out.empty());
}

TEST_CASE("fp64 policies run gemm, mlp-forward and three-precision refinement, formats a workload cannot take exit 2") {
    // fp64 inputs were refused ("input formats may have at most 26 significant bits").
    const CliResult gemm = run_cli({"run", "gemm", "--formats", "fp64", "--set", "k=16,64", "--csv", "-"});
    REQUIRE(gemm.exit_code == 0);
    const Report report = csv_report(gemm.out);
    // Sequential fp64 sums of 16 and 64 products in [0, 1): within gamma_k of the MPFR truth.
    CHECK(metric(report, "fp64", 1, "normwise_rel_error") < 64 * std::ldexp(1.0, -53));
    CHECK(metric(report, "fp64", 1, "normwise_rel_error") > 0);
    const CliResult mlp = run_cli({"run", "mlp-forward", "--policy", "fp64; accumulate=fp32", "--set", "depth=2",
                                   "--set", "width=32", "--set", "batch=4"});
    CHECK(mlp.exit_code == 0);
    const CliResult three =
        run_cli({"run", "iterative-refinement", "--policy", "fp64; compute=fp16; accumulate=binary128", "--set", "n=20",
                 "--set", "stop=none", "--set", "max-iterations=30", "--csv", "-"});
    REQUIRE(three.exit_code == 0);
    CHECK(metric(csv_report(three.out), "fp64; compute=fp16; accumulate=binary128", 30, "forward_error") <
          10 * std::ldexp(1.0, -53));

    for (const std::vector<std::string>& refused :
         {std::vector<std::string>{"run", "gemm", "--policy", "fp64; accumulate=nf4"},
          {"run", "gemm", "--policy", "binary128; accumulate=fp32"},  // fp32 does not hold binary128's operands
          {"run", "iterative-refinement", "--policy", "binary128; accumulate=fp64"},
          {"run", "mlp-forward", "--policy", "binary128; accumulate=fp32"}}) {
        const CliResult r = run_cli(refused);
        INFO(refused[1] << " " << refused[3] << ": " << r.err);
        CHECK(r.exit_code == 2);
        CHECK((r.err.find("nf4") != std::string::npos || r.err.find("binary128") != std::string::npos));
    }
}
