// Tests of the TestFloat runner: the bundled vectors pass in full, corrupted cases fail, bad files throw.
#include <catch2/catch.hpp>

#include "tests/temp_dir.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "core/error.hpp"
#include "emulation/conformance/testfloat_operations.hpp"
#include "emulation/conformance/testfloat_runner.hpp"

namespace fs = std::filesystem;
using floatscope::Error;
using floatscope::core::RoundingMode;
using namespace floatscope::emu;

namespace {

const fs::path vectors = fs::path(FLOATSCOPE_TEST_DATA) / "testfloat";

using floatscope::test::TempDir;

/// Every mode of one function; line counts are those of TestFloat level 1 (README.md).
void check_every_mode(const std::string& function, std::size_t lines) {
    for (const char* mode : {"rne", "rtz", "rdn", "rup", "rna"}) {
        const fs::path file = vectors / (function + "." + mode + ".tv.gz");
        INFO(file.string());
        const TestFloatSummary summary = run_testfloat_file(file.string());
        for (const std::string& failure : summary.failures) UNSCOPED_INFO(failure);
        CHECK(summary.operation == function);
        CHECK(summary.failed == 0);
        CHECK(summary.passed == lines);
    }
}

// Lines of f32_to_f16.rne.tv.gz: exact, inexact, underflowing, overflowing, signaling NaN.
const std::string good_lines =
    "3E000000 3000 00\n"
    "3C072C85 2039 01\n"
    "8683F7FF 8000 03\n"
    "4F951295 7C00 05\n"
    "7F800001 7E00 10\n";

}  // namespace

TEST_CASE("f32_to_f16 vectors pass in every mode", "[testfloat]") { check_every_mode("f32_to_f16", 600); }
TEST_CASE("f64_to_f16 vectors pass in every mode", "[testfloat]") { check_every_mode("f64_to_f16", 768); }
TEST_CASE("f64_to_f32 vectors pass in every mode", "[testfloat]") { check_every_mode("f64_to_f32", 768); }
TEST_CASE("f16_to_f32 vectors pass in every mode", "[testfloat]") { check_every_mode("f16_to_f32", 408); }
TEST_CASE("f32_to_bf16 vectors pass in every mode", "[testfloat]") { check_every_mode("f32_to_bf16", 600); }
TEST_CASE("bf16_to_f32 vectors pass in every mode", "[testfloat]") { check_every_mode("bf16_to_f32", 600); }

TEST_CASE("file names give the operation and the rounding mode", "[testfloat]") {
    const TestFloatFileName gz = parse_testfloat_file_name("some/dir/f64_to_f16.rup.tv.gz");
    CHECK(gz.operation == "f64_to_f16");
    CHECK(gz.mode == RoundingMode::Upward);
    const TestFloatFileName plain = parse_testfloat_file_name("bf16_to_f32.rna.tv");
    CHECK(plain.operation == "bf16_to_f32");
    CHECK(plain.mode == RoundingMode::NearestAway);
    CHECK_THROWS_AS(parse_testfloat_file_name("f32_to_f16.tv.gz"), Error);
    CHECK_THROWS_AS(parse_testfloat_file_name("f32_to_f16.rne.txt"), Error);
    CHECK_THROWS_WITH(parse_testfloat_file_name("f32_to_f16.rxx.tv"), Catch::Contains("rxx"));
    CHECK_THROWS_WITH(parse_testfloat_file_name("f32_to_f16.sr.tv"), Catch::Contains("cannot be checked"));
}

TEST_CASE("plain text files and explicit operation and mode", "[testfloat]") {
    TempDir dir;
    const TestFloatSummary from_name = run_testfloat_file(dir.write("f32_to_f16.rne.tv", good_lines).string());
    CHECK(from_name.passed == 5);
    CHECK(from_name.failed == 0);

    const fs::path unnamed = dir.write("cases.txt", good_lines);
    CHECK_THROWS_WITH(run_testfloat_file(unnamed.string()), Catch::Contains("cases.txt"));
    TestFloatOptions options;
    options.operation = "f32_to_f16";
    options.mode = RoundingMode::NearestEven;
    const TestFloatSummary explicit_choice = run_testfloat_file(unnamed.string(), options);
    CHECK(explicit_choice.passed == 5);
    CHECK(explicit_choice.failed == 0);

    // Under round-toward-zero the overflow stops at 7BFF: that line fails, the others agree.
    options.mode = RoundingMode::TowardZero;
    const TestFloatSummary other_mode = run_testfloat_file(unnamed.string(), options);
    CHECK(other_mode.passed == 4);
    CHECK(other_mode.failed == 1);
}

