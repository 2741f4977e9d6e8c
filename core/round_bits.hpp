// Branch-free rounding of a magnitude's bit pattern at a fixed bit position, in each rounding mode:
// shared by the array rounding kernels and the fast path of emulated arithmetic.
#pragma once

#include <cstdint>

#include "core/rounding_mode.hpp"

namespace floatscope::core {

/// c ? a : b as bit arithmetic: GCC's if-conversion gives up on loops with many-way selects.
template <typename Bits>
inline Bits pick(bool c, Bits a, Bits b) {
    return b ^ ((a ^ b) & (Bits{0} - static_cast<Bits>(c)));
}

/// Counter-based random bits (the finalizers of MurmurHash3, public domain, by Austin Appleby):
/// independent of the order in which elements are processed, so that array loops vectorize.
inline std::uint32_t hash_bits(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    x ^= x >> 16;
    return x;
}
inline std::uint64_t hash_bits(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 33;
    return x;
}

/// Rounds the magnitude bits `a` (of a number whose sign is `negative`) to a multiple of 2^shift
/// in `mode`, by integer arithmetic; `random` supplies the bits stochastic rounding adds. The caller
/// keeps `a` within one binade so that the bit position is the format's last significant bit.
template <RoundingMode mode, typename Bits>
inline Bits round_normal_bits(Bits a, int shift, bool negative, Bits random) {
    const Bits mask = (Bits{1} << shift) - 1;
    const Bits half = Bits{1} << (shift - 1);
    if constexpr (mode == RoundingMode::NearestEven) return (a + (half - 1) + ((a >> shift) & 1)) & ~mask;
    if constexpr (mode == RoundingMode::NearestAway) return (a + half) & ~mask;
    if constexpr (mode == RoundingMode::TowardZero) return a & ~mask;
    if constexpr (mode == RoundingMode::Upward) return (a + pick<Bits>(negative, 0, mask)) & ~mask;
    if constexpr (mode == RoundingMode::Downward) return (a + pick<Bits>(negative, mask, 0)) & ~mask;
    if constexpr (mode == RoundingMode::ToOdd) return (a & ~mask) | pick<Bits>((a & mask) != 0, mask + 1, 0);
    if constexpr (mode == RoundingMode::Stochastic) return (a + (random & mask)) & ~mask;
    return a;
}

}  // namespace floatscope::core
