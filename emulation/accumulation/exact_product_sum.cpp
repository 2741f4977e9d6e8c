// ExactProductSum: GMP significand products shifted into a two's-complement limb array, one rounding at the end.
#include "emulation/accumulation/exact_product_sum.hpp"

#include <algorithm>
#include <bit>
#include <type_traits>

namespace floatscope::emu {

namespace {

constexpr long limb_bits = GMP_NUMB_BITS;

/// Limbs of an MPFR number's significand: its value is +-D 2^(EXP - limb_bits n), D the n-limb integer.
mp_size_t limbs_of(mpfr_srcptr x) { return static_cast<mp_size_t>((mpfr_get_prec(x) + limb_bits - 1) / limb_bits); }

/// The exponent of a number's lowest limb bit: EXP - limb_bits n.
long lowest_bit(mpfr_srcptr x) {
    return static_cast<long>(mpfr_get_exp(x)) - limb_bits * static_cast<long>(limbs_of(x));
}

using Column = ExactProductSum::Column;

/// The bits a left shift by `shift` (< limb_bits) moves out of `limb` into the next limb:
/// (limb >> 1) >> (63 - shift) is limb >> (64 - shift), and 0 for a shift of 0 (where a shift by
/// 64 would be undefined).
inline mp_limb_t spill(mp_limb_t limb, unsigned shift) { return (limb >> 1) >> (limb_bits - 1 - shift); }

/// columns += x d 2^shift (x of n limbs, d one limb, shift < limb_bits): one multiplication per
/// limb, each limb of the product shifted into place as it comes and added to its column, n + 2
/// columns in all. No carry passes from column to column: the additions of successive products
/// to one column do not wait on each other's carries, as they did in a sum of limbs. `Count` is
/// mp_size_t, or std::integral_constant for a count known when compiled (the loop unrolled).
template <class Count>
inline void multiply_into(Column* columns, const mp_limb_t* x, Count n, mp_limb_t d, unsigned shift) {
    using Wide = unsigned __int128;
    mp_limb_t product_carry = 0, previous = 0;
    for (mp_size_t i = 0; i < n; ++i) {
        const Wide product = static_cast<Wide>(x[i]) * d + product_carry;
        const auto limb = static_cast<mp_limb_t>(product);
        product_carry = static_cast<mp_limb_t>(product >> limb_bits);
        columns[i] += (limb << shift) | spill(previous, shift);
        previous = limb;
    }
    columns[n] += (product_carry << shift) | spill(previous, shift);
    columns[n + 1] += spill(product_carry, shift);
}

/// multiply_into with the loop unrolled for the common lengths: a double is one limb, a truth of
/// 256 bits four (the Fashion-MNIST MLP's one-limb pixels by one-limb weights: a loop of one pass,
/// where the loop's overhead was a tenth of the whole run's time).
inline void multiply_by_limb(Column* columns, const mp_limb_t* x, mp_size_t n, mp_limb_t d, unsigned shift) {
    switch (n) {
        case 1: multiply_into(columns, x, std::integral_constant<mp_size_t, 1>{}, d, shift); return;
        case 2: multiply_into(columns, x, std::integral_constant<mp_size_t, 2>{}, d, shift); return;
        case 3: multiply_into(columns, x, std::integral_constant<mp_size_t, 3>{}, d, shift); return;
        case 4: multiply_into(columns, x, std::integral_constant<mp_size_t, 4>{}, d, shift); return;
        default: multiply_into(columns, x, n, d, shift);
    }
}

/// The limbs of sum_j columns_j 2^(64 j), into `limbs` (as many as there are columns: the sum fits).
void carry_columns(const std::vector<Column>& columns, std::vector<mp_limb_t>& limbs) {
    limbs.resize(columns.size());
    Column carry = 0;
    for (std::size_t j = 0; j < columns.size(); ++j) {
        const Column column = columns[j] + carry;
        limbs[j] = static_cast<mp_limb_t>(column);
        carry = column >> limb_bits;
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

ExactProductSum::Factor ExactProductSum::Factor::of(mpfr_srcptr x) {
    Factor f;
    if (mpfr_zero_p(x)) return f;
    // The custom interface's accessor takes a non-const number; it reads only.
    f.limbs = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(const_cast<mpfr_ptr>(x)));
    f.count = static_cast<int>(limbs_of(x));
    f.lowest = lowest_bit(x);
    // Low limbs that are zero add nothing: a double held at the truth's 256 bits multiplies as the
    // one limb it is (a network's weights), not as four. The top limb of a nonzero number is not 0.
    for (; f.limbs[0] == 0; ++f.limbs, --f.count) f.lowest += limb_bits;
    f.negative = mpfr_signbit(x) != 0;
    return f;
}

std::size_t FactorTable::limbs_to_copy(mpfr_srcptr x) {
    return mpfr_number_p(x) ? static_cast<std::size_t>(ExactProductSum::Factor::of(x).count) : 0;
}

void FactorTable::append(mpfr_srcptr x) {
    ExactProductSum::Factor f = mpfr_number_p(x) ? ExactProductSum::Factor::of(x) : ExactProductSum::Factor{};
    mp_limb_t* copy = limbs_.data() + used_;
    std::copy(f.limbs, f.limbs + f.count, copy);
    f.limbs = copy;
    used_ += static_cast<std::size_t>(f.count);
    factors_.push_back(f);
}

void ExactProductSum::add_products(const Factor* a, const Factor* b, std::size_t count) {
    // Positive and negative products go to two sums of magnitudes, chosen without a branch on
    // the sign (which the products' signs would mispredict half the time).
    Column* const sums[2] = {positive_.data(), negative_.data()};
    for (std::size_t l = 0; l < count; ++l) {
        const Factor &x = a[l], &y = b[l];
        if (x.count == 0 || y.count == 0) continue;
        // Its place in the accumulator: column `offset`, shifted by `shift` bits within it.
        const auto position = static_cast<unsigned long>(x.lowest + y.lowest - low_);
        const auto offset = static_cast<std::size_t>(position / limb_bits);
        const auto shift = static_cast<unsigned>(position % limb_bits);
        Column* target = sums[x.negative != y.negative ? 1 : 0] + offset;
        // A one-limb factor (a double's 53 bits, a weight) multiplies the other straight into the sum.
        if (y.count == 1)
            multiply_by_limb(target, x.limbs, x.count, y.limbs[0], shift);
        else if (x.count == 1)
            multiply_by_limb(target, y.limbs, y.count, x.limbs[0], shift);
        else
            add_wide_product(target, x, y, shift);
    }
}

void ExactProductSum::add_wide_product(Column* target, const Factor& a, const Factor& b, unsigned shift) {
    const Factor& longer = a.count >= b.count ? a : b;  // mpn_mul wants the longer operand first
    const Factor& shorter = a.count >= b.count ? b : a;
    const auto n = static_cast<std::size_t>(a.count + b.count);
    if (product_.size() < n) product_.resize(n);
    mpn_mul(product_.data(), longer.limbs, longer.count, shorter.limbs, shorter.count);
    mp_limb_t previous = 0;
    for (std::size_t i = 0; i < n; ++i) {
        target[i] += (product_[i] << shift) | spill(previous, shift);
        previous = product_[i];
    }
    target[n] += spill(previous, shift);
}

void ExactProductSum::round_to(mpfr_ptr out) {
    carry_columns(positive_, positive_limbs_);
    carry_columns(negative_, negative_limbs_);
    // The sum is positive - negative: the larger magnitude less the smaller, with its sign.
    const auto size = static_cast<mp_size_t>(positive_limbs_.size());
    const bool negative = mpn_cmp(negative_limbs_.data(), positive_limbs_.data(), size) > 0;
    std::vector<mp_limb_t>& larger = negative ? negative_limbs_ : positive_limbs_;
    mpn_sub_n(larger.data(), larger.data(), (negative ? positive_limbs_ : negative_limbs_).data(), size);
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
