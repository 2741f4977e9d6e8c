// The weights workload on the NumPy writer's checkpoints: one region per tensor and scheme, the
// model's bytes per scheme worked by hand, sampling of leading rows, outlier channels, a Hugging Face
// Llama model against its llama.cpp GGUF conversion.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/weights/checkpoint.hpp"
#include "emulation/weights/llama_names.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/temp_dir.hpp"

namespace {

using namespace floatscope::emu;

const std::string folder = FLOATSCOPE_CHECKPOINTS;

/// region label -> metric -> value, for the regions of one kind.
using Table = std::map<std::string, std::map<std::string, double>>;

Table run_weights(const std::vector<std::string>& settings, const std::string& kind) {
    const Workload& w = find_workload("weights");
    const Parameters p = Parameters::parse(w.parameters(), settings);
    Trace trace;
    RunControl control;
    w.run(p, uniform_policy(floatscope::core::parse_format("fp32")), trace, control);
    Table table;
    for (const TraceRegion& r : trace.regions())
        if (r.kind == kind)
            for (const RegionMetric& m : r.metrics) table[r.label][m.name] = m.value;
    return table;
}

/// A safetensors file of one F32 tensor, rows x cols.
std::string f32_safetensors(const std::vector<float>& values, std::size_t rows, std::size_t cols) {
    const std::string header = "{\"w\":{\"dtype\":\"F32\",\"shape\":[" + std::to_string(rows) + "," +
                               std::to_string(cols) + "],\"data_offsets\":[0," + std::to_string(values.size() * 4) +
                               "]}}";
    std::string bytes(8, '\0');
    const std::uint64_t length = header.size();
    std::memcpy(bytes.data(), &length, 8);
    bytes += header;
    bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * 4);
    return bytes;
}

/// A file of raw little-endian binary64 values (the writer's expected/ files).
std::vector<double> read_f64(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    std::vector<double> values(static_cast<std::size_t>(in.tellg()) / 8);
    in.seekg(0);
    in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(values.size() * 8));
    return values;
}

/// The values of the tensor `name` of `c`, decoded.
std::vector<double> decoded(const Checkpoint& c, const std::string& name) {
    const auto t =
        std::find_if(c.tensors.begin(), c.tensors.end(), [&](const WeightTensor& w) { return w.name == name; });
    REQUIRE(t != c.tensors.end());
    std::vector<double> values(t->count);
    decode_elements(*t, 0, values);
    return values;
}

}  // namespace

TEST_CASE("weights: a region per tensor and scheme, GGUF's MXFP4 exact under OCP mxfp4", "[weights]") {
    const Table tensors = run_weights({"model=" + folder + "/blocks.gguf", "schemes=int8,mxfp4"}, "tensor");
    REQUIRE(tensors.size() == 9 * 2);
    // ggml's MXFP4 blocks are OCP MX blocks of 32 along the rows: FloatScope's mxfp4 stores them exactly.
    const auto& exact = tensors.at("blk.mxfp4.weight [mxfp4]");
    CHECK(exact.at("max_abs_error") == 0);
    CHECK(std::isinf(exact.at("sqnr_db")));
    const auto& q8 = tensors.at("blk.q8_0.weight [int8]");
    CHECK(q8.at("parameter_count") == 256);
    CHECK(q8.at("sampled_values") == 256);
    CHECK(q8.at("bits_per_value") == 8 + 32.0 * 4 / 256);
    CHECK(q8.at("sqnr_db") > 35);
    CHECK(q8.at("clipped_count") == 0);
}

