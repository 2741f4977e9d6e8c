#include "emulation/accumulation/preset_chaining.hpp"

#include "core/catalog.hpp"

namespace floatscope::emu {
namespace {

/// IEEE binary16's layout (fp16, binary16, half; modifiers aside).
bool is_binary16(const core::FormatSpec& format) {
    return format.kind == core::FormatKind::Binary && !format.is_p3109() && format.exponent_bits == 5 &&
           format.mantissa_bits == 10;
}

bool same_rounding(const core::FormatRounding& a, const core::FormatRounding& b) {
    return a.format == b.format && a.mode == b.mode;
}

}  // namespace

bool has_fp16_accumulation(const AccumulationPreset& preset) {
    // Every NVIDIA tensor core since Volta has fp16 MMAs with an fp16 D and C; the data
    // (tests/data/tensor-cores, --output fp16) show that D is the fp32-path result rounded to fp16.
    return preset.kind == PresetKind::Hardware && preset.name.starts_with("nvidia_") &&
           preset.model.order == AccumulationOrder::BlockFma && is_binary16(preset.model.x.rounding.format);
}

AccumulationModel chained_gemm_model(const AccumulationPreset& preset, const core::FormatRounding& accumulate,
                                     const core::FormatRounding& result) {
    AccumulationModel model = preset.model;
    const bool instructions =
        model.order == AccumulationOrder::BlockFma || model.order == AccumulationOrder::TwoStageBlockFma;
    if (!instructions) {
        model.output = result;
        return model;
    }
    if (is_binary16(accumulate.format) && has_fp16_accumulation(preset))
        model.output = {core::parse_format("fp16"), core::RoundingMode::NearestEven};  // D in fp16 registers
    if (!same_rounding(model.output, result)) model.epilogue = result;
    return model;
}

}  // namespace floatscope::emu
