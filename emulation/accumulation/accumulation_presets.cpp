// The preset table: each model with the published source of its parameters and its assumptions.
#include "emulation/accumulation/accumulation_presets.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

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
constexpr const char* family_validated =
    "Validated: reproduces bit for bit all 5000 outputs of each of this GPU's data sets of Khattak and Mikaitis for "
    "these inputs (fp32 output, and fp16 output where the GPU has fp16 accumulators; scripts/tensor-core-data.sh).";
constexpr const char* shapes_k8_k16 =
    "Instruction shapes: K = 8 and 16 (mma.sync m16n8k8 and m16n8k16; wgmma takes 16); a K beyond the block chains "
    "blocks, a K within it is one block (assumed for the shapes the data did not take).";
constexpr const char* shapes_k4_k8 =
    "Instruction shapes: K = 4 and 8 (mma.sync m16n8k4 and m16n8k8 for tf32); a K beyond the block chains blocks, a "
    "K within it is one block (assumed for the shapes the data did not take).";
constexpr const char* fp16_accumulation_note =
    "With fp16 accumulators (--output fp16: mma.sync m16n8k32 .f16.<fp8>.<fp8>.f16) the instruction is another "
    "datapath: two blocks of 16 products on the pair-interleaved halves of k (k = 0, 1, 4, 5, ... then k = 2, 3, 6, "
    "7, ...), each with the fp16 MMA's alignment (2 extra bits) and normalised once to fp16 with rne, from +0, the "
    "first block's d the second's c; C is then added by one fp16 addition (rne). This reproduces all 5000 "
    "fp16-output lines of each of the H100, H200 and B200 data sets (E4M3 and E5M2; docs/tensor-cores.md).";
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

/// NVIDIA FP8 mma.sync m16n8k32 on Hopper and Blackwell: two blocks of 16 products with the fp16
/// block's alignment (2 extra bits, normalised toward zero) on the pair-interleaved halves of k,
/// from +0, C added after them (docs/tensor-cores.md: what the H100, H200 and B200 data show).
AccumulationModel fp8_products_first_model(std::string_view input) {
    AccumulationModel m = tensor_core_model(input, RoundingMode::NearestEven, 16, 2);
    m.products_first_k = 32;
    m.block_interleave = 2;
    validate(m);
    return m;
}

/// Blackwell's block-scaled tcgen05.mma of `kind` on `element` values (block_scaled_fma.hpp): UE8M0
/// scales per `scale_block` k (UE4M3 per 16 for NVFP4), fp32 C and D.
AccumulationModel block_scaled_model(std::string_view element, BlockScaledKind kind, int scale_block) {
    const bool nvfp4 = kind == BlockScaledKind::Nvfp4;
    AccumulationModel m = sequential_model(element, RoundingMode::NearestEven, "fp32");
    m.accumulator = rounding("fp32", RoundingMode::TowardZero);
    m.order = AccumulationOrder::BlockScaledFma;
    m.block_size = kind == BlockScaledKind::Mxf8f6f4 ? 32 : 64;
    m.block_scaling = {kind, core::parse_format(nvfp4 ? "fp8_e4m3" : "e8m0"), scale_block};
    validate(m);
    return m;
}

//  sf-tensor tcgen05: the bit model of Blackwell's tcgen05.mma and its frozen B200 result words
//    (github.com/sf-tensor/tcgen05: tcgen05_model/MODEL.md, tcgen05_model/validation.py).
constexpr const char* sf_tensor =
    "the tcgen05 bit model of sf-tensor (github.com/sf-tensor/tcgen05, tcgen05_model/MODEL.md), validated there "
    "against B200 hardware";

