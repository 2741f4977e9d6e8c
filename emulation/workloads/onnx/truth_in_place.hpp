// The ground truth's operations written into a number the caller owns: an elementwise chain
// (BatchNormalization's four steps, HardSwish, a bias, Softmax's steps) makes no MPFR number per step, where
// TruthNumerics' operations return a new one each (an allocation and a free per result).
#pragma once

#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/workloads/onnx/numerics.hpp"

namespace floatscope::emu::onnx {

/// out = a op b (Add, Sub, Mul or Div) correctly rounded to `precision` bits, the number
/// TruthNumerics::add ... div return; out may be a or b. Written into out's limbs, which hold
/// `precision` bits after it (out's precision is set to it first, unless out is an operand of
/// another precision: then a new number replaces it).
void truth_operation_into(TruthNumber& out, Operation op, const TruthNumber& a, const TruthNumber& b, int precision);

/// out = f(x) correctly rounded to `precision` bits, the number TruthNumerics::apply returns; out
/// may be x.
void truth_function_into(TruthNumber& out, Function f, const TruthNumber& x, int precision);

}  // namespace floatscope::emu::onnx
