// FixedWideRounder: core::WideRounder's rounding on fixed-size significands (core/limbs.hpp), for
// the wide formats' fast path: the same decisions (rounding_decision.hpp), flags and random draws.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/error.hpp"
#include "core/exception_flags.hpp"
#include "core/limbs.hpp"
#include "core/rounding.hpp"
#include "core/rounding_decision.hpp"
#include "core/stochastic_source.hpp"
#include "core/wide_format.hpp"

namespace floatscope::core {

/// A bit pattern of a format of at most 64 P bits, and the flags producing it raised.
template <int P>
struct FixedRounded {
    Limbs<P> bits{};
    ExceptionFlags flags;
};

/// Rounds significand * 2^exponent (significand of any fixed width, nonzero) to one IEEE-encoded
/// binary format of at most 64 P bits, exactly as core::WideRounder rounds the same value: a value
/// rounded to odd keeps that property when the significand has at least p + 65 bits, as
/// WideRounder's MPFR input does (its class comment says why that suffices).
template <int P>
class FixedWideRounder {
public:
    FixedWideRounder(const FormatSpec& spec, RoundingOptions options)
        : spec_(spec), options_(options), geometry_(wide_geometry(spec)), stochastic_(is_stochastic(options.mode)) {
        if (spec.total_bits() > 64 * P) throw Error("FixedWideRounder: the format is wider than its patterns");
        if (spec.nan_encoding != NanEncoding::Ieee)
            throw Error("FixedWideRounder: IEEE-encoded formats only (P3109 formats take WideRounder)");
        if (stochastic_ && options_.random == nullptr)
            throw Error("stochastic rounding needs a random source (RoundingOptions::random)");
        const int M = spec_.mantissa_bits, E = spec_.exponent_bits;
        sign_bit_ = shifted_left(one(), E + M);
        for (int i = 0; i < E; ++i) infinity_ = sum(infinity_, shifted_left(one(), M + i));
        max_finite_ = difference(infinity_, one());
    }

    const FormatSpec& spec() const { return spec_; }
    const RoundingOptions& options() const { return options_; }
    const WideGeometry& geometry() const { return geometry_; }
    const Limbs<P>& sign_bit() const { return sign_bit_; }
    const Limbs<P>& infinity_bits() const { return infinity_; }

    FixedRounded<P> zero(bool negative) const { return {negative ? sign_bit_ : Limbs<P>{}, {}}; }
    FixedRounded<P> infinity(bool negative) const { return {negative ? sum(infinity_, sign_bit_) : infinity_, {}}; }

    template <int K>
    FixedRounded<P> round_finite(bool negative, const Limbs<K>& significand, std::int64_t exponent) const;

    /// round_finite of significand * 2^exponent for a significand of one Uint128 (nonzero): where
    /// the rounding is not stochastic and the value lies in the normal range, in a few 128-bit
    /// operations (binary128's common case); elsewhere through round_finite.
    FixedRounded<P> round_finite(bool negative, Uint128 significand, std::int64_t exponent) const requires(P == 2);

private:
    static Limbs<P> one() {
        Limbs<P> x{};
        x[0] = 1;
        return x;
    }
    FixedRounded<P> overflow(bool negative, ExceptionFlags flags) const {
        if (overflow_heads_to_infinity(options_.mode, negative) && spec_.overflow == OverflowPolicy::Ieee)
            return {infinity(negative).bits, flags};
        return {negative ? sum(max_finite_, sign_bit_) : max_finite_, flags};
    }

