// The ground truth's operations written into a number the caller owns.
#include "emulation/workloads/onnx/truth_in_place.hpp"

#include <utility>

#include <mpfr.h>

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

}  // namespace

void truth_operation_into(TruthNumber& out, Operation op, const TruthNumber& a, const TruthNumber& b, int precision) {
    mpfr_ptr r = out.backend().data();
    if (mpfr_get_prec(r) != precision) {
        if (&out == &a || &out == &b) {  // setting its precision would lose the operand
            TruthNumber made = truth_number(precision);
            round_operation(made.backend().data(), op, a.backend().data(), b.backend().data());
            out = std::move(made);
            return;
        }
        mpfr_set_prec(r, precision);  // reallocates only where out's limbs hold fewer bits
    }
    round_operation(r, op, a.backend().data(), b.backend().data());
}

}  // namespace floatscope::emu::onnx
