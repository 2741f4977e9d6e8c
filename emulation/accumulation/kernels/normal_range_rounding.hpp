// Rounding floats or doubles to a narrower format by integer arithmetic, for results in the format's normal range.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/format_rounding.hpp"
#include "core/round_array.hpp"
#include "core/round_bits.hpp"

namespace floatscope::emu::detail {

/// The inner step of the GEMM kernels: round_normal_bits on the magnitude's bit pattern, exactly
/// core::round_array's result for values whose result lies in the format's normal range (or is a
/// zero the format can sign). The kernels flag the others (subnormal, overflowing, inf, NaN) and
/// send them to core::round_array.
/// Calls f(std::integral_constant<RoundingMode, m>{}) for the modes the kernels are built for
/// (Downward never reaches them: see gemm.cpp) and says whether m is one.
template <typename F>
bool with_mode(core::RoundingMode m, F&& f) {
    using core::RoundingMode;
    switch (m) {
        case RoundingMode::NearestEven: f(std::integral_constant<RoundingMode, RoundingMode::NearestEven>{}); break;
        case RoundingMode::NearestAway: f(std::integral_constant<RoundingMode, RoundingMode::NearestAway>{}); break;
        case RoundingMode::TowardZero: f(std::integral_constant<RoundingMode, RoundingMode::TowardZero>{}); break;
        case RoundingMode::Upward: f(std::integral_constant<RoundingMode, RoundingMode::Upward>{}); break;
        case RoundingMode::ToOdd: f(std::integral_constant<RoundingMode, RoundingMode::ToOdd>{}); break;
        default: return false;
    }
    return true;
}

template <typename T>
struct NormalRange {
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    static constexpr Bits sign_bit = Bits{1} << (sizeof(T) * 8 - 1);

    /// Whether the kernels can round to `r` at all: a format round_array rounds branch-free and a
    /// mode with_mode takes.
    bool applies = false;
    int shift = 0;  ///< fraction bits of T the format drops
    Bits max_input = 0;  ///< largest magnitude that rounds to a finite value (in either sign)
    Bits low_bias = 0;  ///< magnitudes a with a - low_bias < low_limit need the general code
    Bits low_limit = 0;

    explicit NormalRange(const core::FormatRounding& r) {
        using core::RoundingMode;
        const RoundingMode m = r.mode;
        if (!core::round_array_is_fast(r.format, m, sizeof(T) == 8)) return;
        const core::BinaryGeometry g = core::binary_geometry(r.format);
        shift = std::numeric_limits<T>::digits - 1 - r.format.mantissa_bits;
        const Bits max_bits = std::bit_cast<Bits>(static_cast<T>(g.max_finite));
        // Rounding is monotone and max_bits has its low `shift` bits clear: the limit is max_bits
        // plus all of them (truncating), half of them less one (nearest), or none (upward).
        const Bits mask = (Bits{1} << shift) - 1;
        applies = with_mode(m, [&](auto mode) {
            for (Bits candidate : {max_bits | mask, max_bits | (mask >> 1), max_bits}) {
                if (core::round_normal_bits<decltype(mode)::value>(candidate, shift, false, Bits{0}) <= max_bits &&
                    core::round_normal_bits<decltype(mode)::value>(candidate, shift, true, Bits{0}) <= max_bits) {
                    max_input = candidate;
                    break;
                }
            }
        });
        // Magnitudes below the format's smallest normal (when above T's) round on the subnormal
        // grid, not at `shift`; a format without -0 must not receive a negative zero, which only a
        // magnitude below 2^shift can round to.
        const bool subnormal_range = g.emin > std::numeric_limits<T>::min_exponent - 1;
        const Bits min_normal = subnormal_range ? std::bit_cast<Bits>(static_cast<T>(g.min_normal)) : 0;
        if (r.format.has_negative_zero) {
            low_bias = 1;  // a = 0 wraps above the limit: zero keeps its sign
            low_limit = subnormal_range ? min_normal - 1 : 0;
        } else {
            low_limit = std::max(min_normal, Bits{1} << shift);
        }
        if (m == RoundingMode::NearestEven) {
            // round_bits_in_range's c = +-1.5 * 2^(e + shift) must be finite, and e is the exponent
            // field's: T's subnormals take the general code.
            constexpr int fraction_bits = std::numeric_limits<T>::digits - 1;
            const Bits largest_field = 2 * std::numeric_limits<T>::max_exponent - 2 - shift;
            max_input = std::min(max_input, ((largest_field + 1) << fraction_bits) - 1);
            low_limit = std::max(low_limit, (Bits{1} << fraction_bits) - low_bias);
        }
    }
};

/// The rounded bit pattern of the value with bits u, exact when RangeExtremes finds it inside.
template <core::RoundingMode mode, typename Bits>
[[gnu::always_inline]] inline Bits round_bits_in_range(Bits u, int shift) {
    constexpr Bits sign_bit = Bits{1} << (sizeof(Bits) * 8 - 1);
    if constexpr (mode == core::RoundingMode::NearestEven) {
        // The native addition rounds to nearest even (DefaultFloatEnvironment): adding c = +-1.5 *
        // 2^(e + shift), e the exponent of x, rounds x to c's ulp, the format's quantum at x, and
        // subtracting c again is exact; a zero result takes x's sign back. Five operations where
        // the integer rounding takes six; NormalRange keeps c finite and x normal in T.
        using T = std::conditional_t<sizeof(Bits) == 4, float, double>;
        constexpr int fraction_bits = std::numeric_limits<T>::digits - 1;
        constexpr Bits exponent_and_sign = ~((Bits{1} << fraction_bits) - 1);
        const Bits offset = (Bits(shift) << fraction_bits) | (Bits{1} << (fraction_bits - 1));
        const T c = std::bit_cast<T>((u & exponent_and_sign) + offset);
        return std::bit_cast<Bits>((std::bit_cast<T>(u) + c) - c) | (u & sign_bit);
    } else {
        const Bits sign = u & sign_bit;
        return sign | core::round_normal_bits<mode>(u ^ sign, shift, sign != 0, Bits{0});
    }
}

/// Whether values are ones that round_bits_in_range rounds exactly, for a whole row or tile at
/// once: the extremes of their magnitudes, which a vectorized loop keeps as two reductions.
template <typename T>
struct RangeExtremes {
    using Bits = typename NormalRange<T>::Bits;
    Bits largest = 0;
    Bits smallest = ~Bits{0};  ///< of magnitude - low_bias

    [[gnu::always_inline]] void add(const NormalRange<T>& g, Bits u) {
        const Bits a = u & ~NormalRange<T>::sign_bit;
        largest = std::max(largest, a);
        smallest = std::min(smallest, a - g.low_bias);
    }
    /// Whether some value added lies outside: the general code must round it.
    bool outside(const NormalRange<T>& g) const { return largest > g.max_input || smallest < g.low_limit; }
};

}  // namespace floatscope::emu::detail