TEST_CASE("weights: the memory table of the sharded model, worked by hand", "[weights]") {
    // Three 4 x 8 tensors and an 8-value norm: 104 parameters.
    const Table model = run_weights({"model=" + folder + "/sharded", "schemes=int8,int4,mxfp4"}, "model");
    REQUIRE(model.size() == 6);
    CHECK(model.at("fp32").at("model_bytes") == 416);
    CHECK(model.at("bf16").at("model_bytes") == 208);
    CHECK(model.at("fp16").at("model_bytes") == 208);
    CHECK(model.at("fp32").at("bits_per_value") == 32);
    // int8: 32 codes of 8 bits and 4 FP32 row scales per tensor; the norm at 16 bits.
    CHECK(model.at("int8").at("model_bytes") == (3 * (32 * 8 + 4 * 32) + 8 * 16) / 8.0);
    CHECK(model.at("int4").at("model_bytes") == (3 * (32 * 4 + 4 * 32) + 8 * 16) / 8.0);
    // mxfp4: one block of 32 FP4 codes and an E8M0 scale per tensor.
    CHECK(model.at("mxfp4").at("model_bytes") == (3 * (32 * 4 + 8) + 8 * 16) / 8.0);
    CHECK(model.at("mxfp4").at("bits_per_value") == (3 * (32 * 4 + 8) + 8 * 16) / 104.0);
    CHECK(model.at("int8").at("parameter_count") == 104);
}

TEST_CASE("weights: leading rows up to max-values, tensor globs, outlier channels", "[weights]") {
    // 16 rows of 32: rows 3 and 7 ten times the others (outliers at factor 6), row 5 five times (not).
    std::vector<float> values(16 * 32, 0.5F);
    for (std::size_t j = 0; j < 32; ++j) values[3 * 32 + j] = values[7 * 32 + j] = 5, values[5 * 32 + j] = 2.5F;
    const floatscope::test::TempDir dir;
    const std::string path = dir.write("o.safetensors", f32_safetensors(values, 16, 32)).string();
    const Table all = run_weights({"model=" + path, "schemes=int8"}, "tensor");
    CHECK(all.at("w [int8]").at("outlier_channels") == 2);
    const Table leading = run_weights({"model=" + path, "schemes=int8", "max-values=100"}, "tensor");
    CHECK(leading.at("w [int8]").at("sampled_values") == 96);  // 3 rows of 32
    CHECK(leading.at("w [int8]").at("outlier_channels") == 0);  // rows 0..2
    const Table few = run_weights({"model=" + folder + "/sharded", "schemes=int8", "tensors=layers.*,emb*"}, "tensor");
    CHECK(few.size() == 3);
    CHECK(few.count("layers.1.weight [int8]") == 1);
}

TEST_CASE("weights: against a reference, the values and blocks that differ and by how many ulps", "[weights]") {
    // 2 rows of 64 values 1 + i/128; the model has value 5 one fp32 ulp (2^-23) up, value 104 (row 1,
    // its second block of 32) three.
    std::vector<float> reference(128);
    for (std::size_t i = 0; i < reference.size(); ++i) reference[i] = 1 + static_cast<float>(i % 128) / 128;
    std::vector<float> model = reference;
    model[5] += 0x1p-23F;
    model[104] += 3 * 0x1p-23F;
    const floatscope::test::TempDir dir;
    const std::string m = dir.write("m.safetensors", f32_safetensors(model, 2, 64)).string();
    const std::string r = dir.write("r.safetensors", f32_safetensors(reference, 2, 64)).string();
    const Table d = run_weights({"model=" + m, "reference=" + r, "schemes=int8"}, "reference");
    REQUIRE(d.size() == 1);
    const auto& w = d.at("w");
    CHECK(w.at("differing_values") == 2);
    CHECK(w.at("block_count") == 4);
    CHECK(w.at("differing_blocks") == 2);
    CHECK(w.at("ulp_difference_max") == 3);
    CHECK(w.at("max_abs_error") == 3 * 0x1p-23);
    const Table rows = run_weights({"model=" + m, "reference=" + r, "schemes=int8", "reference-block=64"}, "reference");
    CHECK(rows.at("w").at("block_count") == 2);
    CHECK(rows.at("w").at("differing_blocks") == 2);
    // A GGUF file against itself: nothing differs; its block tensors have no ulp of their own.
    const std::string gguf = folder + "/blocks.gguf";
    const Table same = run_weights({"model=" + gguf, "reference=" + gguf, "schemes=int8"}, "reference");
    REQUIRE(same.size() == 9);
    CHECK(same.at("blk.q4_0.weight").at("differing_values") == 0);
    CHECK(same.at("blk.q4_0.weight").count("ulp_difference_max") == 0);
    CHECK(same.at("blk.f16.weight").at("ulp_difference_max") == 0);
    // Same name, other shape.
    const std::string wide = dir.write("wide.safetensors", f32_safetensors(reference, 1, 128)).string();
    CHECK_THROWS_WITH(run_weights({"model=" + m, "reference=" + wide}, "reference"),
                      Catch::Contains("tensor 'w' has shape [2, 64] in the model, [1, 128] in the reference"));
}

