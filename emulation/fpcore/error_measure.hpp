// Error measures of FPCore results against the ground truth: Herbie's bits of error (ordinal
// distance between format values) and relative error.
#pragma once

#include <cstdint>
#include <mpfr.h>

#include "core/format.hpp"
#include "core/rounding.hpp"

namespace floatscope::emu::fpcore {

/// Position of a value among a binary format's values: ..., -min_subnormal = -1, +-0 = 0,
/// min_subnormal = 1, ..., max, infinity; consecutive values differ by one. `value` is rounded to
/// the format (to nearest) first. NaN has no ordinal (callers handle it).
std::int64_t format_ordinal(const core::Rounder& nearest, double value);

/// The value of `ordinal` in the format (the inverse of format_ordinal).
double value_of_ordinal(const core::FormatSpec& format, std::int64_t ordinal);

/// Bits of error of `computed` against the exact `truth`, as Herbie measures it (Panchekha et al.,
/// "Automatically improving accuracy for floating point expressions", PLDI 2015, section 4.1):
/// log2(1 + the number of format values between computed and truth rounded to the format).
/// 0 when both are NaN; the format's width when only one is.
double bits_of_error(const core::Rounder& nearest, double computed, mpfr_srcptr truth);

/// |computed - truth| / |truth| (0 when equal, inf when truth is 0 and computed is not; NaN when
/// either is NaN).
double relative_error(double computed, mpfr_srcptr truth);

}  // namespace floatscope::emu::fpcore
