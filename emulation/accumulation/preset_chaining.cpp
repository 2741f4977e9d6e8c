#include "emulation/accumulation/preset_chaining.hpp"

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

AccumulationModel chained_gemm_model(const AccumulationPreset& preset, const core::FormatRounding& accumulate,
                                     const core::FormatRounding& result) {
    AccumulationModel model = preset.model;
    const bool instructions =
        model.order == AccumulationOrder::BlockFma || model.order == AccumulationOrder::TwoStageBlockFma;
    if (!instructions) {
        model.output = result;
        return model;
    }
    // The fp16-accumulating instruction is a datapath of its own (accumulation_presets.hpp).
    if (is_binary16(accumulate.format) && preset.fp16_accumulation) model = *preset.fp16_accumulation;
    if (!same_rounding(model.output, result)) model.epilogue = result;
    return model;
}

}  // namespace floatscope::emu
