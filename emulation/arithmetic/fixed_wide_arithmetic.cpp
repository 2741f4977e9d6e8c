// Fixed-size-significand arithmetic on wide formats: special cases shared with every path, exact
// products, aligned sums rounded to odd, then FixedWideRounder.
#include "emulation/arithmetic/fixed_wide_arithmetic.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "emulation/arithmetic/special_operands.hpp"

namespace floatscope::emu {

using core::Limbs;

namespace {

/// One decoded operand: its class, sign and, when finite and nonzero, significand * 2^exponent.
template <int P>
struct FixedOperand {
    OperandClass value_class;
    Limbs<P> significand{};
    std::int64_t exponent = 0;
};

/// A finite result before rounding: exact, or rounded to odd with at least p + 65 bits.
template <int K>
struct Unrounded {
    bool negative = false;
    Limbs<K> significand{};
    std::int64_t exponent = 0;
};

template <int P>
[[gnu::always_inline]] inline FixedOperand<P> decode(const FixedLayout<P>& layout, const Limbs<P>& bits) {
    const int M = layout.mantissa_bits;
    FixedOperand<P> x;
    x.value_class.negative = (core::bits_at(bits, layout.sign_position) & 1) != 0;
    const std::uint64_t field = core::bits_at(bits, M) & layout.field_mask;
    Limbs<P>& mantissa = x.significand;  // in place: a copy would be read back wider than written
    for (int i = 0; i < P; ++i) mantissa[i] = bits[i] & layout.mantissa_mask[i];
    using core::ValueClass;
    if (field == layout.field_mask) [[unlikely]] {
        if (core::is_zero(mantissa)) {
            x.value_class.value_class = ValueClass::Infinite;
            return x;
        }
        x.value_class.value_class = ValueClass::NaN;
        x.value_class.signaling = (core::bits_at(mantissa, M - 1) & 1) == 0;
        return x;
    }
    if (field == 0) [[unlikely]] {
        const bool zero = core::is_zero(mantissa) || layout.flush;
        x.value_class.value_class = zero ? ValueClass::Zero : ValueClass::Subnormal;
        x.exponent = layout.emin - M;
        if (zero) x.significand = {};
        return x;
    }
    x.value_class.value_class = ValueClass::Normal;
    x.significand[M / 64] |= std::uint64_t{1} << (M % 64);
    x.exponent = static_cast<std::int64_t>(field) - layout.bias - M;
    return x;
}

/// A finite nonzero term of a sum: significand (N limbs) * 2^exponent.
template <int N>
struct Term {
    bool negative;
    const Limbs<N>& significand;
    std::int64_t exponent;
};

/// x + y in K limbs, each term shorter than 64 K - 1 bits: aligned with the larger leading bit at
/// bit 64 K - 2 (room for a carry); the bits of the other that fall below bit 0 go to the last bit
/// (round to odd). Returns false for an exact zero.
template <int K, int NX, int NY>
[[gnu::always_inline]] inline bool add_aligned(const Term<NX>& x, const Term<NY>& y, Unrounded<K>& out) {
    const int length_x = core::bit_length(x.significand), length_y = core::bit_length(y.significand);
    // A zero term (add's operands may be zeros; the special cases left only x + 0 and 0 + y).
    if (length_x == 0 || length_y == 0) {
        if (length_x == 0)
            out = {y.negative, core::resized<K>(y.significand), y.exponent};
        else
            out = {x.negative, core::resized<K>(x.significand), x.exponent};
        return true;
    }
    const bool x_leads = x.exponent + length_x >= y.exponent + length_y;
    const int big_shift = 64 * K - 1 - (x_leads ? length_x : length_y);
    const Limbs<K> big = x_leads ? core::shifted_left_into<K>(x.significand, big_shift)
                                 : core::shifted_left_into<K>(y.significand, big_shift);
    const bool big_negative = x_leads ? x.negative : y.negative;
    const bool small_negative = x_leads ? y.negative : x.negative;
    out.exponent = (x_leads ? x.exponent : y.exponent) - big_shift;
    const std::int64_t small_shift = (x_leads ? y.exponent : x.exponent) - out.exponent;
    auto aligned = [&](const auto& significand, bool& sticky) {
        if (small_shift >= 0) return core::shifted_left_into<K>(significand, static_cast<int>(small_shift));
        if (small_shift <= -64 * K) {
            sticky = true;  // the term is nonzero
            return Limbs<K>{};
        }
        sticky = core::any_below(significand, static_cast<int>(-small_shift));
        return core::shifted_right_into<K>(significand, static_cast<int>(-small_shift));
    };
    bool sticky = false;
    const Limbs<K> small = x_leads ? aligned(y.significand, sticky) : aligned(x.significand, sticky);
    if (big_negative == small_negative) {
        out.negative = big_negative;
        out.significand = core::sum(big, small);
    } else if (sticky) {
        // big - (small + e), 0 < e < 1: (big - small - 1) + (1 - e).
        out.negative = big_negative;
        out.significand = core::difference(big, small, 1);
    } else {
        const int order = core::compare(big, small);
        if (order == 0) return false;
        out.negative = order > 0 ? big_negative : small_negative;
        out.significand = order > 0 ? core::difference(big, small) : core::difference(small, big);
    }
    if (sticky) out.significand[0] |= 1;
    return true;
}

template <int P>
Term<P> term(bool negative, const FixedOperand<P>& x) {
    return {negative, x.significand, x.exponent};
}

template <int K, int P>
[[gnu::always_inline]] inline Unrounded<K> multiplied(const FixedOperand<P>& a, const FixedOperand<P>& b) {
    static_assert(K == 2 * P);
    return {a.value_class.negative != b.value_class.negative, core::product(a.significand, b.significand),
            a.exponent + b.exponent};
}

/// x rounded to odd in K limbs (x nonzero): its leading bit at most at bit 64 K - 2, the bits shifted
/// out gathered into the last bit.
template <int K, int N>
[[gnu::always_inline]] inline Unrounded<K> rounded_to_odd(const Unrounded<N>& x) {
    const int shift = std::max(0, core::bit_length(x.significand) - (64 * K - 1));
    Unrounded<K> r{x.negative, core::shifted_right_into<K>(x.significand, shift), x.exponent + shift};
    if (core::any_below(x.significand, shift)) r.significand[0] |= 1;
    return r;
}

using core::Uint128;

/// a b rounded to odd in 128 bits, for significands of at most 123 bits (the compact layout's
/// p <= 64 P - 5): the middle terms' sum cannot carry out, and the high half has at most 118 bits.
[[gnu::always_inline]] inline Uint128 product_rounded_to_odd(Uint128 a, Uint128 b, std::int64_t& exponent) {
    const auto al = static_cast<std::uint64_t>(a), ah = static_cast<std::uint64_t>(a >> 64);
    const auto bl = static_cast<std::uint64_t>(b), bh = static_cast<std::uint64_t>(b >> 64);
    const Uint128 low_product = static_cast<Uint128>(al) * bl;
    const Uint128 middle = static_cast<Uint128>(al) * bh + static_cast<Uint128>(ah) * bl;
    const Uint128 low = low_product + (middle << 64);
    const Uint128 high = static_cast<Uint128>(ah) * bh + (middle >> 64) + (low < low_product ? 1 : 0);
    if (high == 0) return low;  // exact
    const int shift = core::bit_length(core::from_uint128(high)) + 1;  // the leading bit lands at 126
    exponent += shift;
    return high << (128 - shift) | low >> shift | ((low << (128 - shift)) != 0 ? 1 : 0);
}

/// Add, sub and mul of two normal operands in 128-bit integers from decoding to rounding, for the
/// compact layout of P = 2 (binary128's common case). Returns false, leaving `out` alone, when an
/// operand is not normal: the general path decides.
[[gnu::always_inline]] inline bool apply_to_normal_operands(const FixedLayout<2>& layout,
                                                            const core::FixedWideRounder<2>& rounder, Operation op,
                                                            Uint128 a, Uint128 b, core::FixedRounded<2>& out) {
    const int M = layout.mantissa_bits;
    const std::uint64_t field_a = static_cast<std::uint64_t>(a >> M) & layout.field_mask;
    const std::uint64_t field_b = static_cast<std::uint64_t>(b >> M) & layout.field_mask;
    // Fields 0 (zeros, subnormals) and all ones (infinities, NaNs) both land at field_mask - 1 or above.
    if (field_a - 1 >= layout.field_mask - 1 || field_b - 1 >= layout.field_mask - 1) return false;
    const bool negative_a = ((a >> layout.sign_position) & 1) != 0;
    const bool negative_b = (((b >> layout.sign_position) & 1) != 0) != (op == Operation::Sub);
    const Uint128 implicit_bit = Uint128{1} << M;
    const Uint128 significand_a = (a & (implicit_bit - 1)) | implicit_bit;
    const Uint128 significand_b = (b & (implicit_bit - 1)) | implicit_bit;
    const std::int64_t exponent_a = static_cast<std::int64_t>(field_a) - layout.bias - M;
    const std::int64_t exponent_b = static_cast<std::int64_t>(field_b) - layout.bias - M;
    if (op == Operation::Mul) {
        std::int64_t exponent = exponent_a + exponent_b;
        const Uint128 product = product_rounded_to_odd(significand_a, significand_b, exponent);
        out = rounder.round_finite(negative_a != negative_b, product, exponent);
        return true;
    }
    // add_aligned's steps on operands of p bits each: the one of the larger exponent leads at bit 126.
    const int lead_shift = 126 - M;
    const bool a_leads = exponent_a >= exponent_b;
    const Uint128 big = (a_leads ? significand_a : significand_b) << lead_shift;
    const Uint128 small_unshifted = (a_leads ? significand_b : significand_a) << lead_shift;
    const std::int64_t distance = a_leads ? exponent_a - exponent_b : exponent_b - exponent_a;
    const bool big_negative = a_leads ? negative_a : negative_b;
    const bool small_negative = a_leads ? negative_b : negative_a;
    const bool sticky = distance >= 128 || (distance > 0 && (small_unshifted << (128 - distance)) != 0);
    const Uint128 small = distance >= 128 ? 0 : small_unshifted >> distance;
    bool negative = big_negative;
    Uint128 sum;
    if (big_negative == small_negative) {
        sum = big + small;
    } else if (sticky) {
        sum = big - small - 1;  // big - (small + e), 0 < e < 1: (big - small - 1) + (1 - e)
    } else if (big == small) {
        out = rounder.zero(zero_sum_sign(false, true, rounder.options().mode));  // only opposite values cancel
        return true;
    } else {
        negative = big > small ? big_negative : small_negative;
        sum = big > small ? big - small : small - big;
    }
    out = rounder.round_finite(negative, sum | (sticky ? 1 : 0), (a_leads ? exponent_a : exponent_b) - lead_shift);
    return true;
}

}  // namespace

namespace {

/// The lowest n bits set.
template <int P>
Limbs<P> low_bits(int n) {
    Limbs<P> mask;
    for (int i = 0; i < P; ++i)
        mask[i] = n >= 64 * (i + 1) ? ~std::uint64_t{0} : n > 64 * i ? (std::uint64_t{1} << (n - 64 * i)) - 1 : 0;
    return mask;
}

}  // namespace

template <int P>
FixedWideArithmetic<P>::FixedWideArithmetic(const core::FormatSpec& spec, core::RoundingOptions options)
    : rounder_(spec, options) {
    FixedLayout<P>& l = layout_;
    l.mantissa_bits = spec.mantissa_bits;
    l.sign_position = spec.exponent_bits + spec.mantissa_bits;
    l.field_mask = (std::uint64_t{1} << spec.exponent_bits) - 1;
    l.bias = spec.bias;
    l.emin = rounder_.geometry().emin;
    l.flush = spec.subnormals == core::SubnormalPolicy::Flush;
    l.mantissa_mask = low_bits<P>(spec.mantissa_bits);
    l.width_mask = low_bits<P>(spec.total_bits());
    // A sum of two p-bit operands needs p + 3 bits exact and 64 K - 3 >= p + 65 (p + 2 unless the
    // rounding is stochastic) when rounded to odd; a product rounded to odd keeps 64 K - 1.
    const int p = spec.mantissa_bits + 1;
    const bool compact = !is_stochastic(options.mode) && 64 * P - 3 >= p + 2;
    l.sum_limbs = compact ? P : 64 * (P + 1) - 3 >= p + 65 ? P + 1 : 2 * P;
    l.product_limbs = compact ? P : 2 * P;
}

template <int P>
core::FixedRounded<P> FixedWideArithmetic<P>::apply(Operation op, const Limbs<P>& a, const Limbs<P>& b,
                                                    const Limbs<P>& c) const {
    constexpr int K = 2 * P;
    const core::FormatSpec& f = rounder_.spec();
    if (!computes(op))
        throw Error(fmt::format("the fixed-size path computes add, sub, mul and fma, not {}", to_string(op)));
    const int n = op == Operation::Fma ? 3 : 2;  // operand_count of the operations computed here
    const Limbs<P>* const patterns[3] = {&a, &b, &c};
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < P; ++k)
            if (((*patterns[i])[k] & ~layout_.width_mask[k]) != 0) [[unlikely]]
                throw Error(fmt::format("bit pattern is wider than {} ({} bits)", f.name, f.total_bits()));
    if constexpr (P == 2)
        if (layout_.sum_limbs == P && op != Operation::Fma) {
            core::FixedRounded<P> r;
            if (apply_to_normal_operands(layout_, rounder_, op, core::to_uint128(a), core::to_uint128(b), r)) return r;
        }
    const FixedOperand<P> da = decode(layout_, a);
    const FixedOperand<P> db = n >= 2 ? decode(layout_, b) : FixedOperand<P>{};
    const FixedOperand<P> dc = n >= 3 ? decode(layout_, c) : FixedOperand<P>{};
    const core::RoundingMode mode = rounder_.options().mode;
    auto finite_nonzero = [](const FixedOperand<P>& x) {
        return x.value_class.value_class == core::ValueClass::Normal ||
               x.value_class.value_class == core::ValueClass::Subnormal;
    };
    // Operands all finite and nonzero have no special case (special_case would say Compute op).
    SpecialCase special;
    special.op = op;
    if (!(finite_nonzero(da) && (n < 2 || finite_nonzero(db)) && (n < 3 || finite_nonzero(dc)))) [[unlikely]]
        special = special_case(op, {da.value_class, db.value_class, dc.value_class}, mode,
                               ZeroDivision::Infinity);  // wide formats are IEEE 754's
    auto with_flags = [&](core::FixedRounded<P> r) {
        r.flags |= special.flags;
        return r;
    };
    switch (special.outcome) {
        case SpecialCase::Outcome::Nan: {
            // A NaN operand propagates, quieted (same format: its payload stays); otherwise the
            // default NaN, negative with a zero payload.
            const int M = f.mantissa_bits;
            Limbs<P> nan = special.nan_source >= 0 ? *patterns[special.nan_source]
                                                   : core::sum(rounder_.sign_bit(), rounder_.infinity_bits());
            nan[(M - 1) / 64] |= std::uint64_t{1} << ((M - 1) % 64);
            return with_flags({nan, {}});
        }
        case SpecialCase::Outcome::Infinity: return with_flags(rounder_.infinity(special.negative));
        case SpecialCase::Outcome::Zero: return with_flags(rounder_.zero(special.negative));
        case SpecialCase::Outcome::Addend:
            return with_flags(rounder_.round_finite(dc.value_class.negative, dc.significand, dc.exponent));
        case SpecialCase::Outcome::Compute: break;
    }
    auto round = [&]<int N>(const Unrounded<N>& x) {
        if constexpr (N == 2 && P == 2)
            return rounder_.round_finite(x.negative, core::to_uint128(x.significand), x.exponent);
        else
            return rounder_.round_finite(x.negative, x.significand, x.exponent);
    };
    Unrounded<K> r;
    switch (special.op) {
        case Operation::Mul:
            r = multiplied<K>(da, db);
            if (layout_.product_limbs == P) return round(rounded_to_odd<P>(r));
            break;
        case Operation::Add:
        case Operation::Sub: {
            const bool negative_b = db.value_class.negative != (special.op == Operation::Sub);
            // Only opposite values cancel exactly.
            auto sum_in = [&](auto& sum) {
                return add_aligned(term(da.value_class.negative, da), term(negative_b, db), sum);
            };
            if (layout_.sum_limbs == P) {
                Unrounded<P> sum;
                return sum_in(sum) ? round(sum) : rounder_.zero(zero_sum_sign(false, true, mode));
            }
            if (layout_.sum_limbs == P + 1) {
                Unrounded<P + 1> sum;
                return sum_in(sum) ? round(sum) : rounder_.zero(zero_sum_sign(false, true, mode));
            }
            if (!sum_in(r)) return rounder_.zero(zero_sum_sign(false, true, mode));
            break;
        }
        case Operation::Fma: {
            const Unrounded<K> p = multiplied<K>(da, db);
            if (!add_aligned(Term<K>{p.negative, p.significand, p.exponent}, term(dc.value_class.negative, dc), r))
                return rounder_.zero(zero_sum_sign(false, true, mode));
        } break;
        default: break;  // excluded above
    }
    return round(r);
}

template class FixedWideArithmetic<2>;
template class FixedWideArithmetic<4>;

}  // namespace floatscope::emu
