// Constants of operator formulas in each evaluation's numbers.
#include "emulation/workloads/onnx/operators/constants.hpp"

#include <cmath>
#include <cstdlib>

#include <mpfr.h>

namespace floatscope::emu::onnx {

double decimal_constant(const EmulatedNumerics&, const char* digits) { return std::strtod(digits, nullptr); }

TruthNumber decimal_constant(const TruthNumerics& numerics, const char* digits) {
    TruthNumber r = truth_number(numerics.precision());
    mpfr_set_str(r.backend().data(), digits, 10, MPFR_RNDN);
    return r;
}

TruthNumber decimal_constant(const WideNumerics& numerics, const char* digits) {
    return decimal_constant(TruthNumerics(numerics.precision()), digits);
}

double sqrt_two_over_pi(const EmulatedNumerics&) { return std::sqrt(2 / M_PI); }

TruthNumber sqrt_two_over_pi(const TruthNumerics& numerics) {
    TruthNumber r = truth_number(numerics.precision());
    mpfr_ptr x = r.backend().data();
    mpfr_const_pi(x, MPFR_RNDN);
    mpfr_ui_div(x, 2, x, MPFR_RNDN);
    mpfr_sqrt(x, x, MPFR_RNDN);
    return r;
}

TruthNumber sqrt_two_over_pi(const WideNumerics& numerics) { return sqrt_two_over_pi(TruthNumerics(numerics.precision())); }

}  // namespace floatscope::emu::onnx
