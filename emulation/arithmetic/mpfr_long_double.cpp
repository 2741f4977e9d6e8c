// to_long_double: the 64-bit rounding in a reused number, its one limb scaled into a long double.
#include "emulation/arithmetic/mpfr_long_double.hpp"

#include <cfloat>
#include <cmath>

namespace floatscope::emu {

long double to_long_double(mpfr_srcptr x, mpfr_ptr rounded) {
    mpfr_set(rounded, x, MPFR_RNDN);
    if constexpr (LDBL_MANT_DIG != GMP_NUMB_BITS) return mpfr_get_ld(x, MPFR_RNDN);  // not x87's format
    if (mpfr_zero_p(x)) return mpfr_signbit(x) ? -0.0L : 0.0L;
    // MPFR's exponent e puts |x| in [2^(e-1), 2^e): a long double's normal range is e from
    // LDBL_MIN_EXP to LDBL_MAX_EXP, rounded or not.
    if (!mpfr_number_p(x) || mpfr_get_exp(x) < LDBL_MIN_EXP || mpfr_get_exp(rounded) > LDBL_MAX_EXP)
        return mpfr_get_ld(x, MPFR_RNDN);
    // rounded = m 2^(e - 64), m its one limb: exact in a long double of the normal range.
    const mp_limb_t m = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(rounded))[0];
    const long double magnitude =
        std::ldexp(static_cast<long double>(m), static_cast<int>(mpfr_get_exp(rounded)) - LDBL_MANT_DIG);
    return mpfr_signbit(rounded) ? -magnitude : magnitude;
}

}  // namespace floatscope::emu
