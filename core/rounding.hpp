// Rounding: any real number (double, MPFR, parsed text) to any format, once, with IEEE flags.
#pragma once

#include <cstdint>

#include "core/exact_value.hpp"
#include "core/exception_flags.hpp"
#include "core/format.hpp"
#include "core/out_of_range.hpp"
#include "core/rounding_mode.hpp"
#include "core/stochastic_source.hpp"

namespace floatscope::core {

struct RoundingOptions {
    RoundingMode mode = RoundingMode::NearestEven;
    Tininess tininess = Tininess::AfterRounding;
    StochasticSource* random = nullptr;  ///< required by sr and sr-equal (and says how sr draws); not owned
};

/// One value of a format: its bit pattern, its value (exact: every format value is a double)
/// and the flags that producing it raised.
struct Rounded {
    std::uint64_t bits = 0;
    double value = 0;
    ExceptionFlags flags;
};

/// Rounds to one format under fixed options. Construct once, call per value.
///
/// Semantics (DESIGN.md "Generalised overflow rule"): the result is the exact input rounded once.
/// Where IEEE 754 would deliver +-inf, a format without infinities delivers NaN, or +-max when it
/// saturates or has no NaN either; directed roundings that IEEE sends to +-max keep doing so;
/// stochastic overflow behaves as round-to-nearest. Conventions beyond IEEE, chosen here:
/// - an infinite input to a format without infinities raises invalid (NaN, or +-max when saturating);
/// - a NaN input to a format without NaN gives +0 and raises invalid;
/// - a negative result in an unsigned float format gives NaN (or +0 without NaN), invalid; in the
///   P3109 formats it follows the saturation mode (core/out_of_range.hpp: +0 with overflow and
///   inexact where P3109 clamps it to 0);
/// - P3109 formats: SatFinite (OverflowPolicy::SaturateFinite) also turns +-inf into +-max
///   (invalid), and under SatNone round-to-odd overflows as the nearest modes do;
/// - integers round to an integer and clamp to their range, raising overflow and inexact;
/// - lookup tables (NF4) take the nearest code, ties to the lower code (as bitsandbytes'
///   decision tree does), and clamp outside the table (overflow, inexact);
/// - E8M0 has no zero: zero, negative and NaN inputs give NaN (invalid); values below 2^-127
///   give 2^-127 (underflow, inexact);
/// - with subnormals flushed, a tiny result (by the chosen tininess rule) becomes zero (underflow,
///   inexact), and subnormal encodings decode as zero;
/// - posits, takums and HiFloat8 round as core/tapered_rounding.hpp says (saturating bit-string
///   rounding; HiF8 with its exponent-dependent mantissa width), in every mode;
/// - with only one significand bit (M = 0), ties-to-even and round-to-odd look at the parity of
///   the encoding (the exponent field), as no significand digit differs.
/// Stochastic rounding compares 64 random bits with the first 64 bits of the discarded fraction, or
/// N of them by one of P3109's rules (the random source's StochasticRule); NF4 tables take the default.
class Rounder {
public:
    Rounder(const FormatSpec& spec, RoundingOptions options);

    Rounded operator()(const ExactValue& x) const;
    Rounded operator()(double x) const { return (*this)(ExactValue::from_double(x)); }

    const FormatSpec& spec() const { return spec_; }
    const RoundingOptions& options() const { return options_; }

private:
    Rounded round_binary(const ExactValue& x) const;
    Rounded round_exponent_scale(const ExactValue& x) const;
    Rounded round_integer(const ExactValue& x) const;
    Rounded round_lookup(const ExactValue& x) const;

    std::uint64_t random_bits() const;
    Rounded binary_finite(bool negative, std::uint64_t significand, std::int64_t scale, ExceptionFlags flags) const;
    Rounded binary_zero(bool negative, ExceptionFlags flags) const;
    Rounded binary_nan(bool negative, std::uint64_t payload, ExceptionFlags flags) const;
    Rounded binary_infinity(bool negative, ExceptionFlags flags) const;
    Rounded binary_max(bool negative, ExceptionFlags flags) const;
    Rounded binary_out_of_range(OutOfRange result, bool negative, ExceptionFlags flags) const;

    FormatSpec spec_;
    RoundingOptions options_;
    StochasticRule stochastic_;  ///< the random source's rule, or the default
    BinaryGeometry geometry_;
};

Rounded round_to_format(const FormatSpec& spec, const ExactValue& x, const RoundingOptions& options = {});
Rounded round_to_format(const FormatSpec& spec, double x, const RoundingOptions& options = {});

}  // namespace floatscope::core