template <typename Add>
void add_block_scaled_presets(const Add& add) {
    struct BlockScaled {
        const char* name;
        const char* element;
        BlockScaledKind kind;
        const char* what;
        int scale_block = 32;  ///< NVFP4's 16 and scale_vec::4X's are given
        const char* instruction = nullptr;  ///< the PTX kind, where it is not the model's kind
    };
    for (const BlockScaled& b : std::initializer_list<BlockScaled>{
             {"nvidia_b200_mxfp8", "fp8_e4m3", BlockScaledKind::Mxf8f6f4, "MXFP8 (E4M3 elements)"},
             {"nvidia_b200_mxfp8_e5m2", "fp8_e5m2", BlockScaledKind::Mxf8f6f4, "MXFP8 (E5M2 elements)"},
             {"nvidia_b200_mxfp6_e2m3", "fp6_e2m3", BlockScaledKind::Mxf8f6f4, "MXFP6 (E2M3 elements)"},
             {"nvidia_b200_mxfp6_e3m2", "fp6_e3m2", BlockScaledKind::Mxf8f6f4, "MXFP6 (E3M2 elements)"},
             {"nvidia_b200_mxf8f6f4_e2m1", "fp4_e2m1", BlockScaledKind::Mxf8f6f4,
              "MXFP4 (E2M1 elements) through kind::mxf8f6f4"},
             {"nvidia_b200_mxfp4", "fp4_e2m1", BlockScaledKind::Mxf4, "MXFP4 (E2M1 elements)"},
             {"nvidia_b200_mxfp4_4x", "fp4_e2m1", BlockScaledKind::Mxf4,
              "E2M1 elements with UE8M0 scales per 16 (scale_vec::4X)", 16, "mxf4nvf4"},
             {"nvidia_b200_nvfp4", "fp4_e2m1", BlockScaledKind::Nvfp4, "NVFP4 (E2M1 elements, UE4M3 scales)", 16},
         }) {
        const bool nvfp4 = b.kind == BlockScaledKind::Nvfp4;
        const int k = b.kind == BlockScaledKind::Mxf8f6f4 ? 32 : 64;
        const std::string window =
            b.kind == BlockScaledKind::Mxf8f6f4
                ? "every scaled product and C truncated toward zero to 25 fraction bits below the largest exponent "
                  "(the unscaled FP8 window), summed exactly"
                : fmt::format(
                      "the products summed exactly in groups of {} k, the groups and C truncated toward zero "
                      "to 35 fraction bits below the largest scale exponent (below C's where C outranks "
                      "the products, the groups then of 16){}",
                      nvfp4 ? 4 : 16,
                      nvfp4 ? "" : "; a group below 2^-174 with a smaller scale drops out of a subnormal D");
        add(b.name, PresetKind::Hardware, fmt::format("NVIDIA B200 block-scaled tensor core, {}, fp32 output", b.what),
            fmt::format("tcgen05.mma .kind::{} (PTX ISA; K = {}): elements {} with {} scales per {} k; each product "
                        "of two elements and their two scales exact, {}, normalised once toward zero to fp32 (the "
                        "model of {}; MMA-Sim's Blackwell model, Xie et al. arXiv:2511.10909, agrees on the "
                        "windows). Reproduces the frozen B200 words published with that model "
                        "(tests/data/tensor-cores/b200_block_scaled.txt). Through dot and gemm on plain values every "
                        "scale is 1; block_scaled_gemm, dot's scale fields and policies (which quantize with the {} "
                        "recipe) take real scales. Assumed: a K beyond the instruction chains instructions in "
                        "increasing k, each fp32 "
                        "D the next C; C = -0 with no nonzero product gives +0, as the unscaled B200 word shows (the "
                        "published block-scaled model returns C); a sum beyond fp32's range gives an infinity, as "
                        "both published models compute (no B200 word has one).",
                        b.instruction ? b.instruction : to_string(b.kind), k, b.element, nvfp4 ? "UE4M3" : "UE8M0",
                        b.scale_block, window, sf_tensor,
                        nvfp4 ? "NVFP4 (Transformer Engine)" : fmt::format("OCP MX ({}-value blocks)", b.scale_block)),
            block_scaled_model(b.element, b.kind, b.scale_block), PresetEvidence::HardwareData, {k});
    }
}

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
            amd_pairwise_model(q.input, q.group, q.flushing), PresetEvidence::Paper, {q.k});
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
            amd_two_stage_model(input, t.input_mode, t.block, t.groups), PresetEvidence::Paper, {t.k});
    }
}

