// Named accumulation models: the mixed-precision recipes and the hardware units users meet.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

enum class PresetKind {
    Recipe,  ///< a precision recipe independent of a machine (fp16 accumulation, FP8 with promotion)
    Hardware,  ///< a named accelerator's matrix unit
};

/// What a hardware preset's parameters rest on.
enum class PresetEvidence {
    Paper,  ///< a published description only
    HardwareData,  ///< also reproduces real outputs of the unit bit for bit (tests/data/tensor-cores)
};

struct AccumulationPreset {
    std::string name;  ///< what the CLI and GUI accept: "bf16_fp32", "nvidia_a100_bf16"
    PresetKind kind = PresetKind::Recipe;
    std::string summary;  ///< one line
    std::string help;  ///< where the parameters come from, and which parts are assumptions
    AccumulationModel model;
    PresetEvidence evidence = PresetEvidence::Paper;
    /// The K (products along k of D = A B + C) of each instruction shape the unit has for these
    /// inputs, for the block-FMA units (a K longer than the block chains its blocks); empty where
    /// the preset names no instruction.
    std::vector<int> instruction_ks;
    /// The fp16-accumulating form of the instruction (C and D in fp16: mma ... .f16.<in>.<in>.f16),
    /// where the GPU has one: a datapath of its own, not the fp32 one's result rounded to fp16.
    std::optional<AccumulationModel> fp16_accumulation;

    /// Whether `k` is the K of one of the instruction shapes (any k >= 1 where none is named).
    bool takes_k(int k) const;
};

/// The preset's model with C and D in `output`: its fp16_accumulation for fp16 where it has one,
/// else its model with `output` as the output rounding (dot --output, matmul --output).
AccumulationModel model_with_output(const AccumulationPreset& preset, const core::FormatRounding& output);

/// Every preset, recipes first, in display order (the CLI and GUI list them from here).
const std::vector<AccumulationPreset>& accumulation_presets();

/// The preset called `name`; throws floatscope::Error listing the valid names otherwise.
const AccumulationPreset& find_accumulation_preset(std::string_view name);

const char* to_string(PresetKind kind);
/// "paper" "hardware-data".
const char* to_string(PresetEvidence evidence);

/// FP8 GEMM as DeepSeek-V3 runs it on H800 tensor cores (DeepSeek-AI, "DeepSeek-V3 Technical
/// Report", 2024, section 3.3.2): inputs in `input_format` divided by per-tensor scales, exact
/// products, partial sums kept to `accumulator_bits` significant bits (about 14 on H800) and
/// promoted into an fp32 accumulator every `promotion_interval` terms (N_C = 128).
AccumulationModel fp8_promoted_model(std::string_view input_format, int accumulator_bits = 14,
                                     int promotion_interval = 128, double x_scale = 1, double y_scale = 1);

/// The fp16-accumulating form of a block-FMA model: the same alignment (the same bits kept below
/// the largest alignment exponent), the block's sum normalised once to fp16 with round to nearest
/// even, C and D in fp16.
AccumulationModel fp16_accumulating_model(AccumulationModel model);

/// A tensor-core block FMA (tensor_core.hpp): inputs rounded to `input_format` with `input_mode`,
/// blocks of `block_size` exact products aligned with `extra_bits`, normalised to `accumulator` with
/// `normalisation`, output (D) in fp32.
AccumulationModel tensor_core_model(std::string_view input_format, core::RoundingMode input_mode, int block_size,
                                    int extra_bits, core::RoundingMode normalisation = core::RoundingMode::TowardZero,
                                    std::string_view accumulator = "fp32");

}  // namespace floatscope::emu
