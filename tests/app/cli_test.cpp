// Tests of floatscope-cli as a process: outputs against published values and TestFloat, exit codes.
#include <catch2/catch.hpp>

#include "tests/app/test_support.hpp"

#include <sys/wait.h>

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using floatscope::test::CliResult;
using floatscope::test::read_file;
using floatscope::test::run_cli;
using floatscope::test::split;
using floatscope::test::TempDir;

/// The CSV field of `column` in the row whose first field is `key` (no quoted fields needed here).
std::string csv_field(const std::string& csv, const std::string& key, const std::string& column) {
    const std::vector<std::string> lines = split(csv, '\n');
    const std::vector<std::string> header = split(lines.at(0), ',');
    const auto at = std::find(header.begin(), header.end(), column);
    if (at == header.end()) return "<no column " + column + ">";
    for (const std::string& line : lines) {
        const std::vector<std::string> fields = split(line, ',');
        if (!fields.empty() && fields[0] == key) return fields.at(static_cast<std::size_t>(at - header.begin()));
    }
    return "<no row " + key + ">";
}

/// The `column` field of the CSV row whose `key_column` field is `key`.
std::string csv_lookup(const std::string& csv, const std::string& key_column, const std::string& key,
                       const std::string& column) {
    const std::vector<std::string> lines = split(csv, '\n');
    const std::vector<std::string> header = split(lines.at(0), ',');
    const auto key_at = std::find(header.begin(), header.end(), key_column);
    const auto at = std::find(header.begin(), header.end(), column);
    if (key_at == header.end() || at == header.end()) return "<no column>";
    for (const std::string& line : lines) {
        const std::vector<std::string> fields = split(line, ',');
        if (fields.size() == header.size() && fields[static_cast<std::size_t>(key_at - header.begin())] == key)
            return fields[static_cast<std::size_t>(at - header.begin())];
    }
    return "<no row " + key + ">";
}

const std::string vectors = std::string(FLOATSCOPE_TEST_DATA) + "/testfloat";

}  // namespace

