// Rounding to formats of any width on GMP integers: the exact significand, split at the quantum.
#include "core/wide_rounding.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/out_of_range.hpp"
#include "core/rounding_decision.hpp"

namespace floatscope::core {

namespace {

std::int64_t bit_length(const mpz_class& x) { return static_cast<std::int64_t>(mpz_sizeinbase(x.get_mpz_t(), 2)); }

/// significand / 2^shift: the whole quanta in `kept`, the discarded bits returned.
DiscardedBits split(const mpz_class& significand, std::int64_t shift, mpz_class& kept) {
    DiscardedBits d;
    if (shift <= 0) {
        kept = significand << static_cast<mp_bitcnt_t>(-shift);
        return d;
    }
    mpz_fdiv_q_2exp(kept.get_mpz_t(), significand.get_mpz_t(), static_cast<mp_bitcnt_t>(shift));
    if (shift >= 64) {
        mpz_class window;
        mpz_fdiv_q_2exp(window.get_mpz_t(), significand.get_mpz_t(), static_cast<mp_bitcnt_t>(shift - 64));
        d.fraction = mpz_getlimbn(window.get_mpz_t(), 0);
        d.below = static_cast<std::int64_t>(mpz_scan1(significand.get_mpz_t(), 0)) < shift - 64;
    } else {
        const std::uint64_t low = mpz_getlimbn(significand.get_mpz_t(), 0) & ((std::uint64_t{1} << shift) - 1);
        d.fraction = low << (64 - shift);
    }
    return d;
}

}  // namespace

WideRounder::WideRounder(const FormatSpec& spec, RoundingOptions options)
    : spec_(spec), options_(options), geometry_(wide_geometry(spec)) {
    if (is_stochastic(options_.mode) && options_.random == nullptr)
        throw Error("stochastic rounding needs a random source (RoundingOptions::random)");
    if (spec_.has_sign) {
        sign_bit_ = 1;
        sign_bit_ <<= spec_.exponent_bits + spec_.mantissa_bits;
    }
}

WideRounded WideRounder::zero(bool negative, ExceptionFlags flags) const {
    return {negative && spec_.has_negative_zero ? sign_bit_ : WideBits(0), flags};
}

WideRounded WideRounder::infinity(bool negative, ExceptionFlags flags) const {
    return {(negative ? sign_bit_ : WideBits(0)) + geometry_.infinity_magnitude, flags};
}

WideRounded WideRounder::max_finite(bool negative, ExceptionFlags flags) const {
    return {(negative ? sign_bit_ : WideBits(0)) + geometry_.max_finite_magnitude, flags};
}

WideRounded WideRounder::nan(const WideValue& x, ExceptionFlags flags) const {
    const int M = spec_.mantissa_bits;
    const WideBits all_ones = (WideBits(1) << (spec_.exponent_bits + M)) - 1;
    switch (spec_.nan_encoding) {
        case NanEncoding::NegativeZero: return {sign_bit_, flags};  // P3109 signed: the one NaN
        case NanEncoding::AllOnes: return {(x.negative ? sign_bit_ : WideBits(0)) + all_ones, flags};
        default: break;
    }
    // Quiet NaN keeping the sign and the leading payload bits, as core::Rounder does.
    const int kept = M - 1;
    WideBits payload = x.payload_bits >= kept ? WideBits(x.nan_payload >> (x.payload_bits - kept))
                                              : WideBits(x.nan_payload << (kept - x.payload_bits));
    WideBits quiet = 1;
    quiet <<= kept;
    return {(x.negative ? sign_bit_ : WideBits(0)) + geometry_.infinity_magnitude + quiet + payload, flags};
}

WideRounded WideRounder::out_of_range(OutOfRange result, bool negative, ExceptionFlags flags) const {
    switch (result) {
        case OutOfRange::Bound:
            return negative && !spec_.has_sign ? zero(false, flags) : max_finite(negative, flags);
        case OutOfRange::Infinity: return infinity(negative, flags);
        case OutOfRange::NaN: break;
    }
    WideValue default_nan;
    default_nan.kind = WideValue::Kind::NaN;
    default_nan.negative = negative && spec_.has_sign;
    return nan(default_nan, flags);
}

WideRounded WideRounder::operator()(const WideValue& x) const {
    ExceptionFlags flags;
    switch (x.kind) {
        case WideValue::Kind::NaN:
            if (x.signaling) flags.raise(ExceptionFlags::invalid);
            return nan(x, flags);
        case WideValue::Kind::Infinite: {
            // An infinity the result cannot carry makes the conversion invalid.
            const OutOfRange result = infinite_input(spec_, x.negative);
            if (result != OutOfRange::Infinity) flags.raise(ExceptionFlags::invalid);
            return out_of_range(result, x.negative, flags);
        }
        case WideValue::Kind::Zero: return zero(x.negative, flags);
        case WideValue::Kind::Finite: break;
    }
    return round_finite(x);
}

WideRounded WideRounder::round_finite(const WideValue& x) const {
    ExceptionFlags flags;
    const int M = spec_.mantissa_bits;
    const WideGeometry& g = geometry_;
    const RoundingMode mode = options_.mode;
    const std::uint64_t random = is_stochastic(mode) ? options_.random->next() : 0;
    const std::int64_t exponent = x.exponent + bit_length(x.significand) - 1;  // floor(log2 |x|)

    auto round_at = [&](std::int64_t quantum, mpz_class& count) {
        const DiscardedBits d = split(x.significand, quantum - x.exponent, count);
        // With M = 0 every normal significand is 1; parity is the exponent field's.
        const bool kept_odd =
            M == 0 && count != 0 ? ((quantum + spec_.bias) & 1) != 0 : mpz_odd_p(count.get_mpz_t()) != 0;
        if (rounds_away(mode, x.negative, kept_odd, d, random,
                        options_.random != nullptr ? options_.random->rule() : StochasticRule{}))
            ++count;
        return d;
    };
    const std::int64_t quantum = std::max(exponent, g.emin) - M;
    mpz_class count;
    const DiscardedBits discarded = round_at(quantum, count);
    if (discarded.inexact()) flags.raise(ExceptionFlags::inexact);

    bool tiny = exponent < g.emin;
    if (tiny && options_.tininess == Tininess::AfterRounding) {
        // Tiny after rounding: the result rounded with an unbounded exponent range is below 2^emin.
        mpz_class unbounded;
        round_at(exponent - M, unbounded);
        tiny = bit_length(unbounded) <= g.emin - exponent + M;
    }
    if (tiny && spec_.subnormals == SubnormalPolicy::Flush) {
        flags.raise(ExceptionFlags::underflow | ExceptionFlags::inexact);
        return zero(x.negative, flags);
    }
    if (tiny && discarded.inexact()) flags.raise(ExceptionFlags::underflow);
    if (count == 0) return zero(x.negative, flags);
    if (x.negative && !spec_.has_sign) {
        if (finite_overflow(spec_, mode, true) == OutOfRange::NaN) {
            // An invalid operation raises invalid alone (IEEE 754-2019 7.2), as core::Rounder.
            ExceptionFlags invalid;
            invalid.raise(ExceptionFlags::invalid);
            return out_of_range(OutOfRange::NaN, true, invalid);
        }
        flags.raise(ExceptionFlags::overflow | ExceptionFlags::inexact);  // below the range, clamped to 0
        return zero(false, flags);
    }

    const std::int64_t width = bit_length(count);
    const std::int64_t value_exponent = quantum + width - 1;
    WideBits magnitude = count;  // subnormal: the count of quanta is the mantissa field
    if (value_exponent >= g.emin) {
        // Normal: the count has M + 1 bits, or M + 2 after a carry (a power of two).
        const mpz_class normalized = width > M + 1 ? mpz_class(count >> 1) : count;
        const mpz_class field = static_cast<long>(value_exponent + spec_.bias);
        magnitude = (field << M) + normalized - (mpz_class(1) << M);
    }
    if (magnitude > g.max_finite_magnitude) {
        flags.raise(ExceptionFlags::overflow | ExceptionFlags::inexact);
        return out_of_range(finite_overflow(spec_, mode, x.negative), x.negative, flags);
    }
    return {(x.negative ? sign_bit_ : WideBits(0)) + magnitude, flags};
}

}  // namespace floatscope::core
