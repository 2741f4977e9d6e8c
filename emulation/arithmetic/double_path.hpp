// ExactPath::DoubleWithErrorTerm's common case, shared by scalar and array arithmetic: a double
// within half an ulp of an operation's exact result and the sign of the rest, rounded on its bit
// pattern when the result lies in the format's normal range.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "core/format.hpp"
#include "core/round_bits.hpp"
#include "core/rounding_mode.hpp"
#include "emulation/arithmetic/round_to_odd.hpp"

namespace floatscope::emu {

/// value: the double nearest the exact result; direction: the sign of exact - value (0: exact).
struct NearbyDouble {
    double value = 0;
    double direction = 0;
};

/// a + b with TwoSum's exact error: no comparison, so no branch to mispredict, and loops over it
/// vectorize. `exact`: the format's sums are always doubles, so no error term is needed.
[[gnu::always_inline]] inline NearbyDouble nearby_sum(double a, double b, bool exact) {
    if (exact) return {a + b, 0};
    const ExactSum<double> sum = two_sum(a, b);
    return {sum.sum, sum.error};
}

/// a * b: at most 2 x 26 significant bits, so exact.
[[gnu::always_inline]] inline NearbyDouble nearby_product(double a, double b) { return {a * b, 0}; }

/// a / b: the exact quotient is q + remainder / b, and the remainder fma(-q, b, a) is exact;
/// remainder * b has the sign of remainder / b without a second division.
[[gnu::always_inline]] inline NearbyDouble nearby_quotient(double a, double b) {
    const double q = a / b;
    return {q, std::fma(-q, b, a) * b};
}

/// sqrt(a): the exact root exceeds r when the exact remainder a - r^2 is positive.
[[gnu::always_inline]] inline NearbyDouble nearby_root(double a) {
    const double r = std::sqrt(a);
    return {r, std::fma(-r, r, a)};
}

/// a * b + c: the product is exact, the sum as nearby_sum.
[[gnu::always_inline]] inline NearbyDouble nearby_fma(double a, double b, double c, bool exact) {
    return nearby_sum(a * b, c, exact);
}

/// What rounding a normal result needs to know about the format, in terms of double bit patterns.
struct NormalRounding {
    int shift = 0;  ///< double fraction bits below the format's last bit, plus one (see round_normal)
    std::uint64_t min_normal_bits = 0;
    std::uint64_t max_bits = 0;
    double min_normal = 0;  ///< the same bounds as doubles
    double max_finite = 0;
    bool tininess_before = false;
    /// Sums (and fma results) of two format values are always doubles: no error term needed. True
    /// when the format's exponent span plus its significand fits 53 bits (fp16 sums, fp8 fmas).
    bool exact_sums = false;
    bool exact_fmas = false;
    /// 2^(52 - M) + 1 for a format with M fraction bits: Veltkamp's splitting factor (see split_high).
    double split_factor = 0;
    /// The double fraction bits below the format's last: 2^(52 - M) - 1.
    std::uint64_t below_last_bit = 0;

