// floatscope-cli's dot and matmul: tensor-core instructions and whole matrices against the GPUs' own outputs.
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

}  // namespace

TEST_CASE("dot runs tensor-core instructions: the GPUs' own outputs come back", "[cli][dot]") {
    // The first 20 lines of some data sets of tests/data/tensor-cores (real V100, A100 and H100
    // outputs): their first three fields are dot's input, the fourth what the GPU returned.
    const std::vector<std::vector<std::string>> sets = {{"V100_fp16_fp16.txt", "nvidia_v100_fp16", "fp16"},
                                                        {"A100_bf16_fp32.txt", "nvidia_a100_bf16", "fp32"},
                                                        {"H100_E5M2_fp32.txt", "nvidia_h100_fp8_e5m2", "fp32"}};
    for (const auto& set : sets) {
        INFO(set[0]);
        const std::vector<std::string> lines =
            split(read_file(fs::path(FLOATSCOPE_TEST_DATA) / "tensor-cores" / set[0]), '\n');
        std::string input, want;
        for (std::size_t i = 0; i < 20; ++i) {
            const std::size_t last = lines.at(i).rfind(';');
            input += lines[i].substr(0, last) + "\n";
            want += lines[i].substr(last + 2) + "\n";
        }
        const CliResult dot = run_cli({"dot", "--preset", set[1], "--output", set[2]}, input);
        CHECK(dot.exit_code == 0);
        CHECK(dot.out == want);
    }
    // A preset without an instruction takes any K: 1 x 1 + 0.5 in fp16 accumulation.
    CHECK(run_cli({"dot", "--preset", "fp16", "--output", "fp16"}, "3F800000 ; 3F800000 ; 3800\n").out == "3E00\n");
}

TEST_CASE("dot runs Blackwell's block-scaled instructions with their scale codes: the B200's words come back",
          "[cli][dot]") {
    // tests/data/tensor-cores/b200_block_scaled.txt: `NAME PRESET: A ; B ; C ; SA ; SB ; D`, D the
    // B200's word (NaN words compared as NaN: dot writes fp32's quiet NaN, the B200 0x7FFFFFFF).
    for (const std::string& line :
         split(read_file(fs::path(FLOATSCOPE_TEST_DATA) / "tensor-cores" / "b200_block_scaled.txt"), '\n')) {
        if (line.empty()) continue;
        INFO(line.substr(0, line.find(':')));
        const std::string preset = line.substr(line.find(' ') + 1, line.find(':') - line.find(' ') - 1);
        const std::string body = line.substr(line.find(':') + 1);
        const std::size_t last = body.rfind(';');
        const CliResult dot = run_cli({"dot", "--preset", preset}, body.substr(0, last) + "\n");
        CHECK(dot.exit_code == 0);
        std::string want = body.substr(last + 2);
        for (char& ch : want) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        CHECK((dot.out == want + "\n" || (want == "7FFFFFFF" && dot.out == "7FC00000\n")));
    }
}

namespace {

/// The first `count` instructions of a tests/data/tensor-cores set as the rows of A, the columns of
/// B and the diagonal of C: then D's diagonal holds the GPU's outputs (the fourth fields).
struct DiagonalProblem {
    std::size_t count = 0, k = 0;
    std::vector<std::string> a_rows, b_rows;  // hex binary32 words; b_rows[i] is instruction i's B
    std::vector<std::string> c, d;  // hex binary32 words
};

DiagonalProblem diagonal_problem(const std::string& file, std::size_t count) {
    DiagonalProblem p;
    p.count = count;
    const std::vector<std::string> lines =
        split(read_file(fs::path(FLOATSCOPE_TEST_DATA) / "tensor-cores" / file), '\n');
    for (std::size_t i = 0; i < count; ++i) {
        const std::vector<std::string> fields = split(lines.at(i), ';');
        p.a_rows.push_back(fields.at(0));
        p.b_rows.push_back(fields.at(1));
        std::istringstream c(fields.at(2)), d(fields.at(3));
        p.c.emplace_back();
        p.d.emplace_back();
        c >> p.c.back();
        d >> p.d.back();
    }
    std::istringstream first(p.a_rows[0]);
    for (std::string word; first >> word;) ++p.k;
    return p;
}

float binary32(const std::string& hex) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16)));
}

