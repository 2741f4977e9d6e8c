// Rounding a real number (a double) to an integer under any of FloatScope's rounding modes.
#pragma once

#include <cmath>

#include "core/rounding_mode.hpp"
#include "core/stochastic_source.hpp"

namespace floatscope::emu {

/// v rounded to an integer (returned as a double) under `mode`. Exact for |v| < 2^52; the caller
/// folds any error of computing v into v's last bit by round-to-odd (emulation/arithmetic/round_to_odd.hpp)
/// so that this one rounding is the rounding of the exact value. Stochastic modes draw 53 bits
/// from `random` (required for them): up with probability (v - floor v), to 2^-53.
inline double round_to_integer(double v, core::RoundingMode mode, core::StochasticSource* random) {
    using core::RoundingMode;
    const double down = std::floor(v);
    const double fraction = v - down;  // exact: v and floor(v) share v's binade or are 0
    switch (mode) {
        case RoundingMode::NearestEven:
            return fraction > 0.5 || (fraction == 0.5 && std::fmod(down, 2.0) != 0) ? down + 1 : down;
        case RoundingMode::NearestAway: return std::round(v);
        case RoundingMode::TowardZero: return std::trunc(v);
        case RoundingMode::Upward: return std::ceil(v);
        case RoundingMode::Downward: return down;
        case RoundingMode::ToOdd: {
            const double t = std::trunc(v);
            return t != v && std::fmod(t, 2.0) == 0 ? t + (v < 0 ? -1 : 1) : t;
        }
        case RoundingMode::Stochastic: {
            const double u = static_cast<double>(random->next() >> 11) * 0x1p-53;
            return u < fraction ? down + 1 : down;
        }
        case RoundingMode::StochasticEqual: return fraction != 0 && (random->next() >> 63) != 0 ? down + 1 : down;
    }
    return down;
}

}  // namespace floatscope::emu
