// Lying and truncated checkpoints: each lie is a floatscope::Error naming the tensor and the field.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "emulation/weights/checkpoint.hpp"
#include "tests/temp_dir.hpp"

namespace {

using namespace floatscope::emu;
using Catch::Contains;

std::string le64(std::uint64_t v) {
    std::string s(8, '\0');
    for (int i = 0; i < 8; ++i) s[i] = static_cast<char>(v >> (8 * i));
    return s;
}

std::string le32(std::uint32_t v) { return le64(v).substr(0, 4); }

/// A safetensors file: the header's JSON as given, then `data` bytes.
std::string safetensors(const std::string& header, std::size_t data) {
    return le64(header.size()) + header + std::string(data, '\0');
}

std::string gguf_string(const std::string& s) { return le64(s.size()) + s; }

struct GgufTensor {
    std::string name;
    std::vector<std::uint64_t> ne;
    std::uint32_t type;
    std::uint64_t offset;
};

/// A GGUF v3 file with `kvs` (already encoded) and the tensor infos, data padded to 32, `data` bytes.
std::string gguf(const std::vector<GgufTensor>& tensors, std::size_t data, const std::vector<std::string>& kvs = {},
                 std::uint32_t version = 3) {
    std::string s = "GGUF" + le32(version) + le64(tensors.size()) + le64(kvs.size());
    for (const std::string& kv : kvs) s += kv;
    for (const GgufTensor& t : tensors) {
        s += gguf_string(t.name) + le32(static_cast<std::uint32_t>(t.ne.size()));
        for (std::uint64_t d : t.ne) s += le64(d);
        s += le32(t.type) + le64(t.offset);
    }
    s += std::string((32 - s.size() % 32) % 32, '\0');
    return s + std::string(data, '\0');
}

void check_refused(const std::string& bytes, const std::string& message) {
    const floatscope::test::TempDir dir;
    const std::string path = dir.write("lie.bin", bytes).string();
    CHECK_THROWS_AS(open_checkpoint(path), floatscope::Error);
    CHECK_THROWS_WITH(open_checkpoint(path), Contains(message));
}

const std::string one_f32 = R"("w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]})";

}  // namespace

TEST_CASE("safetensors lies: header, dtype, shape, offsets", "[weights]") {
    check_refused(std::string("\x05\0\0", 3), "truncated: 3 bytes");
    check_refused(le64(1000) + "{}", "header length 1000 runs past the end of the file (10 bytes)");
    check_refused(safetensors("{\"w\": [", 0), "the header is not JSON");
    check_refused(safetensors("[1, 2]", 0), "not a JSON object");
    // Nesting: the header object, __metadata__'s object and arrays to 64 levels in all read (and
    // print back through weights-info); 65 and 100,000 levels are refused, not a stack overflow.
    auto nested = [](std::size_t levels) {
        const std::size_t arrays = levels - 2;
        return R"({"__metadata__":{"deep":)" + std::string(arrays, '[') + "1" + std::string(arrays, ']') + "}," +
               one_f32 + "}";
    };
    const floatscope::test::TempDir dir;
    const Checkpoint deepest = open_checkpoint(dir.write("deep.safetensors", safetensors(nested(64), 16)).string());
    REQUIRE(deepest.metadata.size() == 1);
    CHECK(deepest.metadata[0].second == std::string(62, '[') + "1" + std::string(62, ']'));
    check_refused(safetensors(nested(65), 16), "JSON nested deeper than 64 levels");
    check_refused(safetensors(nested(100000), 16), "JSON nested deeper than 64 levels");
    // Two tensors of one name: refused (a JSON parser would keep the last silently).
    check_refused(safetensors("{" + one_f32 + "," + one_f32 + "}", 16), "the key 'w' appears twice");
    check_refused(safetensors("{" + one_f32 + "}", 8), "tensor 'w': data_offsets [0, 16] end past the data (8 bytes");
    check_refused(safetensors(R"({"w":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}})", 8),
                  "tensor 'w': dtype 'C64' is not supported (supported: F64 F32 F16 BF16 I8 U8");
    check_refused(safetensors(R"({"w":{"shape":[1],"data_offsets":[0,4]}})", 4),
                  "tensor 'w': field 'dtype' is missing");
    check_refused(safetensors(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", 4),
                  "tensor 'w': shape[0] is -1, not a non-negative integer");
    check_refused(safetensors(R"({"w":{"dtype":"F32","shape":[4294967296,4294967296,2],"data_offsets":[0,4]}})", 4),
                  "tensor 'w': the element count (shape) overflows 64 bits");
    check_refused(safetensors(R"({"w":{"dtype":"F16","shape":[9223372036854775808],"data_offsets":[0,4]}})", 4),
                  "tensor 'w': the byte size overflows 64 bits");
    check_refused(safetensors(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}})", 16),
                  "tensor 'w': data_offsets [0, 16] hold 16 bytes; shape [3] of F32 needs 12");
    check_refused(safetensors(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}})", 16),
                  "data_offsets [8, 4] run backwards");
    check_refused(safetensors(R"({"w":{"dtype":"F4","shape":[3],"data_offsets":[0,1]}})", 2),
                  "tensor 'w': 3 FP4 elements do not fill whole bytes");
    check_refused(safetensors("{" + one_f32 + R"(,"v":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})", 16),
                  "overlaps tensor 'v'");
}

