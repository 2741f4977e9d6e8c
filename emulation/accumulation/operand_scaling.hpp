// Quantization of operands into their input formats, and scaling of results back into the output format.
#pragma once

#include <span>

#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// out_i = round(in_i / q.scale) to q's format and mode: the exact quotient, rounded once.
/// in and out may be the same array.
void quantize(const OperandQuantization& q, std::span<const double> in, std::span<double> out);

/// values_i = round(values_i * scale) to `output`: the exact product, rounded once. `scale` is the
/// product of the operands' scales (two floats, so it is an exact double). With scale 1 this is the
/// plain rounding of each value to `output`.
void scale_to_output(const core::FormatRounding& output, double scale, std::span<double> values);

/// The last steps of every result of `model`: scale_to_output(model.output, scale), then one more
/// rounding to the model's epilogue where it has one.
void finish_results(const AccumulationModel& model, double scale, std::span<double> values);

}  // namespace floatscope::emu
