// Round to odd: folds an exact error term into the last bit, so that one later rounding is still exact.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace floatscope::emu {

/// The exact value s + e, where s is a float or double and |e| is at most half an ulp of s (what
/// TwoSum, TwoProd and exact division remainders deliver), rounded to odd at s's precision: s when
/// e is zero, otherwise whichever of s and its neighbour on e's side has an odd last bit.
///
/// Rounding the result to any format with at least two significant bits fewer than the type (22
/// for float, 51 for double) and inside its range gives the correct rounding of s + e in every
/// non-stochastic mode: Boldo and Melquiond, "Emulation of FMA and correctly rounded sums: proved
/// algorithms using rounding to odd", IEEE Transactions on Computers 57(4), 2008.
///
/// Branch-free (selects only) so that loops calling it vectorize; inf and NaN pass unchanged.
template <typename T>
inline T round_to_odd(T s, T e) {
    static_assert(std::is_floating_point_v<T>);
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    constexpr Bits sign_mask = Bits{1} << (sizeof(T) * 8 - 1);
    constexpr Bits infinity = std::bit_cast<Bits>(std::numeric_limits<T>::infinity());
    const Bits u = std::bit_cast<Bits>(s);
    const Bits v = std::bit_cast<Bits>(e);
    const Bits magnitude = u & ~sign_mask;
    const bool inexact = (e != 0) & (magnitude < infinity);
    // e on the side of zero: the odd candidate is s or the neighbour just below |s|.
    const Bits toward_zero = ((u ^ v) & sign_mask) != 0 ? 1 : 0;
    Bits odd = (u - toward_zero) | 1;
    // s = 0 (an underflowed quotient): the smallest subnormal with e's sign.
    odd = magnitude == 0 ? (v & sign_mask) | 1 : odd;
    return std::bit_cast<T>(inexact ? odd : u);
}

/// TwoSum (Knuth, TAOCP 4.2.2): s = fl(a + b) and the exact error, so that a + b = s + e, barring overflow.
template <typename T>
struct ExactSum {
    T sum;
    T error;
};
template <typename T>
[[gnu::always_inline]] inline ExactSum<T> two_sum(T a, T b) {
    const T s = a + b;
    const T b_virtual = s - a;
    const T a_virtual = s - b_virtual;
    return {s, (a - a_virtual) + (b - b_virtual)};
}

}  // namespace floatscope::emu