    FormatSpec spec_;
    RoundingOptions options_;
    WideGeometry geometry_;
    bool stochastic_;
    Limbs<P> sign_bit_{};
    Limbs<P> infinity_{};  ///< the pattern of +inf
    Limbs<P> max_finite_{};  ///< the pattern of +max
};

// The steps and names of WideRounder::round_finite, on limbs rather than GMP integers.
template <int P>
template <int K>
FixedRounded<P> FixedWideRounder<P>::round_finite(bool negative, const Limbs<K>& significand,
                                                  std::int64_t x_exponent) const {
    ExceptionFlags flags;
    const int M = spec_.mantissa_bits;
    const WideGeometry& g = geometry_;
    const RoundingMode mode = options_.mode;
    const std::uint64_t random = stochastic_ ? options_.random->next() : 0;
    const int length = bit_length(significand);
    const std::int64_t exponent = x_exponent + length - 1;  // floor(log2 |x|)

    auto round_at = [&](std::int64_t quantum, Limbs<K> & count) __attribute__((always_inline)) {
        DiscardedBits d;
        const std::int64_t shift = quantum - x_exponent;
        if (shift <= 0) {
            count = shifted_left(significand, static_cast<int>(-shift));  // exact: at most p bits
            return d;
        }
        if (shift >= length) {
            count = {};
            d.fraction = shift - 64 >= length ? 0 : bits_at(significand, static_cast<int>(shift - 64));
            d.below =
                shift - 64 > 0 && any_below(significand, static_cast<int>(std::min<std::int64_t>(shift - 64, length)));
        } else {
            count = shifted_right(significand, static_cast<int>(shift));
            d.fraction = bits_at(significand, static_cast<int>(shift - 64));
            d.below = shift > 64 && any_below(significand, static_cast<int>(shift - 64));
        }
        if (rounds_away(mode, negative, (count[0] & 1) != 0, d, random,
                        stochastic_ ? options_.random->rule() : StochasticRule{}))
            increment(count);
        return d;
    };
    const std::int64_t quantum = std::max(exponent, g.emin) - M;
    Limbs<K> count;
    const DiscardedBits discarded = round_at(quantum, count);
    if (discarded.inexact()) flags.raise(ExceptionFlags::inexact);

    bool tiny = exponent < g.emin;
    if (tiny && options_.tininess == Tininess::AfterRounding) {
        // Tiny after rounding: the result rounded with an unbounded exponent range is below 2^emin.
        Limbs<K> unbounded;
        round_at(exponent - M, unbounded);
        tiny = bit_length(unbounded) <= g.emin - exponent + M;
    }
    if (tiny && spec_.subnormals == SubnormalPolicy::Flush) {
        flags.raise(ExceptionFlags::underflow | ExceptionFlags::inexact);
        return {zero(negative).bits, flags};
    }
    if (tiny && discarded.inexact()) flags.raise(ExceptionFlags::underflow);
    if (is_zero(count)) return {zero(negative).bits, flags};

    const int width = bit_length(count);
    const std::int64_t value_exponent = quantum + width - 1;
    if (value_exponent > g.emax) {
        flags.raise(ExceptionFlags::overflow | ExceptionFlags::inexact);
        return overflow(negative, flags);
    }
    Limbs<P> bits = resized<P>(count);  // subnormal: the count of quanta is the mantissa field
    if (value_exponent >= g.emin) {
        // Normal: the count has M + 1 bits, or M + 2 after a carry (a power of two); the field
        // replaces the implicit bit.
        if (width > M + 1) bits = shifted_right(bits, 1);
        bits[M / 64] &= ~(std::uint64_t{1} << (M % 64));
        Limbs<P> field{};
        field[0] = static_cast<std::uint64_t>(value_exponent + spec_.bias);
        bits = sum(bits, shifted_left(field, M));
    }
    if (negative) bits = sum(bits, sign_bit_);
    return {bits, flags};
}

template <int P>
FixedRounded<P> FixedWideRounder<P>::round_finite(bool negative, Uint128 significand, std::int64_t x_exponent) const
    requires(P == 2) {
    const int M = spec_.mantissa_bits;
    const int high = static_cast<int>(significand >> 64 != 0);
    const int length = 64 * high + 64 - __builtin_clzll(static_cast<std::uint64_t>(significand >> (64 * high)));
    const std::int64_t exponent = x_exponent + length - 1;  // floor(log2 |x|)
    // Below 2^emin (tiny) or at 2^emax and up (the rounding may overflow) the general steps decide.
    if (stochastic_ || exponent < geometry_.emin || exponent >= geometry_.emax) [[unlikely]]
        return round_finite(negative, from_uint128(significand), x_exponent);
    // Normal: the quantum is 2^(exponent - M), so shift = length - 1 - M bits go.
    const int shift = length - 1 - M;
    ExceptionFlags flags;
    Uint128 count = shift <= 0 ? significand << -shift : significand >> shift;
    if (shift > 0) {
        const Uint128 discarded = significand << (128 - shift);  // the bits that go, from the top
        const DiscardedBits d{static_cast<std::uint64_t>(discarded >> 64), static_cast<std::uint64_t>(discarded) != 0};
        if (d.inexact()) {
            flags.raise(ExceptionFlags::inexact);
            if (rounds_away(options_.mode, negative, (count & 1) != 0, d, 0)) ++count;
        }
    }
    // The count's leading bit (at M, or at M + 1 after a carry to a power of two) adds one to
    // the exponent field below it: the field stored is the biased exponent either way.
    Uint128 bits = (static_cast<Uint128>(exponent + spec_.bias - 1) << M) + count;
    if (negative) bits |= to_uint128(sign_bit_);
    return {from_uint128(bits), flags};
}

}  // namespace floatscope::core
