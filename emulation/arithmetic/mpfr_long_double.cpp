// to_long_double: the 64-bit rounding in a reused number, its one limb written as an x87 long double.
#include "emulation/arithmetic/mpfr_long_double.hpp"

#include <bit>
#include <cfloat>
#include <cstring>

namespace floatscope::emu {

long double to_long_double(mpfr_srcptr x, mpfr_ptr rounded) {
    mpfr_set(rounded, x, MPFR_RNDN);
    if constexpr (LDBL_MANT_DIG != GMP_NUMB_BITS || std::endian::native != std::endian::little)
        return mpfr_get_ld(x, MPFR_RNDN);  // not x87's format
    if (mpfr_zero_p(x)) return mpfr_signbit(x) ? -0.0L : 0.0L;
    // MPFR's exponent e puts |x| in [2^(e-1), 2^e): a long double's normal range is e from
    // LDBL_MIN_EXP to LDBL_MAX_EXP, rounded or not.
    if (!mpfr_number_p(x) || mpfr_get_exp(x) < LDBL_MIN_EXP || mpfr_get_exp(rounded) > LDBL_MAX_EXP)
        return mpfr_get_ld(x, MPFR_RNDN);
    // rounded = m 2^(e - 64), m its one limb with its top bit set: x87's explicit significand, below
    // the sign and the exponent of 2^(e - 1) biased by 16383 (written directly: ldexpl cost as much
    // as the rounding).
    const mp_limb_t m = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(rounded))[0];
    const auto sign_and_exponent = static_cast<std::uint16_t>((mpfr_signbit(rounded) ? 0x8000 : 0) +
                                                              (mpfr_get_exp(rounded) - 1 + (LDBL_MAX_EXP - 1)));
    long double value = 0;
    std::memcpy(&value, &m, sizeof m);
    std::memcpy(reinterpret_cast<unsigned char*>(&value) + sizeof m, &sign_and_exponent, sizeof sign_and_exponent);
    return value;
}

}  // namespace floatscope::emu
