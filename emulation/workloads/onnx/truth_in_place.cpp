// The ground truth's operations written into a number the caller owns.
#include "emulation/workloads/onnx/truth_in_place.hpp"

#include <initializer_list>
#include <utility>

#include <mpfr.h>

#include "emulation/arithmetic/table_erf.hpp"
#include "emulation/arithmetic/table_exp.hpp"

namespace floatscope::emu::onnx {

namespace {

void round_operation(mpfr_ptr out, Operation op, mpfr_srcptr a, mpfr_srcptr b) {
    switch (op) {
        case Operation::Add: mpfr_add(out, a, b, MPFR_RNDN); return;
        case Operation::Sub: mpfr_sub(out, a, b, MPFR_RNDN); return;
        case Operation::Mul: mpfr_mul(out, a, b, MPFR_RNDN); return;
        default: mpfr_div(out, a, b, MPFR_RNDN); return;
    }
}

void round_function(mpfr_ptr r, Function f, mpfr_srcptr in) {
    switch (f) {
        case Function::Neg: mpfr_neg(r, in, MPFR_RNDN); break;
        case Function::Abs: mpfr_abs(r, in, MPFR_RNDN); break;
        case Function::Exp: correctly_rounded_exp(r, in); break;  // mpfr_exp's number, sooner
        case Function::Log: mpfr_log(r, in, MPFR_RNDN); break;
        case Function::Sqrt: mpfr_sqrt(r, in, MPFR_RNDN); break;
        case Function::Reciprocal: mpfr_ui_div(r, 1, in, MPFR_RNDN); break;
        case Function::Erf: correctly_rounded_erf(r, in); break;  // mpfr_erf's number, sooner
        case Function::Tanh: mpfr_tanh(r, in, MPFR_RNDN); break;
        case Function::Sigmoid:  // 1 / (1 + e^-x), two extra roundings far below the truth's precision
            mpfr_neg(r, in, MPFR_RNDN);
            correctly_rounded_exp(r, r);
            mpfr_add_ui(r, r, 1, MPFR_RNDN);
            mpfr_ui_div(r, 1, r, MPFR_RNDN);
            break;
        case Function::Floor: mpfr_floor(r, in); break;
        case Function::Ceil: mpfr_ceil(r, in); break;
        case Function::Round: mpfr_rint(r, in, MPFR_RNDN); break;
        case Function::Sin: mpfr_sin(r, in, MPFR_RNDN); break;
        case Function::Cos: mpfr_cos(r, in, MPFR_RNDN); break;
        case Function::Tan: mpfr_tan(r, in, MPFR_RNDN); break;
        case Function::Asin: mpfr_asin(r, in, MPFR_RNDN); break;
        case Function::Acos: mpfr_acos(r, in, MPFR_RNDN); break;
        case Function::Atan: mpfr_atan(r, in, MPFR_RNDN); break;
        case Function::Sinh: mpfr_sinh(r, in, MPFR_RNDN); break;
        case Function::Cosh: mpfr_cosh(r, in, MPFR_RNDN); break;
        case Function::Asinh: mpfr_asinh(r, in, MPFR_RNDN); break;
        case Function::Acosh: mpfr_acosh(r, in, MPFR_RNDN); break;
        case Function::Atanh: mpfr_atanh(r, in, MPFR_RNDN); break;
    }
}

/// Whether out can take a result of `precision` bits in its own limbs: its precision set to it, unless
/// out is an operand of another precision (setting it would lose the operand).
bool ready_for(TruthNumber& out, int precision, std::initializer_list<const TruthNumber*> operands) {
    mpfr_ptr r = out.backend().data();
    if (mpfr_get_prec(r) == precision) return true;
    for (const TruthNumber* operand : operands)
        if (operand == &out) return false;
    mpfr_set_prec(r, precision);  // reallocates only where out's limbs hold fewer bits
    return true;
}

}  // namespace

void truth_operation_into(TruthNumber& out, Operation op, const TruthNumber& a, const TruthNumber& b, int precision) {
    if (ready_for(out, precision, {&a, &b}))
        return round_operation(out.backend().data(), op, a.backend().data(), b.backend().data());
    TruthNumber made = truth_number(precision);
    round_operation(made.backend().data(), op, a.backend().data(), b.backend().data());
    out = std::move(made);
}

void truth_function_into(TruthNumber& out, Function f, const TruthNumber& x, int precision) {
    if (ready_for(out, precision, {&x})) return round_function(out.backend().data(), f, x.backend().data());
    TruthNumber made = truth_number(precision);
    round_function(made.backend().data(), f, x.backend().data());
    out = std::move(made);
}

}  // namespace floatscope::emu::onnx
