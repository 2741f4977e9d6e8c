// to_long_double: the 64-bit rounding in a reused number, its one limb written as an x87 long double;
// truth_and_difference: t and x - t rounded to 64 bits from their limbs, in integers.
#include "emulation/arithmetic/mpfr_long_double.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cfenv>
#include <cfloat>
#include <cmath>
#include <cstring>

namespace floatscope::emu {
namespace {

constexpr int limb_bits = GMP_NUMB_BITS;
/// truth_and_difference's truths: at most 512 bits.
constexpr long most_truth_limbs = 8;

/// The long double m 2^(e - 64) (MPFR's exponent e: the value in [2^(e - 1), 2^e)), m with its top bit
/// set, e within a long double's normal range: x87's explicit significand, below the sign and the
/// exponent of 2^(e - 1) biased by 16383 (written directly: ldexpl cost as much as the rounding).
long double long_double_of(mp_limb_t m, long e, bool negative) {
    const auto sign_and_exponent = static_cast<std::uint16_t>((negative ? 0x8000 : 0) + (e - 1 + (LDBL_MAX_EXP - 1)));
    long double value = 0;
    std::memcpy(&value, &m, sizeof m);
    std::memcpy(reinterpret_cast<unsigned char*>(&value) + sizeof m, &sign_and_exponent, sizeof sign_and_exponent);
    return value;
}

/// A nonzero magnitude rounded to 64 bits: m 2^(e - 64), m with its top bit set.
struct Rounded {
    mp_limb_t significand;
    long exponent;
};

/// The integer of `count` limbs (least significant first, not all zero) times 2^unit, rounded to 64
/// bits to nearest, ties to even.
Rounded round_to_64_bits(const mp_limb_t* limbs, long count, long unit) {
    long top = count - 1;
    while (limbs[top] == 0) --top;
    const int lead = std::countl_zero(limbs[top]);
    const mp_limb_t next = top > 0 ? limbs[top - 1] : 0;
    // The 64 bits from the top set bit on; after them the round bit and the sticky bits below it.
    mp_limb_t significand = limbs[top] << lead;
    mp_limb_t after = next;
    if (lead != 0) {
        significand |= next >> (limb_bits - lead);
        after = next << lead;
    }
    const bool round = (after >> (limb_bits - 1)) != 0;
    bool sticky = (after << 1) != 0;
    for (long i = 0; i + 1 < top && !sticky; ++i) sticky = limbs[i] != 0;
    long exponent = unit + limb_bits * (top + 1) - lead;
    if (round && (sticky || (significand & 1) != 0) && ++significand == 0) {
        significand = mp_limb_t{1} << (limb_bits - 1);  // 2^64 - 1 rounded up: the next binade
        ++exponent;
    }
    return {significand, exponent};
}

/// Whether a long double of MPFR exponent e is normal, with room to spare.
bool well_inside_range(long e) { return e >= LDBL_MIN_EXP + limb_bits && e <= LDBL_MAX_EXP - limb_bits; }

}  // namespace

long double to_long_double(mpfr_srcptr x, mpfr_ptr rounded) {
    mpfr_set(rounded, x, MPFR_RNDN);
    if constexpr (LDBL_MANT_DIG != GMP_NUMB_BITS || std::endian::native != std::endian::little)
        return mpfr_get_ld(x, MPFR_RNDN);  // not x87's format
    if (mpfr_zero_p(x)) return mpfr_signbit(x) ? -0.0L : 0.0L;
    // MPFR's exponent e puts |x| in [2^(e-1), 2^e): a long double's normal range is e from
    // LDBL_MIN_EXP to LDBL_MAX_EXP, rounded or not.
    if (!mpfr_number_p(x) || mpfr_get_exp(x) < LDBL_MIN_EXP || mpfr_get_exp(rounded) > LDBL_MAX_EXP)
        return mpfr_get_ld(x, MPFR_RNDN);
    // rounded = m 2^(e - 64), m its one limb with its top bit set.
    return long_double_of(static_cast<const mp_limb_t*>(mpfr_custom_get_significand(rounded))[0], mpfr_get_exp(rounded),
                          mpfr_signbit(rounded) != 0);
}

std::optional<TruthAndDifference> truth_and_difference(double x, mpfr_srcptr t) {
    if constexpr (LDBL_MANT_DIG != GMP_NUMB_BITS || std::endian::native != std::endian::little) return std::nullopt;
    if (!std::isfinite(x) || !mpfr_number_p(t)) return std::nullopt;
    if (mpfr_zero_p(t)) {  // x - (+-0) = x exactly; signed zeros as IEEE subtraction gives them, as MPFR's
        const long double truth = mpfr_signbit(t) ? -0.0L : 0.0L;
        return TruthAndDifference{truth, static_cast<long double>(x) - truth};
    }
    // |t| = T 2^unit, T the integer of its limbs (least significant first).
    const auto* t_limbs = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(t));
    const auto count = static_cast<long>((mpfr_get_prec(t) + limb_bits - 1) / limb_bits);
    if (count > most_truth_limbs) return std::nullopt;
    const long unit = mpfr_get_exp(t) - limb_bits * count;
    const bool t_negative = mpfr_signbit(t) != 0;
    const Rounded truth = round_to_64_bits(t_limbs, count, unit);
    if (!well_inside_range(truth.exponent)) return std::nullopt;
    const long double rounded_truth = long_double_of(truth.significand, truth.exponent, t_negative);
    if (x == 0) return TruthAndDifference{rounded_truth, -rounded_truth};  // 0 - t rounds as t does
    // |x| = S 2^(lowest), S its significand (the hidden bit set for a normal x); |x| = X 2^unit, X = S
    // shifted up by `shift` (x's lowest bit not below t's): within count + 1 limbs where |x| < 2^64 |t|.
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const auto biased = static_cast<long>((bits >> 52) & 0x7ff);
    const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
    const mp_limb_t significand = biased == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
    const long lowest = (biased == 0 ? 1 : biased) - 1075, shift = lowest - unit;
    if (shift < 0 || lowest + static_cast<long>(std::bit_width(significand)) > mpfr_get_exp(t) + limb_bits)
        return std::nullopt;
    const auto width = static_cast<std::size_t>(count + 2);
    std::array<mp_limb_t, most_truth_limbs + 2> x_wide, t_wide, difference;
    std::fill_n(x_wide.begin(), width, 0);
    const auto at = static_cast<std::size_t>(shift / limb_bits), offset = static_cast<std::size_t>(shift % limb_bits);
    x_wide[at] = significand << offset;
    if (offset != 0) x_wide[at + 1] = significand >> (limb_bits - offset);
    std::copy(t_limbs, t_limbs + count, t_wide.begin());
    t_wide[width - 2] = t_wide[width - 1] = 0;
    // x - t = sign(x) (X - T) for operands of one sign, sign(x) (X + T) otherwise.
    const bool x_negative = std::signbit(x);
    bool negative = x_negative;
    if (x_negative != t_negative) {  // no carry out of the top limb: X, T < 2^(64 (count + 1))
        mpn_add_n(difference.data(), x_wide.data(), t_wide.data(), static_cast<mp_size_t>(width));
    } else {
        const int order = mpn_cmp(x_wide.data(), t_wide.data(), static_cast<mp_size_t>(width));
        if (order == 0) return TruthAndDifference{rounded_truth, 0.0L};  // an exact zero is +0 to nearest
        if (order > 0) {
            mpn_sub_n(difference.data(), x_wide.data(), t_wide.data(), static_cast<mp_size_t>(width));
        } else {
            mpn_sub_n(difference.data(), t_wide.data(), x_wide.data(), static_cast<mp_size_t>(width));
            negative = !negative;
        }
    }
    const Rounded rounded_difference = round_to_64_bits(difference.data(), static_cast<long>(width), unit);
    if (!well_inside_range(rounded_difference.exponent)) return std::nullopt;
    return TruthAndDifference{rounded_truth,
                              long_double_of(rounded_difference.significand, rounded_difference.exponent, negative)};
}