TEST_CASE("corrupted cases are counted as failures and described", "[testfloat]") {
    TempDir dir;
    const std::string corrupted = good_lines +
                                  "3C072C85 2038 01\n"  // result off by one ulp
                                  "3C072C85 2039 00\n"  // inexact flag missing
                                  "\n"  // blank lines carry no case
                                  "7F800001 7C00 10\n";  // infinity where a NaN is due
    const fs::path file = dir.write("f32_to_f16.rne.tv", corrupted);
    const TestFloatSummary summary = run_testfloat_file(file.string());
    CHECK(summary.passed == 5);
    CHECK(summary.failed == 3);
    REQUIRE(summary.failures.size() == 3);
    CHECK_THAT(summary.failures[0], Catch::Contains(":6:") && Catch::Contains("= 2039 01, expected 2038 01"));
    CHECK_THAT(summary.failures[1], Catch::Contains(":7:") && Catch::Contains("expected 2039 00"));
    CHECK_THAT(summary.failures[2], Catch::Contains(":9:") && Catch::Contains("f32_to_f16(7F800001)"));

    TestFloatOptions few;
    few.max_failure_descriptions = 1;
    const TestFloatSummary limited = run_testfloat_file(file.string(), few);
    CHECK(limited.failed == 3);
    CHECK(limited.failures.size() == 1);
}

TEST_CASE("a NaN result matches any NaN, but only a NaN", "[testfloat]") {
    TempDir dir;
    // 7F800001 converts to a quiet NaN; TestFloat's 7E00 and another NaN encoding both match.
    const fs::path file = dir.write("f32_to_f16.rne.tv", "7F800001 7E00 10\n7F800001 FE01 10\n7F800001 7C00 10\n");
    const TestFloatSummary summary = run_testfloat_file(file.string());
    CHECK(summary.passed == 2);
    CHECK(summary.failed == 1);
}

TEST_CASE("malformed lines throw an Error naming the file and line", "[testfloat]") {
    TempDir dir;
    const char* bad_lines[] = {
        "3C072C85 2039\n",  // a field missing
        "3C072C85 2039 01 00\n",  // a field too many
        "3C07ZC85 2039 01\n",  // not hex
        "3C072C85 12039 01\n",  // wider than f16
        "3C072C85 2039 3G\n",  // flags not hex
        "3C072C85 2039 20\n",  // flags beyond TestFloat's five
        "3C072C85 2039 001\n",  // flags wider than two digits
    };
    for (const char* bad : bad_lines) {
        INFO(bad);
        const fs::path file = dir.write("f32_to_f16.rne.tv", good_lines + bad);
        CHECK_THROWS_WITH(run_testfloat_file(file.string()), Catch::Contains("f32_to_f16.rne.tv:6:"));
    }
}

TEST_CASE("unreadable files and unsupported operations throw", "[testfloat]") {
    TempDir dir;
    CHECK_THROWS_WITH(run_testfloat_file("/nonexistent/f32_to_f16.rne.tv.gz"),
                      Catch::Contains("cannot open") && Catch::Contains("/nonexistent/f32_to_f16.rne.tv.gz"));

    // A gzip file cut in half: zlib reports the truncation rather than a short file passing.
    std::ifstream whole(vectors / "f64_to_f32.rne.tv.gz", std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(whole)), std::istreambuf_iterator<char>());
    const fs::path truncated = dir.write("f64_to_f32.rne.tv.gz", bytes.substr(0, bytes.size() / 2));
    CHECK_THROWS_WITH(run_testfloat_file(truncated.string()), Catch::Contains("cannot read"));

    const fs::path add = dir.write("f16_rem.rne.tv", "3C00 3C00 0000 00\n");
    CHECK_THROWS_WITH(run_testfloat_file(add.string()),
                      Catch::Contains("operation 'f16_rem' is not supported yet") && Catch::Contains("f32_to_f16"));
    TestFloatOptions unknown;
    unknown.operation = "frobnicate";
    CHECK_THROWS_WITH(run_testfloat_file(add.string(), unknown),
                      Catch::Contains("unknown TestFloat operation 'frobnicate'"));
    TestFloatOptions stochastic;
    stochastic.mode = RoundingMode::Stochastic;
    CHECK_THROWS_WITH(run_testfloat_file((vectors / "f32_to_f16.rne.tv.gz").string(), stochastic),
                      Catch::Contains("'sr' cannot be checked"));
}

TEST_CASE("every bundled arithmetic vector passes, results and flags", "[testfloat][arithmetic]") {
    for (const char* type : {"f16", "f32", "f64"}) {
        for (const char* function : {"add", "mul", "div"}) check_every_mode(std::string(type) + "_" + function, 15488);
        check_every_mode(std::string(type) + "_mulAdd", 19979);
    }
    check_every_mode("f16_sub", 15488);
    check_every_mode("f16_sqrt", 408);
    check_every_mode("f32_sqrt", 600);
    check_every_mode("f64_sqrt", 768);
}

TEST_CASE("the operation table lists the conversions and the arithmetic of f16, bf16, f32 and f64", "[testfloat]") {
    CHECK(testfloat_operations().size() == 12 + 4 * 6);
    const TestFloatOperation& op = find_testfloat_operation("f64_to_bf16");
    CHECK(op.operand_formats.size() == 1);
    CHECK(op.operand_formats[0].name == "fp64");
    CHECK(op.result_format.name == "bf16");
    // 1 + 2^-8 lies halfway between bf16 neighbours 1 and 1 + 2^-7: ties to even gives 1.
    const std::uint64_t operand = 0x3FF0100000000000;
    const OperationResult r = op.prepare({RoundingMode::NearestEven})({&operand, 1});
    CHECK(r.bits == 0x3F80);
    CHECK(r.flags.bits == 0x01);
}
