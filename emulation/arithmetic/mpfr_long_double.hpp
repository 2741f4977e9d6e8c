// to_long_double: an MPFR number rounded to a long double without the allocation mpfr_get_ld makes.
#pragma once

#include <cstdint>  // before mpfr.h: its intmax_t functions (MPFR_USE_INTMAX_T)

#include <gmp.h>
#include <mpfr.h>

namespace floatscope::emu {

/// The precision of the scratch number to_long_double rounds into: a long double's significand.
inline constexpr mpfr_prec_t long_double_significand_bits = 64;

/// mpfr_get_ld(x, MPFR_RNDN), bit for bit, for any x. mpfr_get_ld allocates a number per call; this
/// rounds into `rounded` (of long_double_significand_bits bits, the caller's, reused), which then
/// holds x rounded to 64 bits. A region's measures convert each of its values this way. Values
/// beyond a long double's normal range (subnormals round to fewer bits), infinities and NaNs go
/// to mpfr_get_ld, as does every value where a long double is not x87's 64-bit significand.
long double to_long_double(mpfr_srcptr x, mpfr_ptr rounded);

}  // namespace floatscope::emu
