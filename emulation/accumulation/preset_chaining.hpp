// How a GEMM chains a tensor-core preset's instruction along K, as cuBLAS-style kernels and the
// hardware do: what a precision policy's roles become on a preset.
#pragma once

#include "core/format_rounding.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"

namespace floatscope::emu {

/// The model of a matrix product under `preset` whose results a policy wants in `result`:
/// - a block-FMA preset (a tensor core) keeps the running C in its instruction's D format along K
///   (fp32 for bf16, tf32 and FP8 MMAs: the accumulator registers) and rounds every entry once to
///   `result` after the last instruction (the epilogue's cast), as no GPU rounds C to bf16 between
///   its instructions;
/// - with `accumulate` in fp16, a preset whose GPU has an fp16-accumulating form of the
///   instruction (its fp16_accumulation: NVIDIA's fp16 and FP8 MMAs with .f16 C and D) chains
///   that form, in fp16, instead;
/// - any other preset (a recipe) delivers its sum rounded to `result`, as before.
AccumulationModel chained_gemm_model(const AccumulationPreset& preset, const core::FormatRounding& accumulate,
                                     const core::FormatRounding& result);

}  // namespace floatscope::emu
