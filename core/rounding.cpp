// Rounding to every kind of format from the 64 leading bits and a sticky bit (see rounding.hpp).
#include "core/rounding.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/mpfr_number.hpp"
#include "core/out_of_range.hpp"
#include "core/rounding_decision.hpp"
#include "core/tapered_rounding.hpp"

namespace floatscope::core {

namespace {

/// |x| split at a quantum 2^q: whole quanta kept, and what is discarded.
struct Truncation : DiscardedBits {
    std::uint64_t kept = 0;
};

Truncation truncate_to_quantum(const ExactValue& x, std::int64_t quantum_exponent) {
    // |x| = significand * 2^(exponent - 63) = significand * 2^-shift quanta.
    const std::int64_t shift = quantum_exponent - x.exponent + 63;
    assert(shift >= 1);
    Truncation t;
    bool lost = false;
    if (shift < 64) {
        t.kept = x.significand >> shift;
        t.fraction = x.significand << (64 - shift);
    } else if (shift == 64) {
        t.fraction = x.significand;
    } else if (shift < 128) {
        t.fraction = x.significand >> (shift - 64);
        lost = (x.significand << (128 - shift)) != 0;
    } else {
        lost = true;
    }
    t.below = lost || x.sticky;
    return t;
}

double signed_value(bool negative, double magnitude) { return negative ? -magnitude : magnitude; }

}  // namespace

Rounder::Rounder(const FormatSpec& spec, RoundingOptions options) : spec_(spec), options_(options) {
    validate(spec_);
    if (is_stochastic(options_.mode) && options_.random == nullptr)
        throw Error("stochastic rounding needs a random source (RoundingOptions::random)");
    if (options_.random != nullptr) stochastic_ = options_.random->rule();
    if (spec_.kind == FormatKind::Binary || spec_.kind == FormatKind::ExponentScale) geometry_ = binary_geometry(spec_);
}

Rounded Rounder::operator()(const ExactValue& x) const {
    switch (spec_.kind) {
        case FormatKind::Binary: return round_binary(x);
        case FormatKind::ExponentScale: return round_exponent_scale(x);
        case FormatKind::Integer: return round_integer(x);
        case FormatKind::Lookup: return round_lookup(x);
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return round_tapered(spec_, x, options_, stochastic_, random_bits());
    }
    return {};
}

std::uint64_t Rounder::random_bits() const { return is_stochastic(options_.mode) ? options_.random->next() : 0; }

// ---- binary floating point -------------------------------------------------------------------

Rounded Rounder::binary_zero(bool negative, ExceptionFlags flags) const {
    const bool keep_sign = negative && spec_.has_negative_zero;
    const int width = spec_.exponent_bits + spec_.mantissa_bits;
    return {keep_sign ? std::uint64_t{1} << width : 0, keep_sign ? -0.0 : 0.0, flags};
}

Rounded Rounder::binary_nan(bool negative, std::uint64_t payload, ExceptionFlags flags) const {
    const int E = spec_.exponent_bits, M = spec_.mantissa_bits;
    const std::uint64_t sign = spec_.has_sign && negative ? std::uint64_t{1} << (E + M) : 0;
    const double nan = signed_value(negative, std::numeric_limits<double>::quiet_NaN());
    switch (spec_.nan_encoding) {
        case NanEncoding::Ieee: {
            // Quiet NaN keeping the sign and the leading payload bits (x86 and SoftFloat do the same).
            const std::uint64_t quiet = std::uint64_t{1} << (M - 1);
            const std::uint64_t kept_payload = M > 1 ? payload >> (64 - (M - 1)) : 0;
            const std::uint64_t exponent = ((std::uint64_t{1} << E) - 1) << M;
            return {sign | exponent | quiet | kept_payload, nan, flags};
        }
        case NanEncoding::AllOnes: return {sign | ((std::uint64_t{1} << (E + M)) - 1), nan, flags};
        case NanEncoding::NegativeZero:
            return {std::uint64_t{1} << (E + M), -std::numeric_limits<double>::quiet_NaN(), flags};
        case NanEncoding::None: break;
    }
    flags.raise(ExceptionFlags::invalid);
    return binary_zero(false, flags);
}

Rounded Rounder::binary_infinity(bool negative, ExceptionFlags flags) const {
    const int E = spec_.exponent_bits, M = spec_.mantissa_bits;
    const std::uint64_t sign = negative ? std::uint64_t{1} << (E + M) : 0;
    return {sign | geometry_.infinity_magnitude, signed_value(negative, std::numeric_limits<double>::infinity()),
            flags};
}

Rounded Rounder::binary_max(bool negative, ExceptionFlags flags) const {
    const int E = spec_.exponent_bits, M = spec_.mantissa_bits;
    const std::uint64_t sign = negative ? std::uint64_t{1} << (E + M) : 0;
    const std::uint64_t mantissa = geometry_.max_significand & ((std::uint64_t{1} << M) - 1);
    return {sign | (static_cast<std::uint64_t>(geometry_.max_exponent_field) << M) | mantissa,
            signed_value(negative, geometry_.max_finite), flags};
}

Rounded Rounder::binary_out_of_range(OutOfRange result, bool negative, ExceptionFlags flags) const {
    switch (result) {
        case OutOfRange::Bound:
            return negative && !spec_.has_sign ? binary_zero(false, flags) : binary_max(negative, flags);
        case OutOfRange::Infinity: return binary_infinity(negative, flags);
        case OutOfRange::NaN: break;
    }
    return binary_nan(negative && spec_.has_sign, 0, flags);
}

Rounded Rounder::binary_finite(bool negative, std::uint64_t count, std::int64_t quantum, ExceptionFlags flags) const {
    const int M = spec_.mantissa_bits;
    const int width = std::bit_width(count);
    const std::int64_t value_exponent = quantum + width - 1;
    std::uint64_t field = 0;
    std::uint64_t mantissa = count;  // subnormal: the count of quanta is the mantissa field
    if (value_exponent >= geometry_.emin) {
        const std::uint64_t normalized = width <= M + 1 ? count << (M + 1 - width) : count >> (width - M - 1);
        field = static_cast<std::uint64_t>(value_exponent + spec_.bias);
        mantissa = normalized - (std::uint64_t{1} << M);
    }
    const std::uint64_t sign = negative ? std::uint64_t{1} << (spec_.exponent_bits + M) : 0;
    const double magnitude = std::ldexp(static_cast<double>(count), static_cast<int>(quantum));
    return {sign | (field << M) | mantissa, signed_value(negative, magnitude), flags};
}

Rounded Rounder::round_binary(const ExactValue& x) const {
    ExceptionFlags flags;
    const bool unsigned_negative = x.negative && !spec_.has_sign;
    auto invalid_negative = [&] {
        // Fix (core test): an invalid operation raises invalid alone (IEEE 754-2019 7.2); the
        // inexact and underflow found while rounding the magnitude do not apply to its NaN.
        flags = ExceptionFlags{};
        flags.raise(ExceptionFlags::invalid);
        return spec_.has_nan() ? binary_nan(false, 0, flags) : binary_zero(false, flags);
    };
    switch (x.kind) {
        case ExactValue::Kind::NaN:
            if (x.signaling) flags.raise(ExceptionFlags::invalid);
            return binary_nan(x.negative, x.nan_payload, flags);
        case ExactValue::Kind::Infinite: {
            // An infinity the result cannot carry makes the conversion invalid.
            const OutOfRange result = infinite_input(spec_, x.negative);
            if (result != OutOfRange::Infinity) flags.raise(ExceptionFlags::invalid);
            return binary_out_of_range(result, x.negative, flags);
        }
        case ExactValue::Kind::Zero: return binary_zero(x.negative, flags);
        case ExactValue::Kind::Finite: break;
    }
    const int M = spec_.mantissa_bits;
    const BinaryGeometry& g = geometry_;
    const std::uint64_t random = random_bits();
    const std::int64_t quantum = std::max<std::int64_t>(x.exponent, g.emin) - M;
    const Truncation t = truncate_to_quantum(x, quantum);
    // With M = 0 every normal significand is 1; parity is the exponent field's.
    const bool kept_odd = (M == 0 && t.kept != 0) ? ((quantum + spec_.bias) & 1) != 0 : (t.kept & 1) != 0;
    const std::uint64_t count =
        t.kept + (rounds_away(options_.mode, x.negative, kept_odd, t, random, stochastic_) ? 1 : 0);
    if (t.inexact()) flags.raise(ExceptionFlags::inexact);

    bool tiny = x.exponent < g.emin;
    if (tiny && options_.tininess == Tininess::AfterRounding) {
        // Tiny after rounding: the result rounded with an unbounded exponent range is below 2^emin.
        const std::int64_t unbounded_quantum = x.exponent - M;
        const Truncation u = truncate_to_quantum(x, unbounded_quantum);
        const bool u_odd = M == 0 ? ((unbounded_quantum + spec_.bias) & 1) != 0 : (u.kept & 1) != 0;
        const std::uint64_t unbounded =
            u.kept + (rounds_away(options_.mode, x.negative, u_odd, u, random, stochastic_) ? 1 : 0);
        const std::int64_t limit_bits = g.emin - x.exponent + M;
        tiny = limit_bits >= 64 || unbounded < (std::uint64_t{1} << limit_bits);
    }
    if (tiny && spec_.subnormals == SubnormalPolicy::Flush) {
        flags.raise(ExceptionFlags::underflow | ExceptionFlags::inexact);
        return binary_zero(x.negative && spec_.has_sign, flags);
    }
    if (tiny && t.inexact()) flags.raise(ExceptionFlags::underflow);
    if (count == 0) return binary_zero(x.negative && spec_.has_sign, flags);
    if (unsigned_negative) {
        if (finite_overflow(spec_, options_.mode, true) == OutOfRange::NaN) return invalid_negative();
        flags.raise(ExceptionFlags::overflow | ExceptionFlags::inexact);  // below the range, clamped to 0
        return binary_zero(false, flags);
    }

    const int width = std::bit_width(count);
    const std::int64_t value_exponent = quantum + width - 1;
    const std::uint64_t normalized = width <= M + 1 ? count << (M + 1 - width) : count >> (width - M - 1);
    if (value_exponent > g.emax || (value_exponent == g.emax && normalized > g.max_significand)) {
        flags.raise(ExceptionFlags::overflow | ExceptionFlags::inexact);
        return binary_out_of_range(finite_overflow(spec_, options_.mode, x.negative), x.negative, flags);
    }
    return binary_finite(x.negative, count, quantum, flags);
}

// ---- exponent-only scale (E8M0) --------------------------------------------------------------

Rounded Rounder::round_exponent_scale(const ExactValue& x) const {
    ExceptionFlags flags;
    const BinaryGeometry& g = geometry_;
    auto field_result = [&](std::int64_t exponent) {
        return Rounded{static_cast<std::uint64_t>(exponent + spec_.bias), std::ldexp(1.0, static_cast<int>(exponent)),
                       flags};
    };
    auto nan_result = [&] {
        const std::uint64_t all_ones = (std::uint64_t{1} << spec_.exponent_bits) - 1;
        return Rounded{all_ones, std::numeric_limits<double>::quiet_NaN(), flags};
    };
    if (x.kind == ExactValue::Kind::NaN) {
        if (x.signaling) flags.raise(ExceptionFlags::invalid);
        return nan_result();
    }
    if (x.kind != ExactValue::Kind::Finite || x.negative) {
        if (x.kind == ExactValue::Kind::Infinite && !x.negative && spec_.overflow == OverflowPolicy::Saturate) {
            flags.raise(ExceptionFlags::invalid);
            return field_result(g.emax);
        }
        flags.raise(ExceptionFlags::invalid);
        return nan_result();
    }
    const std::uint64_t random = random_bits();
    const Truncation t = truncate_to_quantum(x, x.exponent);
    const bool field_odd = ((x.exponent + spec_.bias) & 1) != 0;
    const bool up = rounds_away(options_.mode, false, field_odd, t, random, stochastic_);
    const std::int64_t exponent = x.exponent + (up ? 1 : 0);
    if (t.inexact()) flags.raise(ExceptionFlags::inexact);
    if (exponent > g.emax) {
        flags.raise(ExceptionFlags::overflow | ExceptionFlags::inexact);
        const bool to_nan = overflow_heads_to_infinity(options_.mode, false) &&
                            spec_.overflow == OverflowPolicy::Ieee && spec_.has_nan();
        return to_nan ? nan_result() : field_result(g.emax);
    }
    const bool tiny = options_.tininess == Tininess::BeforeRounding ? x.exponent < g.emin : exponent < g.emin;
    if (exponent < g.emin) {
        // No zero to round to: the smallest scale stands in for everything below it.
        flags.raise(ExceptionFlags::underflow | ExceptionFlags::inexact);
        return field_result(g.emin);
    }
    if (tiny && t.inexact()) flags.raise(ExceptionFlags::underflow);
    return field_result(exponent);
}

// ---- integers ---------------------------------------------------------------------------------

Rounded Rounder::round_integer(const ExactValue& x) const {
    ExceptionFlags flags;
    const IntegerRange range = integer_range(spec_);
    const std::uint64_t mask =
        spec_.integer_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << spec_.integer_bits) - 1;
    auto result = [&](std::int64_t value) {
        return Rounded{static_cast<std::uint64_t>(value) & mask, static_cast<double>(value), flags};
    };
    auto clamp_overflow = [&](bool negative) {
        flags.raise(ExceptionFlags::overflow | ExceptionFlags::inexact);
        return result(negative ? range.min : range.max);
    };
    switch (x.kind) {
        case ExactValue::Kind::NaN: flags.raise(ExceptionFlags::invalid); return result(0);
        case ExactValue::Kind::Infinite:
            flags.raise(ExceptionFlags::invalid);
            return result(x.negative ? range.min : range.max);
        case ExactValue::Kind::Zero: return result(0);
        case ExactValue::Kind::Finite: break;
    }
    if (x.exponent >= 40) return clamp_overflow(x.negative);
    const Truncation t = truncate_to_quantum(x, 0);
    const std::uint64_t count =
        t.kept + (rounds_away(options_.mode, x.negative, (t.kept & 1) != 0, t, random_bits(), stochastic_) ? 1 : 0);
    if (t.inexact()) flags.raise(ExceptionFlags::inexact);
    const std::int64_t value = x.negative ? -static_cast<std::int64_t>(count) : static_cast<std::int64_t>(count);
    if (value < range.min || value > range.max) return clamp_overflow(x.negative);
    return result(value);
}