TEST_CASE("sharded safetensors: an index that names a missing shard or tensor", "[weights]") {
    const floatscope::test::TempDir dir;
    dir.write("a.safetensors", safetensors("{" + one_f32 + "}", 16));
    dir.write("model.safetensors.index.json", R"({"weight_map": {"w": "a.safetensors", "x": "a.safetensors"}})");
    CHECK_THROWS_WITH(open_checkpoint(dir.path().string()),
                      Contains("weight_map puts tensor 'x' in a.safetensors, which does not hold it"));
    dir.write("model.safetensors.index.json", R"({"weight_map": {"w": "b.safetensors"}})");
    CHECK_THROWS_WITH(open_checkpoint(dir.path().string()), Contains("cannot open") && Contains("b.safetensors"));
    dir.write("model.safetensors.index.json", R"({"weights": {}})");
    CHECK_THROWS_WITH(open_checkpoint(dir.path().string()), Contains("no 'weight_map' object"));
    // Without an index, the directory's shards: two that hold the same tensor.
    const floatscope::test::TempDir shards;
    shards.write("a.safetensors", safetensors("{" + one_f32 + "}", 16));
    shards.write("b.safetensors", safetensors("{" + one_f32 + "}", 16));
    CHECK_THROWS_WITH(open_checkpoint(shards.path().string()),
                      Contains("tensor 'w' is in") && Contains("a.safetensors and in") && Contains("b.safetensors"));
}

TEST_CASE("sharded safetensors: shards stay in the index's folder, by name and through links", "[weights]") {
    const floatscope::test::TempDir outside;
    const std::filesystem::path secret = outside.write("secret.safetensors", safetensors("{" + one_f32 + "}", 16));
    const floatscope::test::TempDir dir;
    const std::string folder = dir.path().string();
    const std::string index = "model.safetensors.index.json";
    for (const std::string& name : {std::string("../x.safetensors"), secret.string()}) {
        dir.write(index, R"({"weight_map": {"w": ")" + name + R"("}})");
        CHECK_THROWS_WITH(open_checkpoint(folder), Contains("weight_map shard '" + name + "' is not a path inside"));
    }
    // A link beside the index that leads out of its folder: refused as the index names it, and as
    // a shard of the folder without an index.
    std::filesystem::create_symlink(secret, dir.path() / "a.safetensors");
    dir.write(index, R"({"weight_map": {"w": "a.safetensors"}})");
    CHECK_THROWS_WITH(open_checkpoint(folder), Contains("'a.safetensors' leads outside the model's folder"));
    std::filesystem::remove(dir.path() / index);
    CHECK_THROWS_WITH(open_checkpoint(folder), Contains("'a.safetensors' leads outside the model's folder"));
    // A link to a file inside the folder reads.
    std::filesystem::remove(dir.path() / "a.safetensors");
    std::filesystem::create_directory(dir.path() / "blobs");
    dir.write("blobs/0a1b", safetensors("{" + one_f32 + "}", 16));
    std::filesystem::create_symlink("blobs/0a1b", dir.path() / "a.safetensors");
    CHECK(open_checkpoint(folder).tensors.size() == 1);
}

