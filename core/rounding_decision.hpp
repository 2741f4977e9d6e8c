// The per-mode decisions every rounding path shares (narrow core::Rounder, wide core::WideRounder).
#pragma once

#include <cstdint>

#include "core/rounding_mode.hpp"

namespace floatscope::core {

/// What rounding |x| at some quantum discards: the first 64 bits of the discarded fraction of a
/// quantum (its top bit is the round bit) and whether any bit below those is set.
struct DiscardedBits {
    std::uint64_t fraction = 0;
    bool below = false;  ///< a nonzero bit below those 64

    bool round_bit() const { return (fraction >> 63) != 0; }
    bool below_round() const { return (fraction << 1) != 0 || below; }
    bool inexact() const { return fraction != 0 || below; }
};

/// Whether rounding moves from the truncated magnitude to the next quantum away from zero.
/// Stochastic rounding compares 64 random bits with the first 64 discarded bits.
inline bool rounds_away(RoundingMode mode, bool negative, bool kept_odd, const DiscardedBits& d, std::uint64_t random) {
    if (!d.inexact()) return false;
    switch (mode) {
        case RoundingMode::NearestEven: return d.round_bit() && (d.below_round() || kept_odd);
        case RoundingMode::NearestAway: return d.round_bit();
        case RoundingMode::TowardZero: return false;
        case RoundingMode::Upward: return !negative;
        case RoundingMode::Downward: return negative;
        case RoundingMode::ToOdd: return !kept_odd;
        case RoundingMode::Stochastic: return random < d.fraction;
        case RoundingMode::StochasticEqual: return (random >> 63) != 0;
    }
    return false;
}

/// Whether an overflow in this mode heads for infinity (true) or stops at the largest finite value;
/// stochastic overflow behaves as round-to-nearest.
inline bool overflow_heads_to_infinity(RoundingMode mode, bool negative) {
    switch (mode) {
        case RoundingMode::TowardZero:
        case RoundingMode::ToOdd: return false;
        case RoundingMode::Upward: return !negative;
        case RoundingMode::Downward: return negative;
        default: return true;
    }
}

}  // namespace floatscope::core
