// Sums and dot products under an accumulation model.
#pragma once

#include <span>

#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// c + dot(x, y) under `model` (see AccumulationModel for the steps): exactly the value the model
/// defines, with the addend c the accumulation's starting value (for a block FMA the first block's
/// c: a tensor core's D = A B + C; c is taken as it is, a value of the output format). Throws
/// floatscope::Error for an invalid model, vectors of different lengths, or a c other than 0 for a
/// pairwise order.
double dot(const AccumulationModel& model, std::span<const double> x, std::span<const double> y, double c = 0);

/// sum(x) under `model`: dot(x, 1) with the second operand exactly 1 (model.y is not used), the
/// result scaled back by x.scale alone.
double sum(const AccumulationModel& model, std::span<const double> x);

}  // namespace floatscope::emu
