// The seed's stories as runner setups. Sizes are chosen so that each runs in seconds.
#include "app/gui/simulator/stories.hpp"

#include "app/gui/simulator/policy_presets.hpp"
#include "core/error.hpp"

namespace floatscope::gui {

namespace {

/// train-mlp on its synthetic dataset, small: the workload's own tests use the same sizes.
std::map<std::string, std::string> small_training() {
    return {{"dataset", "synthetic"}, {"train-size", "1024"}, {"test-size", "256"}, {"hidden", "32"},
            {"batch-size", "32"},     {"epochs", "3"},        {"log-every", "8"}};
}

std::vector<PolicyEntry> preset_policies(std::initializer_list<const char*> names) {
    std::vector<PolicyEntry> entries;
    for (const char* name : names)
        for (const PolicyEntry& entry : find_policy_preset(name).policies) entries.push_back(entry);
    return entries;
}

}  // namespace

const std::vector<Story>& stories() {
    static const std::vector<Story> all = {
        {"fp16-overflow",
         "10k x 10k in FP16",
         "10^4 x 10^4 = 10^8 is far above fp16's largest finite 65504: the product is inf, inf - inf and 0 x inf "
         "are NaN, and the NaN runs through every later step. bf16 and fp32 hold the product; e4m3 has no inf "
         "and turns it into NaN at once.",
         {"overflow-demo", {}, {{"fp16", {}}, {"bf16", {}}, {"fp8_e4m3", {}}, {"fp32", {}}}},
         "nan_fraction"},
        {"loss-scaling",
         "Gradients underflow without loss scaling",
         "Training in fp16 without loss scaling: small gradients fall below fp16's smallest subnormal 2^-24 and "
         "become zero. With dynamic loss scaling (GradScaler, 2^16) they stay representable.",
         {"train-mlp", small_training(), preset_policies({"fp16 without loss scaling", "fp16 + loss scaling"})},
         "grad_underflow"},
        {"fp8-recipe",
         "FP8: E4M3 forward, E5M2 backward",
         "The FP8 recipe: products forward in E4M3 (more precision), gradients in E5M2 (more range), each tensor "
         "scaled from its recent maximum. The loss follows bf16 AMP's closely.",
         {"train-mlp", small_training(), preset_policies({"FP8 E4M3 fwd / E5M2 bwd"})},
         "loss"},
        {"harmonic-stall",
         "Harmonic series stalls",
         "Summing 1/i naively: in fp16 the sum stops growing at 7.0859375 from n = 513, in bf16 at 5.0625 from "
         "n = 65, because each new term is below half an ulp of the sum. fp32 keeps growing.",
         {"sum",
          {{"series", "harmonic"}, {"method", "naive"}, {"n", "4096"}},
          {{"fp16", {}}, {"bf16", {}}, {"fp32", {}}}},
         "error_growth_normwise_rel_error"},
        {"int4-nf4-fp4",
         "INT4 vs NF4 vs FP4 on the same weights",
         "One normally distributed weight tensor in each 4-bit scheme: NF4's code values are quantiles of the normal "
         "distribution, so it keeps the most signal; INT4 spends codes evenly, FP4 on a wide range. MXFP4 shares one "
         "power-of-two scale per 32 values (4.25 bits per value), NVFP4 an E4M3 scale per 16 (4.5 bits).",
         {"quantize", {{"distribution", "normal"}, {"schemes", "int4,nf4,bnb_fp4,mxfp4,nvfp4"}}, {{"fp32", {}}}},
         "quantization_sqnr_db"},
        {"iterative-refinement",
         "Mixed-precision iterative refinement",
         "LU factors in a low format, residuals in a high one (Carson and Higham 2018): with kappa = 100 fp16 and "
         "bf16 factors still converge to the working precision fp32; each iteration gains about -log10(kappa u_f) "
         "digits.",
         {"iterative-refinement",
          {{"n", "50"}, {"kappa", "100"}, {"max-iterations", "10"}},
          {{"name=fp16 LU; fp32; compute=fp16; accumulate=fp64", {}},
           {"name=bf16 LU; fp32; compute=bf16; accumulate=fp64", {}},
           {"name=fp32 throughout; fp32", {}}}},
         "refinement"},
    };
    return all;
}

const Story& find_story(const std::string& name) {
    std::string valid;
    for (const Story& story : stories()) {
        if (story.name == name) return story;
        valid += (valid.empty() ? "" : ", ") + story.name;
    }
    throw Error("unknown story '" + name + "'; valid stories: " + valid);
}

}  // namespace floatscope::gui
