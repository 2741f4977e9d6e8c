// FixedPoint: MPFR numbers to and from limbs, and products that skip the limbs a result cannot feel.
#include "emulation/arithmetic/fixed_point.hpp"

#include <algorithm>

#include "core/mpfr_number.hpp"

namespace floatscope::emu {
namespace {

constexpr int limb_bits = GMP_NUMB_BITS;

/// How many of v's limbs are left once its high zero limbs are set aside.
std::size_t significant_limbs(std::span<const mp_limb_t> v) {
    std::size_t used = v.size();
    while (used > 0 && v[used - 1] == 0) --used;
    return used;
}

}  // namespace

FixedPoint::FixedPoint(int fraction_limbs)
    : fraction(fraction_limbs), limbs(fraction_limbs + 1), product_(2 * static_cast<std::size_t>(limbs)) {
    mpz_init(integer_);
}

FixedPoint::~FixedPoint() { mpz_clear(integer_); }

FixedLimbs FixedPoint::nearest(mpfr_srcptr v) {
    core::MpfrNumber scaled(mpfr_get_prec(v));
    mpfr_mul_2si(scaled.get(), v, limb_bits * fraction, MPFR_RNDN);  // exact
    mpfr_get_z(integer_, scaled.get(), MPFR_RNDN);
    FixedLimbs out(static_cast<std::size_t>(limbs));
    read_into(out, integer_);
    return out;
}

void FixedPoint::truncate_into(std::span<mp_limb_t> out, mpfr_srcptr v) {
    // v = z 2^e exactly; v 2^(64 F) truncated is z shifted by e + 64 F, toward zero.
    const mpfr_exp_t e = mpfr_get_z_2exp(integer_, v) + limb_bits * fraction;
    if (e >= 0)
        mpz_mul_2exp(integer_, integer_, static_cast<mp_bitcnt_t>(e));
    else
        mpz_tdiv_q_2exp(integer_, integer_, static_cast<mp_bitcnt_t>(-e));
    read_into(out, integer_);
}

void FixedPoint::read_into(std::span<mp_limb_t> out, mpz_srcptr z) const {
    std::fill(out.begin(), out.end(), 0);
    const auto used = std::min(static_cast<std::size_t>(mpz_size(z)), out.size());
    std::copy_n(mpz_limbs_read(z), used, out.begin());
}

void FixedPoint::multiply(std::span<mp_limb_t> out, std::span<const mp_limb_t> a, std::span<const mp_limb_t> b,
                          int dropped) {
    const auto from = static_cast<std::size_t>(std::min(dropped, fraction));
    const std::size_t a_size = significant_limbs(a.subspan(from, static_cast<std::size_t>(limbs) - from));
    const std::size_t b_size = significant_limbs(b.subspan(from, static_cast<std::size_t>(limbs) - from));
    // Nothing to add where the product lies below the units this step keeps or a factor is zero above
    // the dropped limbs.
    if (dropped >= fraction || a_size == 0 || b_size == 0) {
        std::fill(out.begin(), out.end(), 0);
        return;
    }
    // mpn_mul takes the longer operand first; a small factor's high zero limbs cost nothing.
    const mp_limb_t* longer = a_size >= b_size ? a.data() + from : b.data() + from;
    const mp_limb_t* shorter = a_size >= b_size ? b.data() + from : a.data() + from;
    const std::size_t total = a_size + b_size;
    mpn_mul(product_.data(), longer, static_cast<mp_size_t>(std::max(a_size, b_size)), shorter,
            static_cast<mp_size_t>(std::min(a_size, b_size)));
    // The product's limb q weighs 2^(64 (q + 2 dropped - 2 F)) of a b, that is limb q + shift of the fixed
    // point: those below its last limb are dropped. Written after the product: out may be a or b.
    const long shift = 2L * dropped - fraction;
    const auto first = static_cast<std::size_t>(std::max(0L, -shift));  // the lowest product limb kept
    const auto end = std::min(total, static_cast<std::size_t>(limbs - shift));
    const auto to = static_cast<std::size_t>(std::max(0L, shift));  // where it goes
    const std::size_t kept_limbs = end > first ? end - first : 0;
    std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(to), 0);
    std::copy_n(product_.begin() + static_cast<std::ptrdiff_t>(first), kept_limbs,
                out.begin() + static_cast<std::ptrdiff_t>(to));
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(to + kept_limbs), out.end(), 0);
}

void FixedPoint::to_mpfr(mpfr_ptr out, std::span<const mp_limb_t> v) const {
    mpz_t magnitude;
    mpz_roinit_n(magnitude, v.data(), static_cast<mp_size_t>(significant_limbs(v)));
    mpfr_set_z_2exp(out, magnitude, -limb_bits * fraction, MPFR_RNDN);
}

}  // namespace floatscope::emu
