// to_long_double: the 64-bit rounding in a reused number, its one limb written as an x87 long double.
#include "emulation/arithmetic/mpfr_long_double.hpp"

#include <bit>
#include <cfenv>
#include <cfloat>
#include <cmath>
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

namespace {

/// Whether long double division rounds to 64 bits, as the bound in quotient_to_double assumes: x87
/// precision control set to 53 bits (some runtimes do), or an emulator that computes x87 in double
/// (valgrind), would break it. 1/3's 64-bit significand is 0xAAAAAAAAAAAAAAAB; at 53 bits its low
/// 11 bits are 0.
bool divides_in_64_bits() {
    static const bool extended = [] {
        volatile long double one = 1, three = 3;
        const long double third = one / three;
        std::uint64_t significand = 0;
        std::memcpy(&significand, &third, sizeof significand);
        return significand == 0xAAAAAAAAAAAAAAABull;
    }();
    return extended;
}

}  // namespace

std::optional<double> quotient_to_double(long double d, long double t_rounded) {
    if constexpr (LDBL_MANT_DIG != 64 || std::endian::native != std::endian::little)
        return std::nullopt;  // the bound below is x87's
    if (!divides_in_64_bits()) return std::nullopt;
    if (!std::isnormal(d) || !std::isnormal(t_rounded) || std::fegetround() != FE_TONEAREST) return std::nullopt;
    // y = d / t, t_rounded = t (1 + a) and q = (d / t_rounded)(1 + b), |a|, |b| <= 2^-64: q is y
    // within 2.1 2^-64 |y|, and y's 64-bit rounding z (MPFR's) within 3.2 2^-64 |y| of q, which is
    // 6.4 units of q's last place u (|y| < 2^(e + 1) for |q| in [2^e, 2^(e + 1))). Both round to
    // the same double unless a midpoint between doubles lies within that distance of q. Midpoints
    // fall at 1024 u in q's binade (the low 11 of 64 bits: 2^11 u is a double's step); at 512 u
    // or more on either side of the binade's ends, which are doubles. A margin of 16 u covers it.
    const long double q = d / t_rounded;
    const long double magnitude = std::fabs(q);
    if (!(magnitude >= 0x1p-1021L && magnitude < 0x1p1023L)) return std::nullopt;  // a normal double, with room
    std::uint64_t significand = 0;
    std::memcpy(&significand, &q, sizeof significand);
    constexpr std::uint64_t double_step = 2048, midpoint = 1024, margin = 16;
    const std::uint64_t within_step = significand % double_step;
    if (within_step + margin >= midpoint && within_step <= midpoint + margin) return std::nullopt;
    return static_cast<double>(q);  // to nearest: the double of every number in q's cell
}

}  // namespace floatscope::emu