    NormalRounding() = default;
    NormalRounding(const core::FormatSpec& spec, core::Tininess tininess);
};

/// Whether the double's magnitude a or its rounding `rounded` lies outside the format's normal
/// range. rounded < min also catches a NaN payload carried out of the word.
[[gnu::always_inline]] inline std::uint64_t outside_normal(const NormalRounding& r, std::uint64_t a,
                                                           std::uint64_t rounded) {
    using U = std::uint64_t;
    const U normal = static_cast<U>(a >= r.min_normal_bits) & static_cast<U>(rounded >= r.min_normal_bits) &
                     static_cast<U>(rounded <= r.max_bits);
    return normal ^ 1;
}

/// The rounded double's bits, for results in the format's normal range. Sets `failed` (to 1) when
/// the general rounder must decide instead: a result tiny, huge, zero, infinite or NaN, or at 2^emin
/// with tininess detected before rounding; sets `inexact` when rounding changed the value. Both only
/// accumulate (OR), so that a loop over many results needs no branch and vectorizes.
template <core::RoundingMode mode>
[[gnu::always_inline]] inline std::uint64_t round_normal(const NormalRounding& r, NearbyDouble near,
                                                         std::uint64_t& failed, std::uint64_t& inexact) {
    const std::uint64_t u = std::bit_cast<std::uint64_t>(near.value);
    const std::uint64_t sign = u & (std::uint64_t{1} << 63);
    const std::uint64_t a = u ^ sign;
    const bool negative = sign != 0;
    // Integer arithmetic below, without && or comparisons of bools, which keep GCC's
    // vectorizer away. One bit below the double's last: 2|s| + 1 or - 1 says on which side the exact
    // value lies (toward zero when the rest's sign differs from the value's).
    using U = std::uint64_t;
    const U direction = std::bit_cast<U>(near.direction);
    const U has_rest = static_cast<U>((direction << 1) != 0);
    const U toward_zero = (direction ^ u) >> 63;
    U twice = a << 1;
    if (has_rest != 0) twice += 1 - 2 * toward_zero;  // a masked add in vectorized loops
    const U rounded = core::round_normal_bits<mode, U>(twice, r.shift, negative, 0) >> 1;
    // Just below 2^emin, the exact value is tiny before rounding even when the double is 2^emin.
    const U tiny_before = static_cast<U>(r.tininess_before) & static_cast<U>(a == r.min_normal_bits) & has_rest;
    failed |= outside_normal(r, a, rounded) | tiny_before;
    inexact |= static_cast<U>((twice & ((U{1} << r.shift) - 1)) != 0);
    return sign | rounded;
}

/// x rounded to nearest-even at the format's precision p = M + 1, computed in floating point by
/// Veltkamp's splitting with factor 2^s + 1, s = 53 - p (Dekker, Numer. Math. 18, 1971): the high
/// part is x rounded to nearest on p bits (Boldo, IJCAR 2006, proves it for binary formats). Ties
/// go to even: a tie x has p + 1 significant bits, so for p <= 26 x * 2^s and x do not overlap and
/// x * factor is 54 bits wide with x's last bit alone below a double's: a tie, broken to even on x's
/// p-th bit, as rounding x to p bits breaks it. double_path_test checks it against MPFR, p <= 26.
/// Valid while x * factor does not overflow; round_normal_scalar checks the range afterwards.
/// Three dependent floating-point operations instead of the integer rounding's four plus two moves
/// between register files, which cost more than the rounding itself (~10 cycles for the round trip
/// on a Zen 5 core). Contracting x * factor - x into an fma would break the splitting: GCC does not
/// contract in ISO C++ (the project's mode), clang only within one expression, and on x86 the empty
/// asm makes the product opaque whatever the flags (GNU C++ with -mfma does contract).
[[gnu::always_inline]] inline double split_high(double x, double factor) {
    double scaled = x * factor;
#if defined(__SSE2__)
    asm("" : "+x"(scaled));  // no instruction
#endif
    const double low_removed = scaled - x;
    return scaled - low_removed;
}

/// round_normal for a single result whose latency counts (each result of a dependent chain feeds
/// the next operation). An exact double, the common case, is rounded to nearest-even by split_high
/// and checked in floating point, so that the value never leaves the floating-point registers; in
/// the other modes it is rounded on its whole bit pattern: no rounding of a finite magnitude carries
/// into the sign bit (a NaN's may: outside_normal fails it), so the sign needs no splitting off and
/// putting back. A double with a rest takes round_normal behind a branch expected not taken, which a
/// chain does not wait for (a select would make it wait for TwoSum's error term).
template <core::RoundingMode mode>
[[gnu::always_inline]] inline double round_normal_scalar(const NormalRounding& r, NearbyDouble near,
                                                         std::uint64_t& failed, std::uint64_t& inexact) {
    using U = std::uint64_t;
    if (__builtin_expect((std::bit_cast<U>(near.direction) << 1) != 0, 0))
        return std::bit_cast<double>(round_normal<mode>(r, near, failed, inexact));
    if constexpr (mode == core::RoundingMode::NearestEven) {
        // The value never visits an integer register. Rounding is monotone and min normal is a
        // value of the format, so a rounded magnitude above it had one above it before rounding
        // (not tiny either way; a result of exactly min normal goes to the general rounder); only a
        // rounded magnitude above max overflows; NaNs fail both comparisons.
        const double value = split_high(near.value, r.split_factor);
        const double magnitude = std::fabs(value);
        failed |= static_cast<U>(!(magnitude > r.min_normal && magnitude <= r.max_finite));
        inexact |= static_cast<U>((std::bit_cast<U>(near.value) & r.below_last_bit) != 0);
        return value;
    }
    const U u = std::bit_cast<U>(near.value);
    constexpr U sign = U{1} << 63;
    const double value = std::bit_cast<double>(core::round_normal_bits<mode, U>(u, r.shift - 1, (u & sign) != 0, 0));
    failed |= outside_normal(r, u & ~sign, std::bit_cast<U>(value) & ~sign);
    inexact |= static_cast<U>((u & r.below_last_bit) != 0);
    return value;
}

}  // namespace floatscope::emu
