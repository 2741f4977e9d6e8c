// Tests of accumulation_model.hpp and accumulation_presets.hpp: validation, names, the preset table.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/accumulation_model.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"

using namespace floatscope;
using emu::AccumulationModel;
using emu::AccumulationOrder;

namespace {

AccumulationModel bf16_model() { return emu::find_accumulation_preset("bf16_fp32").model; }

std::string validation_message(const AccumulationModel& m) {
    try {
        emu::validate(m);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("every preset is valid, named once, and says where its parameters come from") {
    const auto& presets = emu::accumulation_presets();
    std::set<std::string> names;
    for (const auto& preset : presets) {
        INFO(preset.name);
        CHECK_NOTHROW(emu::validate(preset.model));
        CHECK(names.insert(preset.name).second);
        CHECK(!preset.summary.empty());
        CHECK(preset.help.size() > 80);
        CHECK(&emu::find_accumulation_preset(preset.name) == &preset);
        if (preset.kind == emu::PresetKind::Hardware)
            CHECK((preset.help.find("Assumed") != std::string::npos ||
                   preset.help.find("Not modelled") != std::string::npos));
    }
    for (const char* name : {"fp32",
                             "bf16_fp32",
                             "fp16",
                             "fp16_fp32",
                             "tf32",
                             "tf32_rtz",
                             "fp8_e4m3",
                             "fp8_e5m2",
                             "nvidia_v100_fp16",
                             "nvidia_a100_fp16",
                             "nvidia_a100_bf16",
                             "nvidia_a100_tf32",
                             "nvidia_h100_fp16",
                             "nvidia_h100_bf16",
                             "nvidia_h100_tf32",
                             "nvidia_h100_fp8_e4m3",
                             "nvidia_b200_mxfp8",
                             "nvidia_b200_mxfp8_e5m2",
                             "nvidia_b200_mxfp6_e2m3",
                             "nvidia_b200_mxfp6_e3m2",
                             "nvidia_b200_mxf8f6f4_e2m1",
                             "nvidia_b200_mxfp4",
                             "nvidia_b200_mxfp4_4x",
                             "nvidia_b200_nvfp4",
                             "nvidia_h100_fp8_e5m2",
                             "google_tpu_mxu_bf16",
                             "intel_amx_bf16",
                             "intel_amx_int8",
                             "amd_mi300_fp8_e4m3fnuz",
                             "amd_mi300_fp8_e5m2fnuz"})
        CHECK(names.count(name) == 1);
}

TEST_CASE("the published parameters are the presets' defaults") {
    const auto v100 = emu::find_accumulation_preset("nvidia_v100_fp16").model;
    CHECK(v100.order == AccumulationOrder::BlockFma);
    CHECK(v100.block_size == 4);
    CHECK(v100.alignment_extra_bits == 0);
    CHECK(v100.accumulator.mode == core::RoundingMode::TowardZero);
    CHECK(v100.x.rounding.format.name == "fp16");
    CHECK(emu::find_accumulation_preset("nvidia_a100_bf16").model.block_size == 8);
    CHECK(emu::find_accumulation_preset("nvidia_a100_tf32").model.block_size == 4);
    const auto fp8 = emu::find_accumulation_preset("fp8_e4m3").model;
    CHECK(fp8.order == AccumulationOrder::Blocked);
    CHECK(fp8.block_size == 128);
    CHECK(fp8.accumulator.format.mantissa_bits + 1 == 14);
    CHECK(fp8.accumulator.format.exponent_bits == 8);
    const auto tf32 = emu::find_accumulation_preset("tf32").model;
    CHECK(tf32.x.rounding.mode == core::RoundingMode::NearestAway);
    CHECK(emu::find_accumulation_preset("tf32_rtz").model.x.rounding.mode == core::RoundingMode::TowardZero);
    CHECK(emu::find_accumulation_preset("amd_mi300_fp8_e4m3fnuz").model.x.rounding.format.nan_encoding ==
          core::NanEncoding::NegativeZero);
    // Khattak and Mikaitis's per-GPU models, which these GPUs' data confirm (tensor_core_data_test).
    for (const char* gpu : {"a2", "h200", "l40s", "b200"})
        for (const char* input : {"fp16", "bf16", "tf32"}) {
            const auto& preset = emu::find_accumulation_preset(std::string("nvidia_") + gpu + "_" + input);
            CHECK(preset.evidence == emu::PresetEvidence::HardwareData);
            CHECK(preset.help.find("Validated") != std::string::npos);
        }
    const auto l40s_fp8 = emu::find_accumulation_preset("nvidia_l40s_fp8_e4m3").model;
    CHECK(l40s_fp8.block_size == 16);
    CHECK(l40s_fp8.accumulator.format.mantissa_bits == 13);
    // B200 FP8: C added after the products (their model put it inside one block of 32, to nearest).
    const auto b200_fp8 = emu::find_accumulation_preset("nvidia_b200_fp8_e5m2").model;
    CHECK(b200_fp8.block_size == 16);
    CHECK(b200_fp8.products_first_k == 32);
    CHECK(b200_fp8.alignment_extra_bits == 2);
    CHECK(b200_fp8.accumulator.mode == core::RoundingMode::TowardZero);
    CHECK(b200_fp8.output.mode == core::RoundingMode::NearestEven);
    CHECK(emu::find_accumulation_preset("nvidia_h100_fp8_e4m3").evidence == emu::PresetEvidence::HardwareData);
    const auto custom = emu::fp8_promoted_model("fp8_e5m2", 12, 64, 0.5, 2);
    CHECK(custom.accumulator.format.mantissa_bits == 11);
    CHECK(custom.block_size == 64);
    CHECK(custom.x.scale == 0.5);
}

TEST_CASE("an unknown preset name is an error that lists the valid names") {
    try {
        emu::find_accumulation_preset("nvidia_b300_fp4");
        FAIL("no exception");
    } catch (const Error& e) {
        const std::string message = e.what();
        CHECK(message.find("nvidia_b300_fp4") != std::string::npos);
        CHECK(message.find("bf16_fp32") != std::string::npos);
        CHECK(message.find("nvidia_a100_tf32") != std::string::npos);
    }
}

TEST_CASE("validation names the field and the valid choices") {
    // fp64 inputs: taken by the sequential, pairwise and blocked orders, refused by a tensor core's.
    AccumulationModel m = bf16_model();
    m.x.rounding.format = core::parse_format("fp64");
    CHECK(validation_message(m).empty());
    m = emu::find_accumulation_preset("nvidia_v100_fp16").model;
    m.x.rounding.format = core::parse_format("fp64");
    CHECK(validation_message(m).find("x:") != std::string::npos);
    CHECK(validation_message(m).find("at most 26") != std::string::npos);

    m = bf16_model();
    m.y.scale = 0.1;  // not a float
    CHECK(validation_message(m).find("y.scale") != std::string::npos);
    m.y.scale = -2;
    CHECK(validation_message(m).find("y.scale") != std::string::npos);

    m = bf16_model();
    m.order = AccumulationOrder::Blocked;
    m.combine = m.accumulator;
    m.block_size = 0;
    CHECK(validation_message(m).find("block_size") != std::string::npos);

    m = bf16_model();
    m.accumulator.mode = core::RoundingMode::Stochastic;
    CHECK(validation_message(m).find("stochastic") != std::string::npos);

    m = bf16_model();
    m.order = AccumulationOrder::Pairwise;
    m.compensated = true;
    CHECK(validation_message(m).find("compensated") != std::string::npos);

    m = emu::find_accumulation_preset("nvidia_v100_fp16").model;
    m.alignment_extra_bits = 40;
    CHECK(validation_message(m).find("alignment_extra_bits") != std::string::npos);
    m.alignment_extra_bits = -24;
    CHECK(validation_message(m).find("alignment_extra_bits") != std::string::npos);
    m.alignment_extra_bits = 0;
    m.multiply_add = emu::MultiplyAdd::Separate;
    m.product = m.accumulator;
    CHECK(validation_message(m).find("multiply_add") != std::string::npos);

    m = bf16_model();
    m.accumulator.format = core::parse_format("nf4");
    CHECK(validation_message(m).find("accumulator") != std::string::npos);
}

TEST_CASE("order and multiply-add names round-trip, unknown names list the valid ones") {
    for (AccumulationOrder order : {AccumulationOrder::Sequential, AccumulationOrder::Pairwise,
                                    AccumulationOrder::Blocked, AccumulationOrder::BlockFma})
        CHECK(emu::parse_accumulation_order(emu::to_string(order)) == order);
    CHECK_THROWS_WITH(emu::parse_accumulation_order("tree"), Catch::Contains("sequential pairwise blocked block-fma"));
    CHECK(emu::parse_multiply_add("separate") == emu::MultiplyAdd::Separate);
    CHECK_THROWS_WITH(emu::parse_multiply_add("fms"), Catch::Contains("fused separate"));
}

TEST_CASE("describe says what the model does") {
    const std::string text = emu::describe(emu::find_accumulation_preset("fp8_e4m3").model);
    CHECK(text.find("fp8_e4m3(rne)") != std::string::npos);
    CHECK(text.find("e8m13(rtz)") != std::string::npos);
    CHECK(text.find("blocks of 128 combined in fp32(rne)") != std::string::npos);
    CHECK(emu::describe(emu::find_accumulation_preset("nvidia_a100_bf16").model).find("block FMA of 8") !=
          std::string::npos);
}
