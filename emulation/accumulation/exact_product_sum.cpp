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

/// target += x (low + high 2^64), x of n limbs and high < 2^63 (the bits a shift moves out of one
/// limb), carried through the `room` limbs of the sum: one
/// pass over the limbs, each loaded and stored once. Written out rather than two mpn_addmul_1:
/// for the few limbs of a truth's number, the calls and the second pass cost more than the
/// multiplications (the gemms of an ONNX model's truth, whose weights are one limb).
inline void multiply_into(mp_limb_t* target, mp_size_t room, const mp_limb_t* x, mp_size_t n, mp_limb_t low,
                          mp_limb_t high) {
    using Wide = unsigned __int128;
    constexpr auto lo = [](Wide w) { return static_cast<mp_limb_t>(w); };
    constexpr auto hi = [](Wide w) { return static_cast<mp_limb_t>(w >> limb_bits); };
    // Column i receives lo(x_i low) + hi(x_(i-1) low) + lo(x_(i-1) high) + hi(x_(i-2) high) and the
    // carry: `pending` holds all but the first (below 2^66), `high_behind` the last for the next.
    Wide pending = 0;
    mp_limb_t high_behind = 0;
    mp_size_t i = 0;
    for (; i < n; ++i) {
        const Wide a = static_cast<Wide>(x[i]) * low, b = static_cast<Wide>(x[i]) * high;
        const Wide column = static_cast<Wide>(target[i]) + lo(a) + pending;
        target[i] = lo(column);
        pending = static_cast<Wide>(hi(column)) + hi(a) + lo(b) + high_behind;
        high_behind = hi(b);
    }
    pending += static_cast<Wide>(high_behind) << limb_bits;  // column n + 1's share, one limb up
    for (; pending != 0 && i < room; ++i) {
        const Wide column = static_cast<Wide>(target[i]) + lo(pending);
        target[i] = lo(column);
        pending = (pending >> limb_bits) + hi(column);
    }
}

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
    // The sum of `terms` products below 2^high stays below 2^(high + bit_width(terms)).
    const long bits = w.empty ? 1 : w.high - w.low + static_cast<long>(std::bit_width(terms));
    positive_.assign(static_cast<std::size_t>(bits / limb_bits + 2), 0);
    negative_.assign(positive_.size(), 0);
}

void ExactProductSum::add(mpfr_srcptr a, mpfr_srcptr b) {
    if (mpfr_zero_p(a) || mpfr_zero_p(b)) return;
    mp_size_t na = limbs_of(a), nb = limbs_of(b);
    // The custom interface's accessor takes a non-const number; it reads only.
    const auto* da = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(const_cast<mpfr_ptr>(a)));
    const auto* db = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(const_cast<mpfr_ptr>(b)));
    // Low limbs that are zero add nothing: a double held at the truth's 256 bits multiplies as the
    // one limb it is (a network's weights), not as four.
    long position = lowest_bit(a, b) - low_;
    for (; da[0] == 0; ++da, --na) position += limb_bits;  // the top limb of a nonzero number is not 0
    for (; db[0] == 0; ++db, --nb) position += limb_bits;
    if (na < nb) {  // mpn_mul wants the longer operand first
        std::swap(na, nb);
        std::swap(da, db);
    }
    // Its place in the accumulator: limb `offset`, shifted by `shift` bits within it.
    const auto offset = static_cast<std::size_t>(position / limb_bits);
    const auto shift = static_cast<unsigned>(position % limb_bits);
    // Positive and negative products go to two sums of magnitudes: a carry stops at the first limb
    // that does not overflow, where in one two's-complement sum every change of sign carried or
    // borrowed through all the limbs above.
    std::vector<mp_limb_t>& sum = mpfr_signbit(a) != mpfr_signbit(b) ? negative_ : positive_;
    mp_limb_t* target = sum.data() + offset;
    const auto room = static_cast<mp_size_t>(sum.size() - offset);
    if (nb == 1) {
        // A one-limb factor (a double's 53 bits, a weight): d 2^shift is two limbs, and each
        // multiplies the other factor straight into the sum, with no product to shift.
        const mp_limb_t low = db[0] << shift, high = shift != 0 ? db[0] >> (limb_bits - shift) : 0;
        multiply_into(target, room, da, na, low, high);
        return;
    }
    const auto n = static_cast<std::size_t>(na + nb);
    if (product_.size() < n + 1) product_.resize(n + 1);
    mpn_mul(product_.data(), da, na, db, nb);
    product_[n] = shift != 0 ? mpn_lshift(product_.data(), product_.data(), static_cast<mp_size_t>(n), shift) : 0;
    mpn_add(target, target, room, product_.data(), static_cast<mp_size_t>(n + 1));
}

void ExactProductSum::round_to(mpfr_ptr out) {
    // The sum is positive_ - negative_: the larger magnitude less the smaller, with its sign.
    const auto size = static_cast<mp_size_t>(positive_.size());
    const bool negative = mpn_cmp(negative_.data(), positive_.data(), size) > 0;
    std::vector<mp_limb_t>& larger = negative ? negative_ : positive_;
    mpn_sub_n(larger.data(), larger.data(), (negative ? positive_ : negative_).data(), size);
    mp_size_t used = size;
    while (used > 0 && larger[static_cast<std::size_t>(used - 1)] == 0) --used;
    if (used == 0) {
        mpfr_set_zero(out, 1);
        return;
    }
    mpz_t magnitude;
    mpz_roinit_n(magnitude, larger.data(), negative ? -used : used);
    mpfr_set_z_2exp(out, magnitude, low_, MPFR_RNDN);
}

}  // namespace floatscope::emu