TEST_CASE("weights: no model, no matching tensor, a bad scheme", "[weights]") {
    const Workload& w = find_workload("weights");
    const auto check = [&](const std::vector<std::string>& settings) {
        w.check(Parameters::parse(w.parameters(), settings));
    };
    CHECK_THROWS_WITH(check({}), Catch::Contains("give the checkpoint with --set model=FILE|DIR"));
    CHECK_THROWS_WITH(check({"model=" + folder + "/sharded", "tensors=norm*"}),
                      Catch::Contains("no tensor of 2 or more dimensions") && Catch::Contains("norm.weight"));
    CHECK_THROWS_WITH(check({"model=" + folder + "/sharded", "schemes=int8,fp18"}), Catch::Contains("weights: "));
}

TEST_CASE("weights: Hugging Face names against llama.cpp's GGUF names, the Q/K rows put back", "[weights]") {
    const std::string llama = folder + "/llama";
    const std::string hf = llama + "/model.safetensors";
    const std::string gguf = llama + "/model-f32.gguf";
    const std::string q8 = "model.layers.1.self_attn.q_proj.weight ~ blk.1.attn_q.weight";
    // The Q8_0 tensor differs as its quantization does: the writer's dequantized values against the originals.
    const Checkpoint original = open_checkpoint(hf);
    const std::vector<double> x = decoded(original, "model.layers.1.self_attn.q_proj.weight");
    const std::vector<double> dequantized = read_f64(llama + "/expected/q8_0.blk.1.attn_q.weight.f64");
    REQUIRE(dequantized.size() == x.size());
    double differing = 0;
    double largest = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        differing += x[i] != dequantized[i] ? 1 : 0;
        largest = std::max(largest, std::fabs(x[i] - dequantized[i]));
    }
    REQUIRE(differing > 0);
    for (const auto& [model, reference] : {std::pair{hf, gguf}, std::pair{gguf, hf}}) {
        const bool from_hf = model == hf;
        const Table d = run_weights({"model=" + model, "reference=" + reference, "schemes=int8"}, "reference");
        // Every tensor of 2 dimensions: the embedding, 7 per layer, the output.
        REQUIRE(d.size() == 16);
        for (const auto& [label, metrics] : d) {
            INFO(label);
            CHECK(label.find(" ~ ") != std::string::npos);
            if (label == q8 || label == "blk.1.attn_q.weight ~ model.layers.1.self_attn.q_proj.weight") {
                CHECK(metrics.at("differing_values") == differing);
                CHECK(metrics.at("max_abs_error") == largest);
            } else {
                CHECK(metrics.at("differing_values") == 0);
            }
        }
        CHECK(d.count(from_hf ? "model.layers.0.self_attn.k_proj.weight ~ blk.0.attn_k.weight"
                              : "blk.0.attn_k.weight ~ model.layers.0.self_attn.k_proj.weight") == 1);
        CHECK(d.count(from_hf ? "lm_head.weight ~ output.weight" : "output.weight ~ lm_head.weight") == 1);
    }
    // Leading rows only (10 of q_proj's 64: HF row 8 is GGUF row 1): still the same values.
    const Table few = run_weights({"model=" + hf, "reference=" + gguf, "schemes=int8", "max-values=640"}, "reference");
    CHECK(few.at("model.layers.0.self_attn.q_proj.weight ~ blk.0.attn_q.weight").at("sampled_values") == 640);
    CHECK(few.at("model.layers.0.self_attn.q_proj.weight ~ blk.0.attn_q.weight").at("differing_values") == 0);
    CHECK(few.at("model.layers.0.self_attn.k_proj.weight ~ blk.0.attn_k.weight").at("differing_values") == 0);
    // The GGUF file's Q rows are in another order: compared row for row they would differ.
    const Checkpoint converted = open_checkpoint(gguf);
    CHECK(decoded(converted, "blk.0.attn_q.weight") != decoded(original, "model.layers.0.self_attn.q_proj.weight"));
    // Without the heads in the metadata, or with a transposed tensor: refused, naming the tensor.
    CHECK_THROWS_WITH(
        run_weights({"model=" + hf, "reference=" + llama + "/model-no-kv-heads.gguf"}, "reference"),
        Catch::Contains("tensor 'blk.0.attn_k.weight'") && Catch::Contains("'llama.attention.head_count_kv'"));
    CHECK_THROWS_WITH(
        run_weights({"model=" + hf, "reference=" + llama + "/model-bad-shape.gguf"}, "reference"),
        Catch::Contains("tensor 'model.layers.0.mlp.down_proj.weight' has shape [64, 128] in the model, [128, 64]") &&
            Catch::Contains("'blk.0.ffn_down.weight'"));
}

