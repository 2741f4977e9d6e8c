// Constants of operator formulas (Gelu's sqrt(2/pi) and 0.044715) in each evaluation's numbers:
// an emulated run's double, rounded into the compute format by the operation that reads it as a
// kernel's float literal is; the truth's to its own precision (not the double nearest); a wide
// run's as the truth's at its constants' precision, rounded by the operation that reads it.
#pragma once

#include "emulation/workloads/onnx/numerics.hpp"
#include "emulation/workloads/onnx/wide_numerics.hpp"

namespace floatscope::emu::onnx {

/// The decimal number `digits` ("0.044715").
double decimal_constant(const EmulatedNumerics& numerics, const char* digits);
TruthNumber decimal_constant(const TruthNumerics& numerics, const char* digits);
TruthNumber decimal_constant(const WideNumerics& numerics, const char* digits);

/// sqrt(2 / pi).
double sqrt_two_over_pi(const EmulatedNumerics& numerics);
TruthNumber sqrt_two_over_pi(const TruthNumerics& numerics);
TruthNumber sqrt_two_over_pi(const WideNumerics& numerics);

}  // namespace floatscope::emu::onnx