TEST_CASE("GGUF lies: header, metadata, tensor infos, offsets", "[weights]") {
    check_refused("GGUF" + le32(3) + le64(1), "truncated: metadata_kv_count needs 8 bytes at offset 16, 0 are left");
    check_refused(gguf({}, 0, {}, 4), "GGUF version 4 (readable: 2, 3)");
    check_refused(gguf({}, 0, {}, 0x03000000), "a big-endian GGUF file (version 3 byte-swapped)");
    check_refused("GGUF" + le32(3) + le64(std::uint64_t{1} << 40) + le64(0),
                  "tensor_count 1099511627776 cannot fit in the file");
    check_refused(gguf({{"w", {32, 1, 1, 1, 1}, 0, 0}}, 128), "tensor 'w': n_dims 5 (valid 1..4)");
    check_refused(gguf({{"w", {32}, 12, 0}}, 128), "tensor 'w': tensor type 12 is not supported");
    check_refused(gguf({{"w", {32, 2}, 0, 0}}, 128), "tensor 'w': offset 0 + 256 bytes end past the data (128 bytes");
    check_refused(gguf({{"w", {8}, 0, 4}}, 128), "tensor 'w': offset 4 is not a multiple of the alignment 32");
    // An empty tensor in a file that ends before the data's alignment padding (found by gguf_fuzz).
    check_refused(gguf({{"w", {0}, 0, 0}}, 0).substr(0, 57), "tensor 'w': offset 0 + 0 bytes end past the data");
    check_refused(gguf({{"w", {std::uint64_t{1} << 33, std::uint64_t{1} << 33}, 0, 0}}, 128),
                  "tensor 'w': the element count (shape) overflows 64 bits");
    check_refused(gguf({{"w", {48, 2}, 2, 0}}, 128), "tensor 'w': dims[0] = 48 is not a multiple of the Q4_0 block");
    check_refused(gguf({{"w", {16}, 0, 0}, {"v", {8}, 0, 32}}, 128), "overlaps tensor 'v'");
    check_refused(gguf({{"w", {8}, 0, 0}, {"w", {8}, 0, 32}}, 128), "tensor 'w' is named twice");
    // Names are refused past 65535 bytes before they are copied (a 3 GiB name took 9.2 GB).
    check_refused(gguf({{std::string(70000, 'w'), {8}, 0, 0}}, 128),
                  "tensor info 0 (name) is 70000 bytes long; names hold at most 65535");
    check_refused(gguf({}, 0, {gguf_string(std::string(70000, 'k')) + le32(8) + gguf_string("v")}),
                  "metadata key 0 is 70000 bytes long; names hold at most 65535");
    check_refused(gguf({}, 0, {gguf_string("k") + le32(13) + le32(0)}), "metadata 'k': unknown value type 13");
    check_refused(gguf({}, 0, {gguf_string("k") + le32(9) + le32(4) + le64(1000000)}),
                  "metadata 'k': array length 1000000 cannot fit");
    check_refused(gguf({}, 0, {gguf_string("k") + le32(8) + le64(1000)}), "metadata 'k' needs 1000 bytes");
    check_refused(gguf({}, 0, {gguf_string("general.alignment") + le32(4) + le32(12)}),
                  "alignment 12 is not a positive multiple of 8");
    std::string nested = gguf_string("k") + le32(9);
    for (int i = 0; i < 9; ++i) nested += le32(9) + le64(1);
    check_refused(gguf({}, 0, {nested + le32(4) + le64(1) + le32(0)}), "arrays nested deeper than 8");
}

TEST_CASE("a GGUF string value past a mebibyte is shown by its start and length", "[weights]") {
    const floatscope::test::TempDir dir;
    const std::string long_value = std::string(3 << 20, 'v');
    const std::string path =
        dir.write("long.gguf", gguf({}, 0, {gguf_string("k") + le32(8) + gguf_string(long_value)})).string();
    const auto checkpoint = open_checkpoint(path);
    REQUIRE(checkpoint.metadata.size() == 1);
    CHECK(checkpoint.metadata[0].second.size() < 300);
    CHECK_THAT(checkpoint.metadata[0].second, Contains("... (3145728 characters)"));
    // A chat template's few kilobytes stay whole.
    const std::string template_text = std::string(20000, 't');
    const std::string short_path =
        dir.write("short.gguf", gguf({}, 0, {gguf_string("k") + le32(8) + gguf_string(template_text)})).string();
    CHECK(open_checkpoint(short_path).metadata[0].second == template_text);
}