TEST_CASE("weights: the Llama name map both ways, llama.cpp's row order and its inverse", "[weights]") {
    const auto other = [](std::string_view name) {
        const auto c = llama_counterpart(name);
        return c ? c->name : std::string("-");
    };
    CHECK(other("model.embed_tokens.weight") == "token_embd.weight");
    CHECK(other("token_embd.weight") == "model.embed_tokens.weight");
    CHECK(other("model.layers.12.self_attn.o_proj.weight") == "blk.12.attn_output.weight");
    CHECK(other("blk.3.ffn_norm.weight") == "model.layers.3.post_attention_layernorm.weight");
    CHECK(other("model.layers.0.input_layernorm.weight") == "blk.0.attn_norm.weight");
    CHECK(other("output_norm.weight") == "model.norm.weight");
    CHECK(other("lm_head.weight") == "output.weight");
    CHECK(other("blk.7.ffn_gate.weight") == "model.layers.7.mlp.gate_proj.weight");
    CHECK(llama_counterpart("blk.0.attn_k.weight")->rows == LlamaRowOrder::Key);
    CHECK(llama_counterpart("model.layers.0.self_attn.q_proj.weight")->rows == LlamaRowOrder::Query);
    CHECK(llama_counterpart("blk.0.attn_v.weight")->rows == LlamaRowOrder::Same);
    CHECK(other("model.layers.01.self_attn.q_proj.weight") == "-");
    CHECK(other("blk.x.attn_q.weight") == "-");
    CHECK(other("blk.0.attn_q.bias") == "-");
    CHECK(other("model.layers.0.self_attn.q_proj") == "-");
    // 2 heads of 8 rows: HF rows 0..3 (first halves) go to even GGUF rows, 4..7 to odd ones.
    CHECK(gguf_row_of_hf_row(0, 16, 2) == 0);
    CHECK(gguf_row_of_hf_row(1, 16, 2) == 2);
    CHECK(gguf_row_of_hf_row(4, 16, 2) == 1);
    CHECK(gguf_row_of_hf_row(15, 16, 2) == 15);
    CHECK(gguf_row_of_hf_row(12, 16, 2) == 9);
    for (std::uint64_t r = 0; r < 64; ++r) CHECK(hf_row_of_gguf_row(gguf_row_of_hf_row(r, 64, 4), 64, 4) == r);
}