/// The shortest decimal that reads back as the float's value in double (as CSV numbers are read).
std::string decimal(float value) {
    char text[32];
    return std::string(text, std::to_chars(text, text + sizeof text, static_cast<double>(value)).ptr);
}

/// A little-endian float32 .npy file, its header written out here by the format's rule.
std::string npy_float32(std::size_t rows, std::size_t cols, const std::vector<float>& values) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                         std::to_string(cols) + "), }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
    bytes += static_cast<char>(header.size() & 0xFF);
    bytes += static_cast<char>(header.size() >> 8);
    bytes += header;
    for (float v : values) bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
    return bytes;
}

}  // namespace

TEST_CASE("matmul runs whole matrices, CSV and .npy: the GPUs' outputs on the diagonal", "[cli][matmul]") {
    const DiagonalProblem p = diagonal_problem("A100_fp16_fp32.txt", 12);
    // A: row i is instruction i's A; B: column j is instruction j's B; C: instruction i's C at (i, i).
    std::vector<float> a(p.count * p.k), b(p.k * p.count), c(p.count * p.count, 0.0f);
    for (std::size_t i = 0; i < p.count; ++i) {
        std::istringstream ra(p.a_rows[i]), rb(p.b_rows[i]);
        std::string word;
        for (std::size_t t = 0; t < p.k && ra >> word; ++t) a[i * p.k + t] = binary32(word);
        for (std::size_t t = 0; t < p.k && rb >> word; ++t) b[t * p.count + i] = binary32(word);
        c[i * p.count + i] = binary32(p.c[i]);
    }
    const auto csv = [](const std::vector<float>& values, std::size_t cols) {
        std::string text;
        for (std::size_t i = 0; i < values.size(); ++i) text += decimal(values[i]) + ((i + 1) % cols == 0 ? "\n" : ",");
        return text;
    };
    TempDir dir;
    const fs::path a_csv = dir.write("a.csv", csv(a, p.k)), b_csv = dir.write("b.csv", csv(b, p.count)),
                   c_csv = dir.write("c.csv", csv(c, p.count));
    const CliResult run = run_cli({"matmul", "--preset", "nvidia_a100_fp16", a_csv.string(), b_csv.string(), "--c",
                                   c_csv.string(), "--out", (dir.path() / "d.csv").string()});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const std::vector<std::string> rows = split(read_file(dir.path() / "d.csv"), '\n');
    REQUIRE(rows.size() >= p.count);
    for (std::size_t i = 0; i < p.count; ++i) {
        INFO("instruction " << i);
        CHECK(std::stod(split(rows[i], ',').at(i)) == static_cast<double>(binary32(p.d[i])));
    }

    // The same through .npy files, D read back from its raw float32 data at the end of the file.
    const fs::path a_npy = dir.write("a.npy", npy_float32(p.count, p.k, a)),
                   b_npy = dir.write("b.npy", npy_float32(p.k, p.count, b)),
                   c_npy = dir.write("c.npy", npy_float32(p.count, p.count, c));
    const fs::path d_npy = dir.path() / "d.npy";
    REQUIRE(run_cli({"matmul", "--preset", "nvidia_a100_fp16", a_npy.string(), b_npy.string(), "--c", c_npy.string(),
                     "--out", d_npy.string()})
                .exit_code == 0);
    const std::string d = read_file(d_npy);
    REQUIRE(d.find("'descr': '<f4'") != std::string::npos);
    REQUIRE(d.size() >= p.count * p.count * 4);
    const char* data = d.data() + d.size() - p.count * p.count * 4;
    for (std::size_t i = 0; i < p.count; ++i) {
        float value;
        std::memcpy(&value, data + (i * p.count + i) * 4, 4);
        INFO("instruction " << i);
        CHECK(value == binary32(p.d[i]));
    }
}

