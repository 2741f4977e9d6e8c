// What the tests of the truth's correctly rounded functions (table_exp, table_erf) share: the comparison with
// MPFR's own function, bit for bit, and a seeded GMP random state.
#pragma once

#include <cstdint>  // before mpfr.h: its intmax_t functions (MPFR_USE_INTMAX_T)

#include <gmp.h>
#include <mpfr.h>

#include "core/mpfr_number.hpp"

namespace floatscope::emu::testing {

/// Whether ours(y, x) gives the number (and sign, and NaN) mpfr's(y, x, MPFR_RNDN) gives at `precision`.
template <class Ours, class Mpfr>
bool matches_mpfr(Ours ours, Mpfr mpfrs, mpfr_srcptr x, mpfr_prec_t precision) {
    core::MpfrNumber got(precision), want(precision);
    ours(got.get(), x);
    mpfrs(want.get(), x, MPFR_RNDN);
    if (mpfr_nan_p(want.get())) return mpfr_nan_p(got.get()) != 0;
    return mpfr_equal_p(got.get(), want.get()) && mpfr_signbit(got.get()) == mpfr_signbit(want.get());
}

/// GMP's default random state, seeded.
struct RandomState {
    explicit RandomState(unsigned long seed) {
        gmp_randinit_default(state);
        gmp_randseed_ui(state, seed);
    }
    RandomState(const RandomState&) = delete;
    RandomState& operator=(const RandomState&) = delete;
    ~RandomState() { gmp_randclear(state); }
    gmp_randstate_t state;
};

}  // namespace floatscope::emu::testing
