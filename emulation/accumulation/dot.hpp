// Sums and dot products under an accumulation model.
#pragma once

#include <span>

#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// dot(x, y) under `model` (see AccumulationModel for the steps): exactly the value the model
/// defines. Throws floatscope::Error for an invalid model or vectors of different lengths.
double dot(const AccumulationModel& model, std::span<const double> x, std::span<const double> y);

/// sum(x) under `model`: dot(x, 1) with the second operand exactly 1 (model.y is not used), the
/// result scaled back by x.scale alone.
double sum(const AccumulationModel& model, std::span<const double> x);

}  // namespace floatscope::emu
