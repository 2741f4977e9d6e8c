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

/// Whether stochastic rounding goes away from zero, for 64 uniform random bits of which the top N
/// serve as R' = 2^N - 1 - R (as uniform as R), so that each rule of StochasticRule becomes a
/// comparison: A: R' < floor(f 2^N); B: 2 R' < floor(f 2^(N+1)); C: R' < RNE(f 2^N).
inline bool stochastic_rounds_away(const StochasticRule& rule, const DiscardedBits& d, std::uint64_t random) {
    const int n = rule.random_bits;
    const std::uint64_t r = n == 64 ? random : random >> (64 - n);
    const std::uint64_t f = n == 64 ? d.fraction : d.fraction >> (64 - n);  // floor(f 2^N)
    switch (rule.variant) {
        case StochasticVariant::A: return r < f;
        case StochasticVariant::B: return 2 * r < d.fraction >> (63 - n);
        case StochasticVariant::C: {
            const bool next_bit = ((d.fraction >> (63 - n)) & 1) != 0;
            const bool rest = (d.fraction & ((std::uint64_t{1} << (63 - n)) - 1)) != 0 || d.below;
            return r < f + ((next_bit && (rest || (f & 1) != 0)) ? 1 : 0);
        }
    }
    return false;
}

/// Whether rounding moves from the truncated magnitude to the next quantum away from zero.
/// Stochastic rounding draws by `rule` (default: 64 random bits against the first 64 discarded).
inline bool rounds_away(RoundingMode mode, bool negative, bool kept_odd, const DiscardedBits& d, std::uint64_t random,
                        const StochasticRule& rule = {}) {
    if (!d.inexact()) return false;
    switch (mode) {
        case RoundingMode::NearestEven: return d.round_bit() && (d.below_round() || kept_odd);
        case RoundingMode::NearestAway: return d.round_bit();
        case RoundingMode::TowardZero: return false;
        case RoundingMode::Upward: return !negative;
        case RoundingMode::Downward: return negative;
        case RoundingMode::ToOdd: return !kept_odd;
        case RoundingMode::Stochastic: return stochastic_rounds_away(rule, d, random);
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
