// The FPCore real functions in MPFR: one call computes any of them, rounded as asked, with the
// ternary value MPFR reports (C11 <math.h> special cases, as MPFR follows them).
#pragma once

#include <cstdint>
#include <mpfr.h>

#include "core/rounding_mode.hpp"
#include "emulation/fpcore/operations.hpp"

namespace floatscope::emu::fpcore {

/// result = op(a, b, c) rounded with `rnd`; returns MPFR's ternary value. `nearby_mode` is the
/// rounding of nearbyint (the context's). Only real-valued operations (ResultKind::Real, not Ref).
int mpfr_apply(Op op, mpfr_ptr result, mpfr_srcptr a, mpfr_srcptr b, mpfr_srcptr c, mpfr_rnd_t rnd,
               mpfr_rnd_t nearby_mode);

/// MPFR's rounding for a context's mode (the nearest modes and the three directed ones).
inline mpfr_rnd_t mpfr_rounding(core::RoundingMode mode) {
    switch (mode) {
        case core::RoundingMode::TowardZero: return MPFR_RNDZ;
        case core::RoundingMode::Upward: return MPFR_RNDU;
        case core::RoundingMode::Downward: return MPFR_RNDD;
        case core::RoundingMode::NearestAway: return MPFR_RNDNA;
        default: return MPFR_RNDN;
    }
}

/// result = the constant rounded with `rnd`; returns the ternary value. Not True/False.
int mpfr_constant(Constant constant, mpfr_ptr result, mpfr_rnd_t rnd);

}  // namespace floatscope::emu::fpcore