std::vector<AccumulationPreset> build_presets() {
    std::vector<AccumulationPreset> p;
    auto add = [&p](std::string name, PresetKind kind, std::string summary, std::string help, AccumulationModel m,
                    PresetEvidence evidence = PresetEvidence::Paper, std::vector<int> instruction_ks = {},
                    std::optional<AccumulationModel> fp16_form = std::nullopt) {
        validate(m);
        if (fp16_form) validate(*fp16_form);
        p.push_back({std::move(name), kind, std::move(summary), std::move(help), std::move(m), evidence,
                     std::move(instruction_ks), std::move(fp16_form)});
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

    const std::string fp16_output =
        " and with fp16 accumulators (--output fp16: the same alignment, the block's sum normalised once to fp16 "
        "with rne; no fp32 rounding in between, which the B200 data show)";
    const std::string fp16_form = fp16_accumulation_note;
    const std::vector<int> k8_16 = {8, 16}, k4_8 = {4, 8};
    auto with_fp16 = [](const AccumulationModel& m) { return std::optional(fp16_accumulating_model(m)); };

    const AccumulationModel v100 = tensor_core_model("fp16", rne, 4, 0);
    add("nvidia_v100_fp16", PresetKind::Hardware, "NVIDIA V100 tensor core, fp16 inputs, fp32 accumulation",
        fmt::format("Block FMA after {}: 4 exact fp16 products and the fp32 accumulator aligned to the largest "
                    "exponent, shifted-out bits truncated with no extra alignment bit (their test: 1 - (1 - 2^-24) "
                    "gives 2^-23), summed without intermediate normalisation, normalised once by rounding toward "
                    "zero. {} {} {}",
                    fasi, product_alignment, fmt::format(fmt::runtime(validated), 4, fp16_output),
                    block_order_assumption),
        v100, data, {4}, with_fp16(v100));

    for (const char* input : {"fp16", "bf16"}) {
        const bool fp16 = input == std::string_view("fp16");
        const AccumulationModel m = tensor_core_model(input, rne, 8, 1);
        add(fmt::format("nvidia_a100_{}", input), PresetKind::Hardware,
            fmt::format("NVIDIA A100 tensor core, {} inputs, fp32 accumulation", input),
            fmt::format("Block FMA after {}: 8 exact {} products per block on the A100, aligned to the largest "
                        "exponent with truncation, normalised toward zero. One extra alignment bit, as in the "
                        "bit-accurate A100 model of {}; the A100 test file of the paper's suite expects "
                        "1 - (1 - 2^-24) = 2^-24, which needs that bit. {} {} {} {}",
                        fasi, input, khattak, product_alignment,
                        fmt::format(fmt::runtime(validated), 8, fp16 ? fp16_output : ""), shapes_k8_k16,
                        block_order_assumption),
            m, data, k8_16, fp16 ? with_fp16(m) : std::nullopt);
    }

    add("nvidia_a100_tf32", PresetKind::Hardware, "NVIDIA A100 tensor core, tf32 inputs (rna), fp32 accumulation",
        fmt::format("Block FMA after {}: 4 exact tf32 products per block, truncating alignment with one extra bit "
                    "(as {}), normalisation toward zero; operands converted from fp32 with rna as cuBLAS does. {} {} "
                    "{} {}",
                    fasi, khattak, product_alignment, fmt::format(fmt::runtime(validated), 4, ""), shapes_k4_k8,
                    block_order_assumption),
        tensor_core_model("tf32", RoundingMode::NearestAway, 4, 1), data, k4_8);

    for (const char* input : {"fp16", "bf16"}) {
        const bool fp16 = input == std::string_view("fp16");
        const AccumulationModel m = tensor_core_model(input, rne, 16, 2);
        add(fmt::format("nvidia_h100_{}", input), PresetKind::Hardware,
            fmt::format("NVIDIA H100 tensor core, {} inputs, fp32 accumulation", input),
            fmt::format("Block FMA with the H100 parameters of {}: 16 exact {} products per block, 2 extra "
                        "alignment bits, truncation, normalisation toward zero (the mechanism is {}'s). {} {} {} {}",
                        khattak, input, fasi, product_alignment,
                        fmt::format(fmt::runtime(validated), 16, fp16 ? fp16_output : ""), shapes_k8_k16,
                        block_order_assumption),
            m, data, k8_16, fp16 ? with_fp16(m) : std::nullopt);
    }

    add("nvidia_h100_tf32", PresetKind::Hardware, "NVIDIA H100 tensor core, tf32 inputs (rna), fp32 accumulation",
        fmt::format("Block FMA with the H100 tf32 parameters of {}: 8 exact products per block, 2 extra alignment "
                    "bits, truncation, normalisation toward zero. {} {} The data's instructions take 4 products, "
                    "so they show no block boundary. {} {}",
                    khattak, product_alignment, fmt::format(fmt::runtime(validated), 4, ""), shapes_k4_k8,
                    block_order_assumption),
        tensor_core_model("tf32", RoundingMode::NearestAway, 8, 2), data, k4_8);

    for (const char* gpu : {"h100", "h200"})
        for (const char* input : {"fp8_e4m3", "fp8_e5m2"}) {
            add(fmt::format("nvidia_{}_{}", gpu, input), PresetKind::Hardware,
                fmt::format("NVIDIA {} tensor core, {} inputs, fp32 accumulation (no promotion)",
                            gpu == std::string_view("h100") ? "H100" : "H200 (the H100's GH100 chip)", input),
                fmt::format("Block FMA with the H100 FP8 (wgmma) parameters of {}: 32 exact products per block aligned "
                            "to 13 fraction bits below the largest alignment exponent, truncation, and a block result "
                            "truncated to 14 significant bits (e8m13, no carry bit kept beyond them): the GPU's fp32 "
                            "outputs never carry more than 14. This is the ~14-bit accumulation the {} reports; the {} "
                            "preset adds its promotion to fp32. {} {} The data were taken with wgmma and C = 0 (D "
                            "initialised to zero), so how C enters is assumed: as the other NVIDIA blocks. {} {}",
                            khattak, deepseek, input, product_alignment, fmt::format(fmt::runtime(validated), 32, ""),
                            fp16_form, block_order_assumption),
                tensor_core_model(input, rne, 32, 0, RoundingMode::TowardZero, "e8m13"), data, {32},
                with_fp16(fp8_products_first_model(input)));
        }

    // The other GPUs of Khattak and Mikaitis's data: their published per-GPU models where the data
    // agree, the data's mechanism where they do not (docs/tensor-cores.md).
    struct FamilyBlock {
        const char* input;
        int block;
        int extra;
        const char* accumulator;  ///< normalised toward zero
        std::vector<int> ks;
        bool fp16_form;  ///< the GPU has the fp16-accumulating form of the instruction
    };
    struct Family {
        const char* gpu;  ///< the preset names' middle part
        const char* title;
        std::string source;
        std::vector<FamilyBlock> blocks;
    };
    const std::vector<Family> families = {
        {"a2",
         "NVIDIA A2 (Ampere)",
         fmt::format("The A100's tensor core: {} model the A2 with their A100 model.", khattak),
         {{"fp16", 8, 1, "fp32", k8_16, true},
          {"bf16", 8, 1, "fp32", k8_16, false},
          {"tf32", 4, 1, "fp32", k4_8, false}}},
        {"h200",
         "NVIDIA H200 (Hopper)",
         fmt::format("The H100's tensor core, the same GH100 chip: the nvidia_h100_* presets' parameters ({}).",
                     khattak),
         {{"fp16", 16, 2, "fp32", k8_16, true},
          {"bf16", 16, 2, "fp32", k8_16, false},
          {"tf32", 8, 2, "fp32", k4_8, false}}},
        {"l40s",
         "NVIDIA L40S (Ada)",
         fmt::format("The Ada parameters of {}: blocks of 8 fp16/bf16 and 4 tf32 products with one extra bit, FP8 "
                     "in blocks of 16 aligned to 13 fraction bits, the FP8 block's result kept to 14 bits as "
                     "Hopper's (e8m13); the m16n8k32 FP8 instruction is two such blocks, chained.",
                     khattak),
         {{"fp16", 8, 1, "fp32", k8_16, true},
          {"bf16", 8, 1, "fp32", k8_16, false},
          {"tf32", 4, 1, "fp32", k4_8, false},
          {"fp8_e4m3", 16, 0, "e8m13", {32}, true},
          {"fp8_e5m2", 16, 0, "e8m13", {32}, true}}},
        {"b200",
         "NVIDIA B200 (Blackwell)",
         fmt::format("The B200 parameters of {}: blocks of 16 fp16/bf16 and 8 tf32 products with 2 extra bits, "
                     "normalised toward zero.",
                     khattak),
         {{"fp16", 16, 2, "fp32", k8_16, true},
          {"bf16", 16, 2, "fp32", k8_16, false},
          {"tf32", 8, 2, "fp32", k4_8, false}}},
    };
    for (const Family& family : families)
        for (const FamilyBlock& b : family.blocks) {
            const RoundingMode input_mode = std::string_view(b.input) == "tf32" ? RoundingMode::NearestAway : rne;
            const AccumulationModel m =
                tensor_core_model(b.input, input_mode, b.block, b.extra, RoundingMode::TowardZero, b.accumulator);
            add(fmt::format("nvidia_{}_{}", family.gpu, b.input), PresetKind::Hardware,
                fmt::format("{} tensor core, {} inputs, fp32 output", family.title, b.input),
                fmt::format("Block FMA (the mechanism of {}): {} exact products per block, {} extra alignment bits, "
                            "normalised to {} toward zero. {} {} {} Instruction K: {}. {}",
                            fasi, b.block, b.extra, b.accumulator, family.source, product_alignment, family_validated,
                            fmt::join(b.ks, ", "), block_order_assumption),
                m, data, b.ks, b.fp16_form ? with_fp16(m) : std::nullopt);
        }

    for (const char* input : {"fp8_e4m3", "fp8_e5m2"}) {
        add(fmt::format("nvidia_b200_{}", input), PresetKind::Hardware,
            fmt::format("NVIDIA B200 (Blackwell) tensor core, {} inputs, fp32 output, C added after the products",
                        input),
            fmt::format("mma.sync m16n8k32 on the B200 as its data show it: the 32 products in two blocks of 16 with "
                        "the fp16 block's alignment (2 extra bits, truncation, normalised toward zero to fp32), the "
                        "first block's k = 0, 1, 4, 5, ... and the second's k = 2, 3, 6, 7, ..., from +0, the second "
                        "block's c the first one's d; C is then added with one fp32 addition, rounded to nearest "
                        "even. The per-GPU models of {} put C inside one block of 32 (4754 and 4717 of the 5000 "
                        "lines); with C added after the products every line matches. Assumed: the split of k that "
                        "the fp16-output data need (the fp32 data fit one block of 32 too). {} {} {}",
                        khattak, product_alignment, fmt::format(fmt::runtime(validated), 32, ""), fp16_form),
            fp8_products_first_model(input), data, {32}, with_fp16(fp8_products_first_model(input)));
    }

    add_block_scaled_presets(add);

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

AccumulationModel fp16_accumulating_model(AccumulationModel model) {
    // The same alignment: the bits kept below the largest alignment exponent stay p - 1 + extra.
    const int fraction_bits = model.accumulator.format.mantissa_bits + model.alignment_extra_bits;
    model.accumulator = rounding("fp16");
    model.alignment_extra_bits = fraction_bits - model.accumulator.format.mantissa_bits;
    model.output = model.accumulator;
    validate(model);
    return model;
}

bool AccumulationPreset::takes_k(int k) const {
    return k >= 1 && (instruction_ks.empty() ||
                      std::find(instruction_ks.begin(), instruction_ks.end(), k) != instruction_ks.end());
}

AccumulationModel model_with_output(const AccumulationPreset& preset, const core::FormatRounding& output) {
    if (preset.fp16_accumulation && output.format == preset.fp16_accumulation->output.format &&
        output.mode == preset.fp16_accumulation->output.mode)
        return *preset.fp16_accumulation;
    AccumulationModel model = preset.model;
    model.output = output;
    validate(model);
    return model;
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
