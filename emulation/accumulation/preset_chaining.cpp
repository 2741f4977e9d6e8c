#include "emulation/accumulation/preset_chaining.hpp"

#include "emulation/accumulation/kernels/native_formats.hpp"

namespace floatscope::emu {

AccumulationModel chained_gemm_model(const AccumulationPreset& preset, const core::FormatRounding& accumulate,
                                     const core::FormatRounding& result) {
    AccumulationModel model = preset.model;
    const bool instructions = model.order == AccumulationOrder::BlockFma ||
                              model.order == AccumulationOrder::TwoStageBlockFma ||
                              model.order == AccumulationOrder::BlockScaledFma;
    if (!instructions) {
        model.output = result;
        return model;
    }
    // The fp16-accumulating instruction is a datapath of its own (accumulation_presets.hpp).
    if (detail::is_binary16(accumulate.format) && preset.fp16_accumulation) model = *preset.fp16_accumulation;
    if (model.output != result) model.epilogue = result;
    return model;
}

}  // namespace floatscope::emu
