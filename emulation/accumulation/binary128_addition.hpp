// One binary128 addition with rne on GCC's __float128 and its IEEE flags, found from the bits:
// libgcc's soft-fp raises none, and a second soft-float operation per addition (Fast2Sum) would
// double the cost of a sum.
#pragma once

#include <bit>
#include <cstdint>

#include "core/codec.hpp"
#include "core/exception_flags.hpp"

namespace floatscope::emu {

struct Binary128Sum {
    __float128 sum;
    core::ExceptionFlags flags;
    core::ValueClass value_class;  ///< the sum's
};

namespace binary128_bits {

using Bits = unsigned __int128;
inline constexpr Bits sign_bit = static_cast<Bits>(1) << 127;
inline constexpr Bits exponent_mask = static_cast<Bits>(0x7FFF) << 112;
inline constexpr Bits hidden_bit = static_cast<Bits>(1) << 112;

inline Bits magnitude(__float128 x) { return std::bit_cast<Bits>(x) & ~sign_bit; }
/// The biased exponent of a finite number's last significand bit: its field, 1 for subnormals.
inline int unit(Bits m) {
    const auto field = static_cast<int>(m >> 112);
    return field == 0 ? 1 : field;
}
/// Trailing zero bits of a nonzero m (std::countr_zero takes no 128-bit integers).
inline int trailing_zeros(Bits m) {
    const auto low = static_cast<std::uint64_t>(m);
    return low != 0 ? std::countr_zero(low) : 64 + std::countr_zero(static_cast<std::uint64_t>(m >> 64));
}
inline Bits significand(Bits m) { return (m >> 112) == 0 ? m : (m & (hidden_bit - 1)) | hidden_bit; }
/// A double in binary128, exactly, from its fields: GCC's conversion is a libgcc call per value.
/// Zeros, subnormals, infinities and NaN take that conversion.
inline __float128 from_double(double x) {
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const auto field = static_cast<unsigned>((bits >> 52) & 0x7FF);
    if (field == 0 || field == 0x7FF) return x;
    constexpr std::uint64_t fraction_mask = (std::uint64_t{1} << 52) - 1;
    return std::bit_cast<__float128>((static_cast<Bits>(bits >> 63) << 127) |
                                     (static_cast<Bits>(field + 16383 - 1023) << 112) |
                                     (static_cast<Bits>(bits & fraction_mask) << 60));
}
inline core::ValueClass value_class(Bits m) {
    if (m == 0) return core::ValueClass::Zero;
    if (m < exponent_mask) return (m >> 112) == 0 ? core::ValueClass::Subnormal : core::ValueClass::Normal;
    return m == exponent_mask ? core::ValueClass::Infinite : core::ValueClass::NaN;
}

/// Whether s, the rne sum of finite a and b (magnitudes given), is their exact sum: the exact sum
/// S = m_hi 2^d +- m_lo (in units of the smaller operand's last bit, d the difference of the units)
/// is representable at s's exponent when it is a multiple of s's unit, 2^shift of those units.
/// S mod 2^shift needs no wide integer: for d >= shift it is m_lo's; else shift = d + 1 (a sum
/// reaches at most one binade above its larger operand), and m_lo must be a multiple of 2^d whose
/// quotient has m_hi's parity.
inline bool exact_sum(Bits a, Bits b, Bits s) {
    if (s == 0) return true;  // a nonzero exact sum is at least the smallest subnormal: only a - a rounds to 0
    const bool a_first = unit(a) >= unit(b);
    const Bits hi = a_first ? a : b, lo = a_first ? b : a;
    const Bits m_lo = significand(lo);
    if (m_lo == 0) return true;
    const int shift = unit(s) - unit(lo), d = unit(hi) - unit(lo);
    if (shift <= 0) return true;  // s's unit is at most both operands' units
    const int zeros = trailing_zeros(m_lo);
    if (d >= shift) return zeros >= shift;
    if (zeros < d) return false;
    return (((significand(hi) + (m_lo >> d)) & 1) == 0);
}

}  // namespace binary128_bits

/// a + b in binary128 with rne, with the flags IEEE 754 gives it: invalid for inf - inf or a
/// signaling NaN, overflow and inexact for a finite sum that came out infinite, inexact where the
/// sum is not exact (a finite sum of finite operands never underflows: a tiny sum is exact).
inline Binary128Sum add_binary128(__float128 a, __float128 b) {
    using namespace binary128_bits;
    Binary128Sum r{a + b, {}, {}};
    const Bits ma = magnitude(a), mb = magnitude(b), ms = magnitude(r.sum);
    r.value_class = value_class(ms);
    if (ma > exponent_mask || mb > exponent_mask) {  // a NaN operand: invalid where one is signaling
        const auto signaling = [](Bits m) { return m > exponent_mask && ((m >> 111) & 1) == 0; };
        if (signaling(ma) || signaling(mb)) r.flags.raise(core::ExceptionFlags::invalid);
    } else if (ms > exponent_mask) {
        r.flags.raise(core::ExceptionFlags::invalid);  // inf - inf
    } else if (ms == exponent_mask) {
        if (ma != exponent_mask && mb != exponent_mask)
            r.flags.raise(core::ExceptionFlags::overflow), r.flags.raise(core::ExceptionFlags::inexact);
    } else if (!exact_sum(ma, mb, ms)) {
        r.flags.raise(core::ExceptionFlags::inexact);
    }
    return r;
}

}  // namespace floatscope::emu
