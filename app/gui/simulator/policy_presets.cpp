// The presets follow the recipes of PyTorch AMP (autocast + GradScaler) and of NVIDIA's
// Transformer Engine FP8 "HYBRID" format (E4M3 forward, E5M2 gradients).
#include "app/gui/simulator/policy_presets.hpp"

#include "core/error.hpp"

namespace floatscope::gui {

namespace {

// Mixed precision as AMP does it: master weights (storage) and accumulators in fp32, products in the
// 16-bit format (Micikevicius et al., "Mixed Precision Training", ICLR 2018).
constexpr const char* fp16_amp = "fp16; storage=fp32; accumulate=fp32";

}  // namespace

const std::vector<PolicyPreset>& policy_presets() {
    static const std::vector<PolicyPreset> presets = {
        {"fp32 baseline", "every role in IEEE binary32", {{"fp32", {}}}},
        {"bf16 AMP",
         "bf16 products and outputs, fp32 master weights and accumulators (PyTorch autocast to bfloat16)",
         {{"name=bf16 AMP; bf16; storage=fp32; accumulate=fp32", {}}}},
        {"fp16 without loss scaling",
         "fp16 products, fp32 master weights and accumulators, no loss scaling (train-mlp: small gradients flush to "
         "zero)",
         {{std::string("name=fp16 AMP, no loss scaling; ") + fp16_amp, {{"loss-scaling", "false"}}}}},
        {"fp16 + loss scaling",
         "fp16 AMP with dynamic loss scaling as PyTorch's GradScaler (initial scale 2^16, train-mlp)",
         {{std::string("name=fp16 AMP + loss scaling; ") + fp16_amp, {{"loss-scaling", "true"}}}}},
        {"FP8 E4M3 fwd / E5M2 bwd",
         "train-mlp's FP8 recipe: E4M3 products forward, E5M2 gradients, per-tensor delayed scaling (Transformer "
         "Engine's HYBRID format), beside bf16 AMP",
         {{"name=bf16 AMP; bf16; storage=fp32; accumulate=fp32", {{"fp8", "false"}}},
          {"name=FP8 E4M3 fwd / E5M2 bwd; bf16; storage=fp32; accumulate=fp32", {{"fp8", "true"}}}}},
        {"INT4 vs NF4 vs FP4",
         "the quantize workload's 4-bit schemes on the same tensor, one per policy: INT4 (symmetric, groups of 64), "
         "NF4 (QLoRA, blocks of 64), bitsandbytes FP4 and OCP MXFP4 (E2M1, blocks of 32)",
         {{"name=INT4; fp32", {{"schemes", "int4"}}},
          {"name=NF4; fp32", {{"schemes", "nf4"}}},
          {"name=FP4 (bitsandbytes); fp32", {{"schemes", "bnb_fp4"}}},
          {"name=FP4 (MXFP4); fp32", {{"schemes", "mxfp4"}}}}},
    };
    return presets;
}

const PolicyPreset& find_policy_preset(const std::string& name) {
    std::string valid;
    for (const PolicyPreset& preset : policy_presets()) {
        if (preset.name == name) return preset;
        valid += (valid.empty() ? "" : ", ") + preset.name;
    }
    throw Error("unknown preset '" + name + "'; valid: " + valid);
}

std::vector<PolicyEntry> default_comparison() {
    std::vector<PolicyEntry> entries;
    for (const char* text : {"fp32", "bf16", "fp16", "fp8_e4m3", "bf16; accumulate=fp32", "fp8_e4m3; accumulate=fp32"})
        entries.push_back({text, {}});
    return entries;
}

}  // namespace floatscope::gui
