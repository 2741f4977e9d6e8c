// ExactProductSum: GMP significand products shifted into a two's-complement limb array, one rounding at the end.
#include "emulation/accumulation/exact_product_sum.hpp"

#include <algorithm>
#include <bit>

namespace floatscope::emu {

namespace {

constexpr long limb_bits = GMP_NUMB_BITS;

/// Limbs of an MPFR number's significand: its value is +-D 2^(EXP - limb_bits n), D the n-limb integer.
mp_size_t limbs_of(mpfr_srcptr x) { return static_cast<mp_size_t>((mpfr_get_prec(x) + limb_bits - 1) / limb_bits); }

/// The exponent of a number's lowest limb bit: EXP - limb_bits n.
long lowest_bit(mpfr_srcptr x) {
    return static_cast<long>(mpfr_get_exp(x)) - limb_bits * static_cast<long>(limbs_of(x));
}

/// The exponent of a product's lowest limb bit: EXP_a + EXP_b - limb_bits (n_a + n_b).
long lowest_bit(mpfr_srcptr a, mpfr_srcptr b) { return lowest_bit(a) + lowest_bit(b); }

}  // namespace

void ExactProductSum::FactorRange::include(mpfr_srcptr x) {
    if (mpfr_zero_p(x)) return;
    const long lo = lowest_bit(x), hi = static_cast<long>(mpfr_get_exp(x));
    low = empty ? lo : std::min(low, lo);
    high = empty ? hi : std::max(high, hi);
    empty = false;
}

void ExactProductSum::begin(const Window& w, std::size_t terms) {
    low_ = w.low;
    // The sum of `terms` products below 2^high stays below 2^(high + bit_width(terms)); one more
    // bit for the sign of the two's complement.
    const long bits = w.empty ? 1 : w.high - w.low + static_cast<long>(std::bit_width(terms)) + 1;
    accumulator_.assign(static_cast<std::size_t>(bits / limb_bits + 2), 0);
}

void ExactProductSum::add(mpfr_srcptr a, mpfr_srcptr b) {
    if (mpfr_zero_p(a) || mpfr_zero_p(b)) return;
    mp_size_t na = limbs_of(a), nb = limbs_of(b);
    // The custom interface's accessor takes a non-const number; it reads only.
    const auto* da = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(const_cast<mpfr_ptr>(a)));
    const auto* db = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(const_cast<mpfr_ptr>(b)));
    if (na < nb) {  // mpn_mul wants the longer operand first
        std::swap(na, nb);
        std::swap(da, db);
    }
    // Its place in the accumulator: limb `offset`, shifted by `shift` bits within it.
    const long position = lowest_bit(a, b) - low_;
    const auto offset = static_cast<std::size_t>(position / limb_bits);
    const auto shift = static_cast<unsigned>(position % limb_bits);
    mp_limb_t* target = accumulator_.data() + offset;
    const auto room = static_cast<mp_size_t>(accumulator_.size() - offset);
    const bool negative = mpfr_signbit(a) != mpfr_signbit(b);
    if (nb == 1) {
        // A one-limb factor (a double's 53 bits): d 2^shift is two limbs, and each multiplies the
        // other factor straight into the accumulator, with no product to shift (mlp-forward's truth).
        const mp_limb_t low = db[0] << shift, high = shift != 0 ? db[0] >> (limb_bits - shift) : 0;
        if (negative) {
            mpn_sub_1(target + na, target + na, room - na, mpn_submul_1(target, da, na, low));
            mpn_sub_1(target + na + 1, target + na + 1, room - na - 1, mpn_submul_1(target + 1, da, na, high));
        } else {
            mpn_add_1(target + na, target + na, room - na, mpn_addmul_1(target, da, na, low));
            mpn_add_1(target + na + 1, target + na + 1, room - na - 1, mpn_addmul_1(target + 1, da, na, high));
        }
        return;
    }
    const auto n = static_cast<std::size_t>(na + nb);
    if (product_.size() < n + 1) product_.resize(n + 1);
    mpn_mul(product_.data(), da, na, db, nb);
    product_[n] = shift != 0 ? mpn_lshift(product_.data(), product_.data(), static_cast<mp_size_t>(n), shift) : 0;
    const auto length = static_cast<mp_size_t>(n + 1);
    // Carries and borrows past the top limb wrap around: two's complement arithmetic modulo the width.
    if (negative)
        mpn_sub(target, target, room, product_.data(), length);
    else
        mpn_add(target, target, room, product_.data(), length);
}

void ExactProductSum::round_to(mpfr_ptr out) {
    const bool negative = (accumulator_.back() >> (limb_bits - 1)) != 0;
    const auto size = static_cast<mp_size_t>(accumulator_.size());
    if (negative) mpn_neg(accumulator_.data(), accumulator_.data(), size);
    mp_size_t used = size;
    while (used > 0 && accumulator_[static_cast<std::size_t>(used - 1)] == 0) --used;
    if (used == 0) {
        mpfr_set_zero(out, 1);
        return;
    }
    mpz_t magnitude;
    mpz_roinit_n(magnitude, accumulator_.data(), negative ? -used : used);
    mpfr_set_z_2exp(out, magnitude, low_, MPFR_RNDN);
}

}  // namespace floatscope::emu