// ---- lookup tables (NF4) ---------------------------------------------------------------------

Rounded Rounder::round_lookup(const ExactValue& x) const {
    ExceptionFlags flags;
    const std::vector<double>& codes = spec_.code_values;
    const std::size_t last = codes.size() - 1;
    auto result = [&](std::size_t index) { return Rounded{index, codes[index], flags}; };
    auto nearest_to_zero = [&] {
        std::size_t best = 0;
        for (std::size_t i = 1; i <= last; ++i)
            if (std::fabs(codes[i]) < std::fabs(codes[best])) best = i;
        return best;
    };
    if (x.kind == ExactValue::Kind::NaN) {
        flags.raise(ExceptionFlags::invalid);
        return result(nearest_to_zero());
    }
    if (x.kind == ExactValue::Kind::Infinite) {
        flags.raise(ExceptionFlags::invalid);
        return result(x.negative ? 0 : last);
    }
    auto cmp = [&](double code) { return compare(x, ExactValue::from_double(code)); };
    if (cmp(codes[0]) < 0 || cmp(codes[last]) > 0) {
        flags.raise(ExceptionFlags::overflow | ExceptionFlags::inexact);
        return result(cmp(codes[0]) < 0 ? 0 : last);
    }
    // hi: first code >= x
    std::size_t hi = 0;
    while (cmp(codes[hi]) > 0) ++hi;
    if (cmp(codes[hi]) == 0) return result(hi);
    const std::size_t lo = hi - 1;
    flags.raise(ExceptionFlags::inexact);
    const bool positive = !x.negative && x.kind != ExactValue::Kind::Zero;
    switch (options_.mode) {
        case RoundingMode::NearestEven:
        case RoundingMode::NearestAway: {
            MpfrNumber midpoint(2200);  // exact: both codes are doubles
            mpfr_set_d(midpoint.get(), codes[lo], MPFR_RNDN);
            mpfr_add_d(midpoint.get(), midpoint.get(), codes[hi], MPFR_RNDN);
            mpfr_div_2ui(midpoint.get(), midpoint.get(), 1, MPFR_RNDN);
            const int side = compare(x, ExactValue::from_mpfr(midpoint.get()));
            if (side != 0) return result(side < 0 ? lo : hi);
            // Tie: ties-to-even takes the lower code (bitsandbytes); ties-away goes away from zero.
            if (options_.mode == RoundingMode::NearestEven) return result(lo);
            return result(positive ? hi : lo);
        }
        case RoundingMode::TowardZero: return result(positive ? lo : hi);
        case RoundingMode::Upward: return result(hi);
        case RoundingMode::Downward: return result(lo);
        case RoundingMode::ToOdd: return result((lo & 1) != 0 ? lo : hi);
        case RoundingMode::Stochastic: {
            const double share = (x.to_double() - codes[lo]) / (codes[hi] - codes[lo]);
            const double threshold = std::ldexp(std::clamp(share, 0.0, 1.0), 64);
            const double draw = static_cast<double>(random_bits());
            return result(draw < threshold ? hi : lo);
        }
        case RoundingMode::StochasticEqual: return result((random_bits() >> 63) != 0 ? hi : lo);
    }
    return result(lo);
}

Rounded round_to_format(const FormatSpec& spec, const ExactValue& x, const RoundingOptions& options) {
    return Rounder(spec, options)(x);
}

Rounded round_to_format(const FormatSpec& spec, double x, const RoundingOptions& options) {
    return Rounder(spec, options)(x);
}

}  // namespace floatscope::core
