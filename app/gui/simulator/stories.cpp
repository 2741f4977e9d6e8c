// The seed's stories as runner setups. Sizes are chosen so that each runs in seconds (the
// training stories in about 10 s).
#include "app/gui/simulator/stories.hpp"

#include "core/error.hpp"

namespace floatscope::gui {

namespace {

/// train-mlp on a Fashion-MNIST subset, three seeds: about 10 s per story on a 2-core Xeon (the
/// run's estimate stays below long_run_seconds), and differences larger than the seeds' spread.
std::map<std::string, std::string> fashion_training(std::map<std::string, std::string> settings) {
    settings.insert({{"dataset", "fashion-mnist"},
                     {"train-size", "2000"},
                     {"test-size", "1000"},
                     {"epochs", "2"},
                     {"seeds", "3"},
                     {"log-every", "8"}});
    return settings;
}

// The training stories' policies: short names, so that "name: layer 1" fits a legend at 1024 pixels.
constexpr const char* fp16_amp = "fp16; storage=fp32; accumulate=fp32";
constexpr const char* bf16_amp = "bf16; storage=fp32; accumulate=fp32";

/// fp16 AMP (the presets "fp16 without loss scaling" and "fp16 + loss scaling").
std::vector<PolicyEntry> loss_scaling_policies() {
    return {{std::string("name=no scaling; ") + fp16_amp, {{"loss-scaling", "false"}}},
            {std::string("name=loss scaling; ") + fp16_amp, {{"loss-scaling", "true"}}}};
}

/// bf16 AMP, and FP8 (the preset "FP8 E4M3 fwd / E5M2 bwd") with and without delayed scaling.
std::vector<PolicyEntry> fp8_policies() {
    return {{std::string("name=bf16; ") + bf16_amp, {{"fp8", "false"}}},
            {std::string("name=FP8 delayed; ") + bf16_amp, {{"fp8", "true"}}},
            {std::string("name=FP8 unscaled; ") + bf16_amp, {{"fp8", "true"}, {"fp8-scaling", "none"}}}};
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
         "fp16 AMP on 2000 Fashion-MNIST images, 3 seeds: without loss scaling, weight gradients below fp16's "
         "smallest subnormal 2^-24 flush to zero, about 2% of the output layer's and 0.2% of the first layer's by "
         "epoch 2, more as the model grows confident; GradScaler's 2^16 keeps nearly all. The lost gradients are "
         "the smallest: test accuracy (0.73 without, 0.71 with) differs by less than the seeds' spread.",
         {"train-mlp", fashion_training({{"learning-rate", "0.1"}}), loss_scaling_policies()},
         "grad_underflow"},
        {"fp8-recipe",
         "FP8 with and without delayed scaling",
         "E4M3 products forward, E5M2 gradients, on 2000 Fashion-MNIST images, 3 seeds. Cast unscaled, gradients "
         "below E5M2's smallest subnormal 2^-16 flush to zero: about 6% of the output layer's, 1% of the first "
         "layer's. Delayed scaling (each tensor divided by its recent amax over the format's largest) loses almost "
         "none, as bf16 AMP. Test accuracy (0.70 to 0.72) stays within the seeds' spread.",
         {"train-mlp", fashion_training({{"learning-rate", "0.1"}, {"loss-scaling", "false"}}), fp8_policies()},
         "grad_underflow"},
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