namespace {

/// Whether long double division rounds to 64 bits, as the bound in quotient_to_double assumes: x87
/// precision control set to 53 bits (some runtimes do), or an emulator that computes x87 in double
/// (valgrind), would break it. 1/3's 64-bit significand is 0xAAAAAAAAAAAAAAAB; at 53 bits its low
/// 11 bits are 0.
bool divides_in_64_bits() {
    static const bool extended = [] {
        volatile long double one = 1, three = 3;
        const long double third = one / three;
        std::uint64_t significand = 0;
        std::memcpy(&significand, &third, sizeof significand);
        return significand == 0xAAAAAAAAAAAAAAABull;
    }();
    return extended;
}

}  // namespace

std::optional<double> quotient_to_double(long double d, long double t_rounded) {
    if constexpr (LDBL_MANT_DIG != 64 || std::endian::native != std::endian::little)
        return std::nullopt;  // the bound below is x87's
    if (!divides_in_64_bits()) return std::nullopt;
    if (!std::isnormal(d) || !std::isnormal(t_rounded) || std::fegetround() != FE_TONEAREST) return std::nullopt;
    // y = d / t, t_rounded = t (1 + a) and q = (d / t_rounded)(1 + b), |a|, |b| <= 2^-64: q is y
    // within 2.1 2^-64 |y|, and y's 64-bit rounding z (MPFR's) within 3.2 2^-64 |y| of q, which is
    // 6.4 units of q's last place u (|y| < 2^(e + 1) for |q| in [2^e, 2^(e + 1))). Both round to
    // the same double unless a midpoint between doubles lies within that distance of q. Midpoints
    // fall at 1024 u in q's binade (the low 11 of 64 bits: 2^11 u is a double's step); at 512 u
    // or more on either side of the binade's ends, which are doubles. A margin of 16 u covers it.
    const long double q = d / t_rounded;
    const long double magnitude = std::fabs(q);
    if (!(magnitude >= 0x1p-1021L && magnitude < 0x1p1023L)) return std::nullopt;  // a normal double, with room
    std::uint64_t significand = 0;
    std::memcpy(&significand, &q, sizeof significand);
    constexpr std::uint64_t double_step = 2048, midpoint = 1024, margin = 16;
    const std::uint64_t within_step = significand % double_step;
    if (within_step + margin >= midpoint && within_step <= midpoint + margin) return std::nullopt;
    return static_cast<double>(q);  // to nearest: the double of every number in q's cell
}

}  // namespace floatscope::emu