TEST_CASE("encode rounds once, with IEEE flags", "[cli]") {
    // fp16: max 65504; 100000 overflows to inf (overflow|inexact); 1e-8 is below half the
    // smallest subnormal 2^-24 = 5.96e-8 (zero, underflow|inexact); 5e-8 rounds up to it.
    const CliResult r = run_cli({"encode", "--format", "fp16", "65504", "100000", "1e-8", "5e-8"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "7BFF 00\n7C00 05\n0000 03\n0001 03\n");
    CHECK(r.err.empty());

    CHECK(run_cli({"encode", "--format", "fp16", "--round", "rtz", "100000"}).out == "7BFF 05\n");
    CHECK(run_cli({"encode", "--format", "fp16", "--round", "rup", "1e-8"}).out == "0001 03\n");
    CHECK(run_cli({"encode", "--format", "fp16", "--", "-inf", "-0", "0x1.8p-3"}).out == "FC00 00\n8000 00\n3200 00\n");
    CHECK(run_cli({"encode", "--format", "fp32", "0.1"}).out == "3DCCCCCD 01\n");
    // OCP E4M3 has no infinity: 1000 overflows to NaN (7F), or to max 448 (7E) when saturating.
    CHECK(run_cli({"encode", "--format", "fp8_e4m3", "1000"}).out == "7F 05\n");
    CHECK(run_cli({"encode", "--format", "fp8_e4m3:sat", "1000"}).out == "7E 05\n");
}

TEST_CASE("encode detects tininess after or before rounding", "[cli]") {
    // 2^-14 (1 - 2^-12) rounds up to the smallest normal 2^-14: tiny only before rounding.
    const std::string x = "0x1.ffep-15";
    CHECK(run_cli({"encode", "--format", "fp16", x}).out == "0400 01\n");
    CHECK(run_cli({"encode", "--format", "fp16", "--tininess", "before", x}).out == "0400 03\n");
}

TEST_CASE("encode with stochastic rounding repeats under a seed", "[cli]") {
    const std::vector<std::string> arguments = {"encode", "--format", "fp16", "--round", "sr",  "--seed", "7",  "0.1",
                                                "0.1",    "0.1",      "0.1",  "0.1",     "0.1", "0.1",    "0.1"};
    const CliResult first = run_cli(arguments), second = run_cli(arguments);
    CHECK(first.exit_code == 0);
    CHECK(first.out == second.out);
    // 0.1 lies between the fp16 values 2E66 and 2E67.
    for (const std::string& line : split(first.out, '\n')) CHECK((line == "2E66 01" || line == "2E67 01"));
}

TEST_CASE("encode --csv gives the exact value", "[cli]") {
    const CliResult r = run_cli({"encode", "--format", "bf16", "--csv", "100000000", "0.1"});
    CHECK(r.exit_code == 0);
    // 10^8 = 0x5F5E100 keeps 8 significant bits in bf16: 0xBF * 2^19 = 100139008.
    CHECK(r.out ==
          "format,input,bits,value,flags\n"
          "bf16,100000000,4CBF,100139008,01\n"
          "bf16,0.1,3DCD,0.10009765625,01\n");
}

TEST_CASE("decode prints the exact value and the class", "[cli]") {
    CHECK(run_cli({"decode", "--format", "fp16", "0001"}).out == "0001 5.9604644775390625e-08 subnormal\n");
    CHECK(run_cli({"decode", "--format", "fp16", "0x3c00", "7C00", "FC00"}).out ==
          "3C00 1 normal\n7C00 inf inf\nFC00 -inf inf\n");
    CHECK(run_cli({"decode", "--format", "fp8_e4m3", "7E"}).out == "7E 448 normal\n");
    CHECK(run_cli({"decode", "--format", "fp32", "3DCCCCCD"}).out == "3DCCCCCD 0.100000001490116119384765625 normal\n");
    const CliResult csv = run_cli({"decode", "--format", "fp8_e5m2", "--csv", "7B"});
    CHECK(csv.out == "format,input,bits,value,class\nfp8_e5m2,7B,7B,57344,normal\n");
}

TEST_CASE("formats lists every format with its properties", "[cli]") {
    const CliResult csv = run_cli({"formats", "--csv"});
    REQUIRE(csv.exit_code == 0);
    CHECK(split(csv.out, '\n').at(0).rfind("format,", 0) == 0);
    CHECK(csv_field(csv.out, "fp16", "max_finite") == "65504");
    CHECK(csv_field(csv.out, "fp16", "min_subnormal") == "5.9604644775390625e-08");
    CHECK(csv_field(csv.out, "fp16", "finite_values") == "63487");
    CHECK(csv_field(csv.out, "fp8_e4m3", "max_finite") == "448");
    CHECK(csv_field(csv.out, "fp8_e5m2", "max_finite") == "57344");
    CHECK(csv_field(csv.out, "fp4_e2m1", "max_finite") == "6");
    CHECK(csv_field(csv.out, "fp32", "epsilon") == "1.1920928955078125e-07");
    CHECK(csv_field(csv.out, "bf16", "max_finite") == "3.3895313892515354759047080037148786688e+38");
    CHECK(csv_field(csv.out, "int8", "max_finite") == "127");
    // log10(DBL_MAX / 2^-1074) = 308.25 + 323.31, though the ratio itself overflows a double.
    CHECK(std::stod(csv_field(csv.out, "fp64", "dynamic_range_decades")) == Approx(631.5609).margin(1e-3));

    const CliResult text = run_cli({"formats"});
    REQUIRE(text.exit_code == 0);
    // A row per CSV record, then the note naming the families too large to list (4 lines).
    CHECK(split(text.out, '\n').size() == split(csv.out, '\n').size() + 4);
    CHECK_THAT(text.out, Catch::Contains("binaryKpP[s|u][e|f] for K = 3..16"));
    for (const char* name : {"fp64", "tf32", "fp8_e4m3", "e8m0", "nf4", "uint4"})
        CHECK_THAT(text.out, Catch::Contains(std::string("\n") + name + " "));
}

TEST_CASE("formats shows lowest beside max, tf32's fp32 storage, P3109 aliases and block formats' bits",
          "[cli][p3109]") {
    const CliResult csv = run_cli({"formats", "--csv"});
    REQUIRE(csv.exit_code == 0);
    CHECK(csv_field(csv.out, "int8", "lowest") == "-128");
    CHECK(csv_field(csv.out, "int4", "lowest") == "-8");
    CHECK(csv_field(csv.out, "nf4", "lowest") == "-1");
    CHECK(csv_field(csv.out, "fp8_e4m3", "lowest") == "-448");
    CHECK(csv_field(csv.out, "tf32", "bits") == "19");
    CHECK(csv_field(csv.out, "tf32", "bytes_per_value") == "4");
    CHECK(csv_field(csv.out, "binary8p4se", "max_finite") == "224");  // P3109: 0x7F is +inf
    CHECK(csv_field(csv.out, "binary8p4se", "aliases") == "p3109_k8p4se");
    // OCP MX v1.0: 32 elements share an 8-bit scale; NVFP4: 16 share an E4M3 scale.
    CHECK(csv_field(csv.out, "mxfp4", "bits") == "4.25");
    CHECK(csv_field(csv.out, "mxfp8_e4m3", "bits") == "8.25");
    CHECK(csv_field(csv.out, "nvfp4", "bits") == "4.5");
    CHECK(csv_field(csv.out, "nvfp4", "kind") == "block");
    const CliResult text = run_cli({"formats"});
    CHECK_THAT(text.out, Catch::Contains("4 (in fp32)"));
}

TEST_CASE("P3109 formats in decode, encode and eval: the working group's values, x/0 is NaN", "[cli][p3109]") {
    // Binary8p3se of the P3109 value tables: 0x01 = 2^-17, 0x7E = 0x1.8p+15, 0x7F = Inf, 0x80 = NaN.
    CHECK(run_cli({"decode", "--format", "binary8p3se", "01", "7E", "7F", "80", "FF"}).out ==
          "01 7.62939453125e-06 subnormal\n7E 49152 normal\n7F inf inf\n80 nan nan\nFF -inf inf\n");
    CHECK(run_cli({"encode", "--format", "p3109_k8p3se", "49152", "1e6", "inf"}).out == "7E 00\n7F 05\n7F 00\n");
    CHECK(run_cli({"encode", "--format", "binary8p3se:satfinite", "1e6", "inf"}).out == "7E 05\n7E 10\n");
    CHECK(run_cli({"encode", "--format", "binary8p3sf", "1e6"}).out == "80 05\n");  // finite: NaN
    // P3109 divides by its one, unsigned zero to NaN; IEEE fp16 gives +inf.
    CHECK(run_cli({"eval", "--format", "binary8p4se"}, "div 38 00\n").out == "80 10\n");
    CHECK(run_cli({"eval", "--format", "binary8p4se"}, "add 38 38\nmul 7E 7E\n").out == "40 00\n7F 05\n");
}

TEST_CASE("encode, decode and show take block formats, one block per argument", "[cli][block]") {
    // OCP MX v1.0 6.3: the shared exponent is floor(log2(amax)) - emax_elem = 2 - 2, scale 2^0 (E8M0
    // 7F); E2M1 codes: 0.5 = 1, 1 = 2, 2 = 4, 3 = 5, 6 = 7, and 0.1 rounds to 0.
    CHECK(run_cli({"encode", "--format", "mxfp4", "0.1,1,6"}).out ==
          "block 1: scale 7F = 1\n  0.1 0 0 error -0.1\n  1 2 1 error 0\n  6 7 6 error 0\n");
    // amax 12: scale 2^1 (80), elements halved (-1.5 is E2M1 B).
    CHECK(run_cli({"encode", "--format", "mxfp4", "12,-3"}).out ==
          "block 1: scale 80 = 2\n  12 7 12 error 0\n  -3 B -3 error 0\n");
    CHECK(run_cli({"decode", "--format", "mxfp4", "7F:2,4,7", "80:F"}).out ==
          "block 1: scale 7F = 1\n  2 1\n  4 2\n  7 6\nblock 2: scale 80 = 2\n  F -12\n");
    const CliResult csv = run_cli({"encode", "--format", "mxfp4", "--csv", "1,6"});
    CHECK(csv.out ==
          "format,block,input,scale_bits,scale,bits,value,error\nmxfp4,1,1,7F,1,2,1,0\nmxfp4,1,6,7F,1,7,6,0\n");
    const CliResult shown = run_cli({"show", "1,6", "-f", "mxfp4"});
    CHECK(shown.exit_code == 0);
    CHECK_THAT(shown.out, Catch::Contains("block 1: scale 7F = 1\n  1 2 1 error 0\n  6 7 6 error 0\n"));
    CHECK(run_cli({"encode", "--format", "mxfp4:block=2", "1,2,3"}).exit_code == 2);
    CHECK_THAT(run_cli({"decode", "--format", "mxfp4", "7F2"}).err, Catch::Contains("SCALE:CODE"));
}

TEST_CASE("an absmax block format's scale is its fp32 bits, and decode takes them back", "[cli][block]") {
    // bitsandbytes' blockwise FP4: the block's absmax, 3, is stored as fp32 (40400000); the elements
    // are codes of the table scaled by it. Decoding the codes encode printed gives its values again.
    const CliResult encoded = run_cli({"encode", "--format", "bnb_fp4", "--csv", "0.5,-1,3"});
    REQUIRE(encoded.exit_code == 0);
    CHECK(csv_lookup(encoded.out, "input", "3", "scale_bits") == "40400000");
    std::string codes;
    for (const char* input : {"0.5", "-1", "3"})
        codes += (codes.empty() ? "" : ",") + csv_lookup(encoded.out, "input", input, "bits");
    const CliResult decoded = run_cli({"decode", "--format", "bnb_fp4", "--csv", "40400000:" + codes});
    REQUIRE(decoded.exit_code == 0);
    for (const char* input : {"0.5", "-1", "3"}) {
        const std::string code = csv_lookup(encoded.out, "input", input, "bits");
        CHECK(csv_lookup(decoded.out, "bits", code, "value") == csv_lookup(encoded.out, "input", input, "value"));
    }
    // Double quantization keeps 8-bit codes of a second-level block: encode shows them, decode refuses.
    CHECK_THAT(run_cli({"encode", "--format", "bnb_fp4:dq", "0.5,-1,3"}).out, Catch::Contains("(8-bit code) = 3"));
    const CliResult dq = run_cli({"decode", "--format", "bnb_fp4:dq", "7F:1"});
    CHECK(dq.exit_code == 2);
    CHECK_THAT(dq.err, Catch::Contains("double quantization"));
    CHECK(dq.out.empty());
}

TEST_CASE("convert agrees with TestFloat's f32_to_f16 and f16_to_f32 vectors", "[cli]") {
    // Lines of f32_to_f16.rne.tv.gz, f32_to_f16.rtz.tv.gz and f16_to_f32.rne.tv.gz.
    const std::string f32_operands = "3E000000\n3C072C85\n8683F7FF\n4F951295\n33800000\n";
    const CliResult rne = run_cli({"convert", "--from", "fp32", "--to", "fp16"}, f32_operands);
    CHECK(rne.exit_code == 0);
    CHECK(rne.out == "3000 00\n2039 01\n8000 03\n7C00 05\n0001 00\n");
    const CliResult rtz = run_cli({"convert", "--from", "fp32", "--to", "fp16", "--round", "rtz"}, "4F951295\n");
    CHECK(rtz.out == "7BFF 05\n");
    // A signaling NaN raises invalid and comes out quiet with its payload (x86 and SoftFloat agree).
    const CliResult widen = run_cli({"convert", "--from", "fp16", "--to", "fp32"}, "7C01\n7C00\n  3C00  \n");
    CHECK(widen.out == "7FC02000 10\n7F800000 00\n3F800000 00\n");
}

TEST_CASE("eval applies each operation of its batch, with IEEE flags", "[cli][eval]") {
    // Lines of f16_add.rne, f16_div.rne and f16_mulAdd.rne from TestFloat, then IEEE special cases.
    const std::string batch =
        "add 3C00 3C00\n"  // 1 + 1 = 2
        "sqrt 4400\n"  // sqrt(4) = 2
        "div 3C00 0000\n"  // 1/0 = inf, divide by zero
        "div 0000 0000\n"  // 0/0: invalid
        "fma 7BFF 4000 FBFF\n"  // 65504 * 2 - 65504 = 65504 exactly (a separate multiply would overflow)
        "mul 7BFF 7BFF\n";  // overflow to inf
    const CliResult fp16 = run_cli({"eval", "--format", "fp16"}, batch);
    CHECK(fp16.exit_code == 0);
    const std::vector<std::string> lines = split(fp16.out, '\n');
    REQUIRE(lines.size() >= 6);
    CHECK(lines[0] == "4000 00");
    CHECK(lines[1] == "4000 00");
    CHECK(lines[2] == "7C00 08");
    CHECK(split(lines[3], ' ').back() == "10");
    CHECK(lines[4] == "7BFF 00");
    CHECK(lines[5] == "7C00 05");
    // OCP E4M3: 448 x 4 overflows to NaN; saturating, to 448.
    CHECK(run_cli({"eval", "--format", "fp8_e4m3"}, "mul 7E 48\n").out == "7F 05\n");
    CHECK(run_cli({"eval", "--format", "fp8_e4m3:sat"}, "mul 7E 48\n").out == "7E 05\n");
    // 1/3 in bf16 toward zero and to nearest: 0x3EAA and 0x3EAB.
    CHECK(run_cli({"eval", "--format", "bf16", "--round", "rtz"}, "div 3F80 4040\n").out == "3EAA 01\n");
    CHECK(run_cli({"eval", "--format", "bf16"}, "div 3F80 4040\n").out == "3EAB 01\n");
}

TEST_CASE("formats wider than binary64 go through MPFR with the same commands and layout", "[cli][wide]") {
    const std::string one = "3FFF0000000000000000000000000000", two = "40000000000000000000000000000000";
    // 1 + 1, 1/3 (0x3FFD5555...), sqrt(2) (1.6A09E667F3BCC908B2FB1366EA95|7D3E...), 1/0, 0 x inf.
    const CliResult quad =
        run_cli({"eval", "--format", "binary128"}, "add " + one + " " + one + "\ndiv " + one +
                                                       " 40008000000000000000000000000000\nsqrt " + two + "\ndiv " +
                                                       one + " 0\nmul 0 7FFF0000000000000000000000000000\n");
    REQUIRE(quad.exit_code == 0);
    CHECK(quad.out == two +
                          " 00\n3FFD5555555555555555555555555555 01\n3FFF6A09E667F3BCC908B2FB1366EA95 01\n"
                          "7FFF0000000000000000000000000000 08\nFFFF8000000000000000000000000000 10\n");
    CHECK(
        run_cli({"eval", "-f", "fp128", "--round", "rtz"}, "mul 7FFE0000000000000000000000000000 " + two + "\n").out ==
        "7FFEFFFFFFFFFFFFFFFFFFFFFFFFFFFF 05\n");

    // encode: 0.1 to nearest is 0x3FFB999...9A; the CSV value is exact.
    const CliResult encoded = run_cli({"encode", "-f", "binary128", "--csv", "0.1", "1"});
    REQUIRE(encoded.exit_code == 0);
    CHECK_THAT(encoded.out,
               Catch::Contains("binary128,0.1,3FFB999999999999999999999999999A,0."
                               "1000000000000000000000000000000000048148248609680896326399448564623182963452541205"));
    CHECK_THAT(encoded.out, Catch::Contains("binary128,1," + one + ",1,00"));
    const CliResult decoded = run_cli({"decode", "-f", "binary128", "1"});
    CHECK_THAT(decoded.out,
               Catch::StartsWith("00000000000000000000000000000001 6.475175119438025110924438958227646552"));
    CHECK_THAT(decoded.out, Catch::EndsWith("e-4966 subnormal\n"));

    // convert both ways: the exact value crosses, rounded once.
    CHECK(run_cli({"convert", "--from", "fp64", "--to", "binary128"}, "3FB999999999999A\n").out ==
          "3FFB999999999999A000000000000000 00\n");
    CHECK(run_cli({"convert", "--from", "binary128", "--to", "fp16"}, "3FFB999999999999999999999999999A\n").out ==
          "2E66 01\n");
    CHECK(run_cli({"convert", "--from", "binary128", "--to", "binary256"}, one + "\n").out ==
          "3FFFF" + std::string(59, '0') + " 00\n");

    // show: bits, shortest decimal, error against 0.1 ((0x1999...9A 2^-116 - 0.1) / 0.1 = 4.815e-35).
    const CliResult shown = run_cli({"show", "0.1", "-f", "binary128"});
    REQUIRE(shown.exit_code == 0);
    CHECK_THAT(shown.out, Catch::Contains("0|011111111111011|1001100110011001"));
    CHECK_THAT(shown.out, Catch::Contains("shortest   0.1\n"));
    CHECK_THAT(shown.out, Catch::Contains("4.815e-35"));

    // A NaN reads "nan" whatever its sign bit, as the narrow path prints it (fp64's FFF8... too).
    CHECK(run_cli({"decode", "-f", "binary128", "FFFF8000000000000000000000000000"}).out ==
          "FFFF8000000000000000000000000000 nan nan\n");
    CHECK(run_cli({"decode", "-f", "fp64", "FFF8000000000000"}).out == "FFF8000000000000 nan nan\n");

    // sum takes them in every role; what does not take wide formats says so, and where they work.
    CHECK(run_cli({"run", "sum", "--formats", "binary128", "--set", "n=100"}).exit_code == 0);
    const CliResult run = run_cli({"run", "train-mlp", "--formats", "binary128"});
    CHECK(run.exit_code == 2);
    CHECK_THAT(run.err, Catch::Contains("'binary128' is wider than binary64: show, encode, decode, convert and eval"));
    const CliResult wrong_width = run_cli({"decode", "-f", "binary128", "1" + std::string(32, '0')});
    CHECK(wrong_width.exit_code == 2);
    CHECK_THAT(wrong_width.err, Catch::Contains("wider than binary128 (128 bits, at most 32 hex digits)"));
    CHECK(wrong_width.out.empty());
}

TEST_CASE("P3109 formats beyond binary64 go through the wide path in show, encode, decode, eval, convert",
          "[cli][wide][p3109]") {
    // binary16p1se: 15 exponent bits, bias 2^14, no trailing bits: code 0x4000 + n is 2^n. Worked
    // by hand from the Interim Report (v4.0, 3.1 and 4.7.5), not from the program.
    // 2^12288 squared overflows: +inf where the format has it, NaN (0x8000) in the finite one;
    // 1 / 0 is NaN and invalid in P3109; 1 + 1 = 2.
    CHECK(run_cli({"eval", "-f", "binary16p1se"}, "mul 7000 7000\nadd 4000 4000\ndiv 4000 0000\n").out ==
          "7FFF 05\n4001 00\n8000 10\n");
    CHECK(run_cli({"eval", "-f", "binary16p1sf"}, "mul 7000 7000\n").out == "8000 05\n");
    // 3 lies halfway between 2 (field 0x4001, odd) and 4 (0x4002, even): ties-to-even takes 4.
    CHECK(run_cli({"encode", "-f", "binary16p1se", "3", "-2"}).out == "4002 01\nC001 00\n");
    // binary12p1ue: 12 exponent bits, bias 2^11: code 1 is 2^-2047; 0xFFE +inf, 0xFFF NaN.
    const CliResult decoded = run_cli({"decode", "-f", "binary12p1ue", "1", "FFE", "FFF"});
    REQUIRE(decoded.exit_code == 0);
    CHECK_THAT(decoded.out, Catch::StartsWith("001 6.1"));  // 2^-2047 = 6.1e-617
    CHECK_THAT(decoded.out, Catch::EndsWith("e-617 normal\nFFE inf inf\nFFF nan nan\n"));
    // 1e300 = 2^996.6 rounds to 2^996 (nearer than 2^997 in P = 1): field 996 + 2^14 = 0x43E4.
    CHECK_THAT(run_cli({"show", "1e300", "-f", "binary16p1se"}).out, Catch::Contains("0|100001111100100"));
    CHECK(run_cli({"convert", "--from", "binary16p1se", "--to", "fp64"}, "4000\n7000\n").out ==
          "3FF0000000000000 00\n7FF0000000000000 05\n");
    // sum, gemm and mlp-forward take it; train-mlp does not.
    const CliResult gemm = run_cli({"run", "gemm", "--formats", "binary16p1se", "--set", "k=16", "--set", "m=2"});
    CHECK(gemm.exit_code == 0);
    CHECK_THAT(gemm.out, Catch::Contains("binary16p1se"));
    const CliResult run = run_cli({"run", "train-mlp", "--formats", "binary16p1se"});
    CHECK(run.exit_code == 2);
    CHECK_THAT(run.err, Catch::Contains("'binary16p1se' is wider than binary64"));
}

TEST_CASE("show gives bits, exact value, error and neighbours", "[cli]") {
    const CliResult r = run_cli({"show", "0.1", "--format", "fp16"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("0|01011|1001100110"));  // plain: stdout is not a terminal
    CHECK(r.out.find('\033') == std::string::npos);
    CHECK_THAT(r.out, Catch::Contains("2E66"));
    CHECK_THAT(r.out, Catch::Contains("0.0999755859375"));
    CHECK_THAT(r.out, Catch::Contains("2.441e-05"));  // |0.0999755859375 - 0.1|
    CHECK_THAT(r.out, Catch::Contains("inexact"));
    CHECK_THAT(r.out, Catch::Contains("0.09991455078125"));  // next down
    CHECK_THAT(r.out, Catch::Contains("0.10003662109375"));  // next up

    // The error of fp64's 0.1 is 5.551115123125783e-18: it needs more of 0.1 than 64 bits.
    CHECK_THAT(run_cli({"show", "0.1", "-f", "fp64"}).out, Catch::Contains("5.551e-18"));

    const CliResult all = run_cli({"show", "1.5"});
    REQUIRE(all.exit_code == 0);
    for (const char* name : {"fp64", "fp32", "tf32", "bf16", "fp16", "fp8_e4m3", "fp8_e5m2", "fp4_e2m1", "nf4", "int8"})
        CHECK_THAT(all.out, Catch::Contains(std::string("\n") + name + "\n"));
}

TEST_CASE("testfloat runs a vector file", "[cli]") {
    const CliResult pass = run_cli({"testfloat", vectors + "/f32_to_f16.rne.tv.gz"});
    CHECK(pass.exit_code == 0);
    CHECK(pass.out == "600 passed, 0 failed\n");

    TempDir dir;
    const fs::path file = dir.write("vectors.txt", "3E000000 3000 00\n3C072C85 2038 01\n");
    const CliResult fail = run_cli({"testfloat", file.string(), "--op", "f32_to_f16", "--round", "rne"});
    CHECK(fail.exit_code == 1);
    CHECK(fail.out == "1 passed, 1 failed\n");
    CHECK_THAT(fail.err, Catch::Contains("vectors.txt:2:"));
}

TEST_CASE("help exits 0", "[cli]") {
    const std::vector<std::vector<std::string>> requests = {{"--help"}, {"encode", "--help"}, {"testfloat", "-h"}};
    for (const auto& arguments : requests) {
        const CliResult r = run_cli(arguments);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Catch::Contains("Usage"));
    }
}

TEST_CASE("bad input exits 2 with an error on stderr and nothing on stdout", "[cli]") {
    TempDir dir;
    const std::string bad_vectors = dir.write("f32_to_f16.rne.tv", "3E000000 3000 00\n3E000000 3000\n").string();
    struct Case {
        std::vector<std::string> arguments;
        std::string input;
        std::string message;  ///< a part of the message
    };
    std::string fp4_zeros;  // 64 zero operands of an NVFP4 instruction
    for (int i = 0; i < 64; ++i) fp4_zeros += "0 ";
    const std::vector<Case> cases = {
        {{"encode", "--format", "fp18", "1"}, "", "fp16"},
        {{"encode", "--format", "fp16", "abc"}, "", "'abc'"},
        {{"encode", "--format", "fp16", "1.2.3"}, "", "'1.2.3'"},
        {{"encode", "--format", "fp16", "1", "abc"}, "", "'abc'"},
        {{"encode", "--format", "fp16", "--round", "rnx", "1"}, "", "'rnx'"},
        {{"encode", "--format", "fp16", "--tininess", "during", "1"}, "", "'during'"},
        {{"encode", "--format", "fp16", "--seed", "abc", "1"}, "", "seed"},
        {{"encode", "--format", "fp16"}, "", "VALUE"},
        {{"encode", "1"}, "", "--format"},
        {{"decode", "--format", "fp16", "xyz"}, "", "'xyz'"},
        {{"decode", "--format", "fp16", ""}, "", "bit pattern"},
        {{"decode", "--format", "fp8_e4m3", "1FF"}, "", "wider"},
        {{"decode", "--format", "fp64", "0x12345678901234567"}, "", "wider"},
        {{"show", "1", "--format", "e4m3:xyz"}, "", "xyz"},
        {{"show", "nonsense"}, "", "'nonsense'"},
        {{"frobnicate"}, "", "unknown subcommand 'frobnicate'"},
        {{}, "", "subcommand"},
        {{"formats", "--bogus"}, "", "--bogus"},
        {{"convert", "--from", "fp32", "--to", "fp18"}, "3C00\n", "fp18"},
        {{"convert", "--from", "fp32", "--to", "fp16"}, "3F800000\n\n40000000\n", "line 2: empty line"},
        {{"convert", "--from", "fp32", "--to", "fp16"}, "3F800000\nzz\n", "line 2"},
        {{"convert", "--from", "fp32", "--to", "fp16"}, "123456789\n", "wider"},
        {{"testfloat", vectors + "/missing.rne.tv.gz"}, "", "missing.rne.tv.gz"},
        {{"testfloat", vectors + "/README.md"}, "", "README.md"},
        {{"testfloat", bad_vectors}, "", "f32_to_f16.rne.tv:2:"},
        {{"testfloat", vectors + "/f32_to_f16.rne.tv.gz", "--round", "sr"}, "", "'sr'"},
        {{"testfloat", vectors + "/f32_to_f16.rne.tv.gz", "--op", "f16_rem"}, "", "not supported yet"},
        {{"eval", "--format", "fp16"}, "pow 3C00 3C00\n", "unknown operation 'pow'"},
        {{"eval", "--format", "fp16"}, "add 3C00\n", "add takes 2 operands"},
        {{"eval", "--format", "fp16"}, "sqrt 3C00 3C00\n", "line 1"},
        {{"eval", "--format", "fp8_e4m3"}, "add 3C00 01\n", "wider"},
        {{"eval", "--format", "fp16"}, "add 3C00 3C00\n\nadd 1 2\n", "line 2"},
        {{"eval", "--format", "fp16"}, "add xyz 3C00\n", "malformed bit pattern"},
        {{"eval", "--format", "fp99"}, "add 3C00 3C00\n", "unknown format 'fp99'"},
        // A line past 1 MiB (a file without newlines, NUL bytes) is refused, not taken as the end.
        {{"eval", "--format", "fp16"},
         "add 3C00 3C00\n" + std::string((1 << 20) + 1, '\0'),
         "stdin line 2: longer than"},
        {{"convert", "--from", "fp32", "--to", "fp16"}, std::string((1 << 20) + 1, '0'), "stdin line 1: longer than"},
        {{"dot", "--preset", "nvidia_h100_fp16"}, std::string((1 << 20) + 1, ' '), "stdin line 1: longer than"},
        // A block-scaled instruction takes a scale code per block: 64 NVFP4 k take 4.
        {{"dot", "--preset", "nvidia_b200_nvfp4"},
         fp4_zeros + ";" + fp4_zeros + "; 0 ; 38 38 38 ; 38 38 38 38\n",
         "field SA holds 3 scales; K = 64 takes 4"},
        {{"dot", "--preset", "nvidia_b200_mxfp8", "--output", "fp16"}, "", "fp32"},
    };
    for (const Case& c : cases) {
        std::string shown;
        for (const std::string& a : c.arguments) shown += " [" + a + "]";
        INFO("floatscope-cli" << shown);
        const CliResult r = run_cli(c.arguments, c.input);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err.rfind("floatscope-cli: error: ", 0) == 0);
        CHECK_THAT(r.err, Catch::Contains(c.message));
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
}
