// The readers against checkpoints an independent NumPy writer made (tests/data/weights/
// write_checkpoints.py, run by ctest first): every value decoded bit for bit as the writer computed it.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "emulation/weights/checkpoint.hpp"

namespace {

using namespace floatscope::emu;

const std::string folder = FLOATSCOPE_CHECKPOINTS;

std::vector<double> expected(const std::string& dir, const std::string& name) {
    std::ifstream in(dir + "/expected/" + name + ".f64", std::ios::binary);
    REQUIRE(in);
    std::vector<double> values;
    for (double v; in.read(reinterpret_cast<char*>(&v), sizeof v);) values.push_back(v);
    return values;
}

std::vector<double> decoded(const WeightTensor& t) {
    std::vector<double> values(t.count);
    decode_elements(t, 0, values);
    return values;
}

/// Same bits, or both NaN.
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0; }

void check_values(const WeightTensor& t, const std::vector<double>& want) {
    INFO("tensor " << t.name << " (" << t.dtype << ")");
    const std::vector<double> got = decoded(t);
    REQUIRE(got.size() == want.size());
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!same(got[i], want[i])) {
            if (mismatches++ < 4) WARN("element " << i << ": read " << got[i] << ", written " << want[i]);
        }
    CHECK(mismatches == 0);
}

std::map<std::string, std::string> metadata_of(const Checkpoint& c) { return {c.metadata.begin(), c.metadata.end()}; }

}  // namespace

TEST_CASE("safetensors: every dtype reads back as the writer's values", "[weights]") {
    const Checkpoint c = open_checkpoint(folder + "/dtypes.safetensors");
    CHECK(c.container == "safetensors");
    REQUIRE(c.tensors.size() == 10);
    std::vector<std::string> dtypes;
    for (const WeightTensor& t : c.tensors) {
        dtypes.push_back(t.dtype);
        check_values(t, expected(folder, "dtypes." + t.name));
    }
    // File order, as written.
    CHECK(dtypes ==
          std::vector<std::string>{"F64", "F32", "F16", "BF16", "I8", "U8", "F8_E4M3", "F8_E5M2", "F8_E8M0", "F4"});
    CHECK(c.tensors[2].shape == std::vector<std::uint64_t>{2, 3, 8});
    CHECK(c.tensors[9].data.size() == 16);  // 32 FP4 values, two a byte
    CHECK(metadata_of(c).at("writer") == "write_checkpoints.py");
    CHECK(c.parameter_count() == 15 + 24 + 48 + 20 + 5 * 256 + 32);
}

TEST_CASE("safetensors: a sharded model through its index, as a directory or the index file", "[weights]") {
    const std::string dir = folder + "/sharded";
    for (const std::string& path : {dir, dir + "/model.safetensors.index.json"}) {
        const Checkpoint c = open_checkpoint(path);
        REQUIRE(c.tensors.size() == 4);
        CHECK(c.files.size() == 2);
        CHECK(c.tensors[0].name == "embed.weight");
        CHECK(c.tensors[3].name == "norm.weight");
        for (const WeightTensor& t : c.tensors) check_values(t, expected(dir, t.name));
        CHECK(metadata_of(c).at("total_size") == "416");
    }
}

TEST_CASE("GGUF: F32, F16, BF16 and every block type round-trip against the writer", "[weights]") {
    const Checkpoint c = open_checkpoint(folder + "/blocks.gguf");
    CHECK(c.container == "gguf");
    REQUIRE(c.tensors.size() == 9);
    for (const WeightTensor& t : c.tensors) check_values(t, expected(folder, "gguf." + t.name));
    // dims reversed: ne = {64, 4} is 4 rows of 64.
    const WeightTensor& q4 = c.tensors[4];
    CHECK(q4.dtype == "Q4_0");
    CHECK(q4.shape == std::vector<std::uint64_t>{4, 64});
    CHECK(q4.data.size() == 8 * 18);
    CHECK(q4.file_offset % 64 == 0);  // general.alignment = 64
    const auto m = metadata_of(c);
    CHECK(m.at("general.architecture") == "llama");
    CHECK(m.at("general.alignment") == "64");
    CHECK(m.at("general.file_type") == "7");
    CHECK(m.at("general.quantized") == "true");
    CHECK(m.at("tokenizer.ggml.scores") == "[3 values] 0.5, -1, 2");
    CHECK(m.at("tokenizer.ggml.tokens") == "[2 values] <s>, </s>");
}

TEST_CASE("decode_elements: any range of a block tensor, and none outside it", "[weights]") {
    const Checkpoint c = open_checkpoint(folder + "/blocks.gguf");
    const WeightTensor& t = c.tensors[6];  // Q5_0, 256 values
    const std::vector<double> all = decoded(t);
    std::vector<double> part(45);
    decode_elements(t, 20, part);
    for (std::size_t i = 0; i < part.size(); ++i) CHECK(same(part[i], all[20 + i]));
    CHECK_THROWS_WITH(decode_elements(t, 250, part), Catch::Contains("leave its 256 elements"));
}
