// The preset table: each model with the published source of its parameters and its assumptions.
#include "emulation/accumulation/accumulation_presets.hpp"

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"

namespace floatscope::emu {

namespace {

using core::RoundingMode;

core::FormatRounding rounding(std::string_view format, RoundingMode mode = RoundingMode::NearestEven) {
    return {core::parse_format(format), mode};
}

/// x and y rounded to `input`, exact products, sequential accumulation and output in `accumulator`.
AccumulationModel sequential_model(std::string_view input, RoundingMode input_mode, std::string_view accumulator) {
    AccumulationModel m;
    m.x.rounding = rounding(input, input_mode);
    m.y.rounding = m.x.rounding;
    m.accumulator = rounding(accumulator);
    m.output = m.accumulator;
    return m;
}

// Sources cited below, by short name in the help texts:
//  Fasi et al. 2021: M. Fasi, N. J. Higham, M. Mikaitis, S. Pranesh, "Numerical behavior of NVIDIA
//    tensor cores", PeerJ Computer Science 7:e330, 2021, and its test suite
//    (github.com/north-numerical-computing/tensor-cores-numerical-behavior).
//  Khattak and Mikaitis 2025: F. A. Khattak, M. Mikaitis, "Accurate Models of NVIDIA Tensor Cores",
//    arXiv:2512.07004, 2025, and its models (github.com/north-numerical-computing/MATLAB-tensor-core).
//  DeepSeek-V3 2024: DeepSeek-AI, "DeepSeek-V3 Technical Report", arXiv:2412.19437, section 3.3.2.

constexpr const char* fasi =
    "Fasi, Higham, Mikaitis and Pranesh, \"Numerical behavior of NVIDIA tensor cores\", "
    "PeerJ Computer Science 7:e330 (2021)";
constexpr const char* khattak =
    "Khattak and Mikaitis, \"Accurate Models of NVIDIA Tensor Cores\", "
    "arXiv:2512.07004 (2025), and their MATLAB-tensor-core models";
constexpr const char* deepseek = "DeepSeek-V3 Technical Report (DeepSeek-AI, arXiv:2412.19437, 2024), section 3.3.2";
constexpr const char* validated =
    "Validated: reproduces bit for bit all 5000 GPU outputs of D = A B + C (one instruction, K = {}) that "
    "Khattak and Mikaitis published with the paper, for fp32 output{} (scripts/tensor-core-data.sh; a "
    "subset in tests/data/tensor-cores).";
constexpr const char* product_alignment =
    "Each product aligns at the sum of its operands' exponents e(a) + e(b), not at its own: a "
    "significand product in [2, 4) keeps the bit above (Khattak and Mikaitis 2025).";
constexpr const char* block_order_assumption =
    "Assumed: blocks follow each other in increasing k, the fp32 accumulator carried from one block "
    "to the next (as a loop of mma instructions over k does), inputs converted with round to nearest even.";

//  MMA-Sim 2025: P. Xie, Y. Wang, F. Yang, M. Yang, "MMA-Sim: Bit-Accurate Reference Model of Tensor
//    Cores and Matrix Cores", arXiv:2511.10909, 2025, and its simulator (github.com/microsoft/MMA-Sim).
constexpr const char* mma_sim =
    "Xie, Wang, Yang and Yang, \"MMA-Sim: Bit-Accurate Reference Model of Tensor Cores and Matrix Cores\", "
    "arXiv:2511.10909 (2025), and their simulator";
constexpr const char* amd_unvalidated =
    "Not validated against this GPU's outputs here (no AMD data were at hand); MMA-Sim reports its models "
    "bitwise equal to the hardware on its own tests.";

/// AMD CDNA1/2 (MI100, MI250): products rounded to fp32, summed pairwise in groups of `group`, each
/// group added to the running fp32 sum; `flushing` (CDNA2) flushes subnormal inputs and results.
AccumulationModel amd_pairwise_model(std::string_view input, int group, bool flushing) {
    const std::string suffix = flushing ? ":ftz" : "";
    AccumulationModel m;
    m.x.rounding = rounding(std::string(input) + suffix);
    m.y.rounding = m.x.rounding;
    m.multiply_add = MultiplyAdd::Separate;
    m.product = rounding("fp32" + suffix);
    m.accumulator = m.product;
    m.order = AccumulationOrder::Blocked;
    m.block_order = AccumulationOrder::Pairwise;
    m.block_size = group;
    m.combine = m.product;
    m.output = rounding("fp32");
    return m;
}

/// AMD CDNA3 (MI300): the two-stage block FMA of two_stage_block_fma.hpp, 24 fraction bits, rne.
AccumulationModel amd_two_stage_model(std::string_view input, RoundingMode input_mode, int block, int groups) {
    AccumulationModel m = tensor_core_model(input, input_mode, block, 1, RoundingMode::NearestEven);
    m.order = AccumulationOrder::TwoStageBlockFma;
    m.product_groups = groups;
    return m;
}

template <typename Add>
void add_amd_presets(const Add& add) {
    const RoundingMode rne = RoundingMode::NearestEven;
    const std::string order =
        "Assumed: a K longer than one instruction chains instructions along k in increasing order, D the next C.";
    struct Pairwise {
        const char* gpu;
        const char* title;
        bool flushing;
        const char* input;
        const char* suffix;
        int group;
        int k;
        const char* instruction;
    };
    for (const Pairwise& q : std::initializer_list<Pairwise>{
             {"mi100", "AMD MI100 (CDNA1)", false, "fp16", "", 4, 8, "v_mfma_f32_32x32x8f16"},
             {"mi100", "AMD MI100 (CDNA1)", false, "bf16", "", 2, 4, "v_mfma_f32_32x32x4bf16"},
             {"mi250", "AMD MI250 (CDNA2)", true, "fp16", "", 4, 8, "v_mfma_f32_32x32x8f16"},
             {"mi250", "AMD MI250 (CDNA2)", true, "bf16", "", 2, 4, "v_mfma_f32_32x32x4bf16"},
             {"mi250", "AMD MI250 (CDNA2)", true, "bf16", "_1k", 4, 8, "v_mfma_f32_32x32x8bf16_1k"},
         }) {
        const std::string revision =
            q.flushing ? ""
                       : " A later revision of the simulator sums each CDNA1 group and C exactly and rounds once "
                         "instead; this preset follows the pairwise tree of the first.";
        const std::string flush =
            q.flushing ? " CDNA2 flushes subnormals: inputs and C to zero, every product and sum to a zero of its "
                         "sign. Assumed: a flushed input or C is a zero of its own sign (the simulator makes it +0; "
                         "the two differ only in the sign of an all-zero result)."
                       : "";
        add(fmt::format("amd_{}_{}{}", q.gpu, q.input, q.suffix), PresetKind::Hardware,
            fmt::format("{} matrix core, {} inputs, pairwise fp32 trees of {}", q.title, q.input, q.group),
            fmt::format("The {} model of {} ({}, K = {}): each product rounded to fp32, the products of a group of "
                        "{} summed pairwise with fp32 additions (round to nearest even), each group's sum then added "
                        "to the running fp32 sum, which starts from C.{}{} {} {}",
                        q.title, mma_sim, q.instruction, q.k, q.group, flush, revision, amd_unvalidated, order),
            amd_pairwise_model(q.input, q.group, q.flushing), PresetEvidence::Paper, q.k);
    }
    const std::string two_stage =
        "the products of a group aligned at the sum of their operands' exponents and truncated to 24 fraction bits "
        "below the largest, their sum and C then aligned together, the sum rounded down to 31 fraction bits and C to "
        "24 (round toward minus infinity: the asymmetric rounding MMA-Sim reports), the exact total rounded to fp32 "
        "with round to nearest even";
    struct TwoStage {
        const char* input;
        RoundingMode input_mode;
        int block;
        int groups;
        int k;
        const char* instruction;
        const char* note;
    };
    for (const TwoStage& t : std::initializer_list<TwoStage>{
             {"fp16", rne, 8, 1, 16, "v_mfma_f32_16x16x16_f16", ""},
             {"bf16", rne, 8, 1, 16, "v_mfma_f32_16x16x16_bf16", ""},
             {"xf32", RoundingMode::TowardZero, 4, 1, 8, "v_mfma_f32_16x16x8_xf32",
              " xf32 is tf32 (e8m10): fp32 operands lose their 13 low bits by truncation."},
             {"fp8_e4m3fnuz", rne, 16, 2, 32, "v_mfma_f32_16x16x32_fp8_fp8",
              " FP8 groups of 16 are two interleaved halves (even and odd k), each aligned alone; the halves are "
              "rounded down to the larger one's 24 fraction bits before they are added, and a C below 2^-25 of the "
              "join is dropped."},
             {"fp8_e5m2fnuz", rne, 16, 2, 32, "v_mfma_f32_16x16x32_bf8_bf8",
              " FP8 groups of 16 are two interleaved halves (even and odd k), each aligned alone; the halves are "
              "rounded down to the larger one's 24 fraction bits before they are added, and a C below 2^-25 of the "
              "join is dropped."},
         }) {
        const std::string input = t.input == std::string_view("xf32") ? "tf32" : t.input;
        add(fmt::format("amd_mi300_{}", t.input), PresetKind::Hardware,
            fmt::format("AMD MI300 (CDNA3) matrix core, {} inputs, fp32 accumulation", t.input),
            fmt::format("The CDNA3 model of {} ({}, K = {}): groups of {} exact products, {}.{} CDNA3 takes the "
                        "FNUZ FP8 formats (one NaN at 0x80, no -0, no infinity; AMD CDNA3 ISA). The simulator's code "
                        "holds two revisions of this model, which differ in the FP8 join (rounding down, then "
                        "truncation); this preset follows the first. {} {}",
                        mma_sim, t.instruction, t.k, t.block, two_stage, t.note, amd_unvalidated, order),
            amd_two_stage_model(input, t.input_mode, t.block, t.groups), PresetEvidence::Paper, t.k);
    }
}

std::vector<AccumulationPreset> build_presets() {
    std::vector<AccumulationPreset> p;
    auto add = [&p](std::string name, PresetKind kind, std::string summary, std::string help, AccumulationModel m,
                    PresetEvidence evidence = PresetEvidence::Paper, int instruction_k = 0) {
        validate(m);
        p.push_back(
            {std::move(name), kind, std::move(summary), std::move(help), std::move(m), evidence, instruction_k});
    };
    const PresetEvidence data = PresetEvidence::HardwareData;
    const RoundingMode rne = RoundingMode::NearestEven;

    add("fp32", PresetKind::Recipe, "fp32 x fp32, fp32 fma accumulation in program order",
        "The loop s = fma(x_i, y_i, s), i = 1..n, in binary32 with round to nearest even: what a compiled loop "
        "does with FMA contraction (GCC -ffp-contract=fast, nvcc's default). BLAS libraries split and reorder "
        "their sums; this preset is the order the source states.",
        sequential_model("fp32", rne, "fp32"));

    add("bf16_fp32", PresetKind::Recipe, "bf16 x bf16 -> fp32 accumulation",
        "Inputs rounded to bfloat16 (rne), exact products (a bf16 product has at most 16 significant bits), "
        "sequential fp32 accumulation with rne: mixed-precision training's matmul on CPUs. Hardware units "
        "differ in order and rounding: see the nvidia_*, google_tpu_* and intel_amx_* presets.",
        sequential_model("bf16", rne, "fp32"));

    add("fp16", PresetKind::Recipe, "fp16 x fp16 -> fp16 accumulation, every addition rounded to fp16",
        "Inputs, products and sum in binary16: s = fma16(x_i, y_i, s) with rne, as half-precision loops "
        "(CUDA __hfma, AVX512-FP16, ARMv8.2 FMLA on half vectors) compute. The sum stagnates once a term "
        "is below half an ulp of it: adding 1.0 stops at 2048.",
        sequential_model("fp16", rne, "fp16"));

    add("fp16_fp32", PresetKind::Recipe, "fp16 x fp16 -> fp32 accumulation",
        "Inputs rounded to binary16 (rne), exact products (22 bits at most), sequential fp32 accumulation "
        "with rne.",
        sequential_model("fp16", rne, "fp32"));

    add("tf32", PresetKind::Recipe, "fp32 inputs rounded to tf32 (rna), exact products, fp32 accumulation",
        "TensorFloat-32 with fp32 operands converted to tf32 by round to nearest, ties away (PTX "
        "cvt.rna.tf32.f32, CUTLASS's default conversion), exact products, sequential fp32 accumulation with "
        "rne. The tensor core's own block alignment is in nvidia_a100_tf32 and nvidia_h100_tf32.",
        sequential_model("tf32", RoundingMode::NearestAway, "fp32"));

    add("tf32_rtz", PresetKind::Recipe, "fp32 inputs truncated to tf32 (rtz), exact products, fp32 accumulation",
        "As tf32, but the operands lose their 13 low significand bits by truncation: what the tensor core "
        "does with fp32 data that was not converted first (the mma instruction ignores those bits).",
        sequential_model("tf32", RoundingMode::TowardZero, "fp32"));

    for (const char* input : {"fp8_e4m3", "fp8_e5m2"}) {
        add(input, PresetKind::Recipe,
            fmt::format("{} inputs, 14-bit accumulation promoted to fp32 every 128 terms", input),
            fmt::format("FP8 GEMM as the {} describes it on NVIDIA H800: the tensor core's accumulation \"is "
                        "limited to retaining around 14 bits\", so partial sums are promoted to fp32 CUDA-core "
                        "registers every N_C = 128 terms. Model: inputs divided by per-tensor scales (1 here; set "
                        "x.scale and y.scale) and rounded to {} (rne), exact products, a sequential accumulator with "
                        "fp32's exponent range and 14 significant bits, promoted by one fp32 rne addition every 128 "
                        "terms, the scales multiplied into the final sum once. Assumed: the 14-bit accumulator "
                        "truncates (rtz) as the tensor cores of {} do and adds terms one at a time; DeepSeek-V3 "
                        "applies finer-grained scales at each promotion. fp8_promoted_model() sets the bits and N_C.",
                        deepseek, input, fasi),
            fp8_promoted_model(input));
    }

    const std::string fp16_output = " and for fp16 output (--output fp16: D rounded to fp16 with rne)";
    add("nvidia_v100_fp16", PresetKind::Hardware, "NVIDIA V100 tensor core, fp16 inputs, fp32 accumulation",
        fmt::format("Block FMA after {}: 4 exact fp16 products and the fp32 accumulator aligned to the largest "
                    "exponent, shifted-out bits truncated with no extra alignment bit (their test: 1 - (1 - 2^-24) "
                    "gives 2^-23), summed without intermediate normalisation, normalised once by rounding toward "
                    "zero. {} {} {}",
                    fasi, product_alignment, fmt::format(fmt::runtime(validated), 4, fp16_output),
                    block_order_assumption),
        tensor_core_model("fp16", rne, 4, 0), data, 4);

    for (const char* input : {"fp16", "bf16"}) {
        add(fmt::format("nvidia_a100_{}", input), PresetKind::Hardware,
            fmt::format("NVIDIA A100 tensor core, {} inputs, fp32 accumulation", input),
            fmt::format("Block FMA after {}: 8 exact {} products per block on the A100, aligned to the largest "
                        "exponent with truncation, normalised toward zero. One extra alignment bit, as in the "
                        "bit-accurate A100 model of {}; the A100 test file of the paper's suite expects "
                        "1 - (1 - 2^-24) = 2^-24, which needs that bit. {} {} {}",
                        fasi, input, khattak, product_alignment,
                        fmt::format(fmt::runtime(validated), 8, input == std::string_view("fp16") ? fp16_output : ""),
                        block_order_assumption),
            tensor_core_model(input, rne, 8, 1), data, 8);
    }

    add("nvidia_a100_tf32", PresetKind::Hardware, "NVIDIA A100 tensor core, tf32 inputs (rna), fp32 accumulation",
        fmt::format(
            "Block FMA after {}: 4 exact tf32 products per block, truncating alignment with one extra bit "
            "(as {}), normalisation toward zero; operands converted from fp32 with rna as cuBLAS does. {} {} {}",
            fasi, khattak, product_alignment, fmt::format(fmt::runtime(validated), 4, ""), block_order_assumption),
        tensor_core_model("tf32", RoundingMode::NearestAway, 4, 1), data, 4);

    for (const char* input : {"fp16", "bf16"}) {
        add(fmt::format("nvidia_h100_{}", input), PresetKind::Hardware,
            fmt::format("NVIDIA H100 tensor core, {} inputs, fp32 accumulation", input),
            fmt::format("Block FMA with the H100 parameters of {}: 16 exact {} products per block, 2 extra "
                        "alignment bits, truncation, normalisation toward zero (the mechanism is {}'s). {} {} {}",
                        khattak, input, fasi, product_alignment,
                        fmt::format(fmt::runtime(validated), 16, input == std::string_view("fp16") ? fp16_output : ""),
                        block_order_assumption),
            tensor_core_model(input, rne, 16, 2), data, 16);
    }

    add("nvidia_h100_tf32", PresetKind::Hardware, "NVIDIA H100 tensor core, tf32 inputs (rna), fp32 accumulation",
        fmt::format("Block FMA with the H100 tf32 parameters of {}: 8 exact products per block, 2 extra alignment "
                    "bits, truncation, normalisation toward zero. {} {} The data's instructions take 4 products, "
                    "so they show no block boundary. {}",
                    khattak, product_alignment, fmt::format(fmt::runtime(validated), 4, ""), block_order_assumption),
        tensor_core_model("tf32", RoundingMode::NearestAway, 8, 2), data, 4);

    for (const char* input : {"fp8_e4m3", "fp8_e5m2"}) {
        add(fmt::format("nvidia_h100_{}", input), PresetKind::Hardware,
            fmt::format("NVIDIA H100 tensor core, {} inputs, fp32 accumulation (no promotion)", input),
            fmt::format("Block FMA with the H100 FP8 (wgmma) parameters of {}: 32 exact products per block aligned "
                        "to 13 fraction bits below the largest alignment exponent, truncation, and a block result "
                        "truncated to 14 significant bits (e8m13, no carry bit kept beyond them): the GPU's fp32 "
                        "outputs never carry more than 14. This is the ~14-bit accumulation the {} reports; the {} "
                        "preset adds its promotion to fp32. {} {} The data were taken with wgmma and C = 0 (D "
                        "initialised to zero), so how C enters is assumed: as the other NVIDIA blocks. Not "
                        "reproduced: the fp16-output wgmma (--output fp16), which no published model explains; "
                        "this model matches about 62% (E4M3) and 67% (E5M2) of those lines, the rest mostly one "
                        "fp16 ulp either way. {}",
                        khattak, deepseek, input, product_alignment, fmt::format(fmt::runtime(validated), 32, ""),
                        block_order_assumption),
            tensor_core_model(input, rne, 32, 0, RoundingMode::TowardZero, "e8m13"), data, 32);
    }

    // GPUs whose tensor cores follow a published model but whose outputs FloatScope has not seen.
    // Each family: the block of each input format, the extra bits, and where that comes from.
    struct FamilyBlock {
        const char* input;
        int block;
        int extra;
        RoundingMode normalisation;
        const char* accumulator;
    };
    struct Family {
        const char* gpu;  ///< the preset names' middle part
        const char* title;
        std::string source;
        std::vector<FamilyBlock> blocks;
    };
    const RoundingMode rtz = RoundingMode::TowardZero;
    const std::vector<Family> families = {
        {"a2",
         "NVIDIA A2 (Ampere)",
         fmt::format("The A100's tensor core: {} model the A2 with their A100 model.", khattak),
         {{"fp16", 8, 1, rtz, "fp32"}, {"bf16", 8, 1, rtz, "fp32"}, {"tf32", 4, 1, rtz, "fp32"}}},
        {"h200",
         "NVIDIA H200 (Hopper)",
         fmt::format("The H100's tensor core, the same GH100 chip: the nvidia_h100_* presets' parameters, which "
                     "reproduce the H100 data ({}).",
                     khattak),
         {{"fp16", 16, 2, rtz, "fp32"},
          {"bf16", 16, 2, rtz, "fp32"},
          {"tf32", 8, 2, rtz, "fp32"},
          {"fp8_e4m3", 32, 0, rtz, "e8m13"},
          {"fp8_e5m2", 32, 0, rtz, "e8m13"}}},
        {"l40s",
         "NVIDIA L40S (Ada)",
         fmt::format("The Ada parameters of {}: blocks of 8 fp16/bf16 and 4 tf32 products with one extra bit, FP8 "
                     "in blocks of 16 aligned to 13 fraction bits. Assumed: the FP8 block result keeps 14 bits as "
                     "Hopper's does (e8m13, measured on the H100 data).",
                     khattak),
         {{"fp16", 8, 1, rtz, "fp32"},
          {"bf16", 8, 1, rtz, "fp32"},
          {"tf32", 4, 1, rtz, "fp32"},
          {"fp8_e4m3", 16, 0, rtz, "e8m13"},
          {"fp8_e5m2", 16, 0, rtz, "e8m13"}}},
        {"b200",
         "NVIDIA B200 (Blackwell)",
         fmt::format(
             "The B200 parameters of {}: blocks of 16 fp16/bf16 and 8 tf32 products with 2 extra bits, "
             "normalised toward zero; FP8 in blocks of 32 (two interleaved halves of 16, one alignment) "
             "with 2 extra bits and a full fp32 result, normalised to nearest as in their round-to-nearest B200 "
             "variant (their default B200 model truncates there).",
             khattak),
         {{"fp16", 16, 2, rtz, "fp32"},
          {"bf16", 16, 2, rtz, "fp32"},
          {"tf32", 8, 2, rtz, "fp32"},
          {"fp8_e4m3", 32, 2, rne, "fp32"},
          {"fp8_e5m2", 32, 2, rne, "fp32"}}},
    };
    for (const Family& family : families)
        for (const FamilyBlock& b : family.blocks) {
            const RoundingMode input_mode = std::string_view(b.input) == "tf32" ? RoundingMode::NearestAway : rne;
            add(fmt::format("nvidia_{}_{}", family.gpu, b.input), PresetKind::Hardware,
                fmt::format("{} tensor core, {} inputs, fp32 output", family.title, b.input),
                fmt::format("Block FMA (the mechanism of {}): {} exact products per block, {} extra alignment bits, "
                            "normalised to {} with {}. {} {} Not validated against this GPU's outputs. {}",
                            fasi, b.block, b.extra, b.accumulator, core::to_string(b.normalisation), family.source,
                            product_alignment, block_order_assumption),
                tensor_core_model(b.input, input_mode, b.block, b.extra, b.normalisation, b.accumulator),
                PresetEvidence::Paper, b.block);
        }

    add("google_tpu_mxu_bf16", PresetKind::Hardware, "Google TPU MXU: bf16 products, fp32 accumulation",
        "Google Cloud TPU documentation: the matrix unit multiplies bfloat16 operands and accumulates in float32 "
        "(fp32 inputs are rounded to bf16 under the default matmul precision). Model: rne conversion, exact "
        "products, fp32 accumulation. Assumed: sequential order along k and round to nearest even in the "
        "accumulation (the systolic array's internal order and rounding are not published).",
        sequential_model("bf16", rne, "fp32"));

    {
        AccumulationModel m = sequential_model("bf16:ftz", rne, "fp32:ftz");
        add("intel_amx_bf16", PresetKind::Hardware, "Intel AMX TDPBF16PS: bf16 tiles, fp32 accumulation",
            "Intel's description of TDPBF16PS (Intel 64 and IA-32 Architectures Software Developer's Manual, AMX "
            "instructions): pairs of bf16 products are accumulated into fp32 lanes with round to nearest even, "
            "input denormals treated as zero and output denormals flushed to zero, whatever MXCSR says. Model: "
            "inputs bf16 with subnormals flushed, exact products, each product added into an fp32 accumulator that "
            "flushes subnormals, in increasing k. Assumed: the order within a pair and whether a product is "
            "rounded before its addition (the two differ only below 2^-126).",
            m);
    }

    {
        AccumulationModel m = sequential_model("int8", rne, "int32");
        add("intel_amx_int8", PresetKind::Hardware, "Intel AMX TDPBSSD: int8 tiles, int32 accumulation",
            "Intel's description of TDPBSSD (Software Developer's Manual, AMX instructions): signed int8 products "
            "summed in groups of four into int32 lanes. Products and sums of integers are exact; the inputs are "
            "quantized to int8 with rne and saturation. Assumed: FloatScope's int32 saturates where the hardware "
            "wraps modulo 2^32, which only differs past 2^17 maximal products.",
            m);
    }

    add_amd_presets(add);
    return p;
}

}  // namespace

const char* to_string(PresetKind kind) { return kind == PresetKind::Recipe ? "recipe" : "hardware"; }

const char* to_string(PresetEvidence evidence) { return evidence == PresetEvidence::Paper ? "paper" : "hardware-data"; }

AccumulationModel fp8_promoted_model(std::string_view input_format, int accumulator_bits, int promotion_interval,
                                     double x_scale, double y_scale) {
    if (accumulator_bits < 2 || accumulator_bits > 22)
        throw Error(fmt::format("fp8 promoted accumulation: {} accumulator bits; valid: 2 to 22", accumulator_bits));
    AccumulationModel m = sequential_model(input_format, RoundingMode::NearestEven, "fp32");
    m.x.scale = x_scale;
    m.y.scale = y_scale;
    // fp32's exponent range with fewer significand bits: e8m(bits - 1), truncating.
    m.accumulator = rounding(fmt::format("e8m{}", accumulator_bits - 1), RoundingMode::TowardZero);
    m.order = AccumulationOrder::Blocked;
    m.block_size = promotion_interval;
    m.combine = rounding("fp32");
    validate(m);
    return m;
}

AccumulationModel tensor_core_model(std::string_view input_format, core::RoundingMode input_mode, int block_size,
                                    int extra_bits, core::RoundingMode normalisation, std::string_view accumulator) {
    AccumulationModel m = sequential_model(input_format, input_mode, "fp32");
    m.accumulator = rounding(accumulator, normalisation);
    m.order = AccumulationOrder::BlockFma;
    m.block_size = block_size;
    m.alignment_extra_bits = extra_bits;
    validate(m);
    return m;
}

const std::vector<AccumulationPreset>& accumulation_presets() {
    static const std::vector<AccumulationPreset> presets = build_presets();
    return presets;
}

const AccumulationPreset& find_accumulation_preset(std::string_view name) {
    std::string names;
    for (const AccumulationPreset& preset : accumulation_presets()) {
        if (preset.name == name) return preset;
        names += names.empty() ? preset.name : " " + preset.name;
    }
    throw Error(fmt::format("unknown accumulation preset '{}'; valid presets: {}", name, names));
}

}  // namespace floatscope::emu
