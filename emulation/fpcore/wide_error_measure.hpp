// Error measures of FPCore results in formats wider than binary64: Herbie's bits of error by the
// ordinal distance between the format's patterns, and relative error, all in GMP and MPFR.
#pragma once

#include <cstdint>
#include <mpfr.h>

#include "core/wide_rounding.hpp"
#include "emulation/fpcore/real.hpp"

namespace floatscope::emu::fpcore {

/// As bits_of_error (error_measure.hpp) for a value of a wide format: log2(1 + the number of the
/// format's values between computed and truth rounded to nearest in it), where that number can
/// exceed 2^1000 (e30m1024). 0 when both are NaN; the format's width when only one is.
double bits_of_error(const core::WideRounder& nearest, const Real& computed, mpfr_srcptr truth);

/// |computed - truth| / |truth| (0 when equal, inf when truth is 0 and computed is not; NaN when
/// either is NaN), rounded to a double.
double relative_error(const Real& computed, mpfr_srcptr truth);

/// -log2 of the relative error within [0, p]: the correct bits (0 for a NaN result).
double correct_bits(const Real& computed, mpfr_srcptr truth, int p);

}  // namespace floatscope::emu::fpcore
