// WideRounder: an exact value (core::WideValue, any precision) rounded once to a binary format of
// any width, with IEEE flags; the MPFR-path twin of core::Rounder's binary rounding.
#pragma once

#include "core/exception_flags.hpp"
#include "core/format.hpp"
#include "core/rounding.hpp"
#include "core/wide_format.hpp"

namespace floatscope::core {

struct WideRounded {
    WideBits bits;
    ExceptionFlags flags;
};

/// Rounds to one IEEE-encoded binary format (wide_geometry says which) under fixed options, with
/// core::Rounder's conventions (rounding.hpp): every mode (ties-to-away and round-to-odd included,
/// on the exact integer significand rather than through MPFR's modes), tininess after or before
/// rounding, saturation, flushing, NaN payloads kept from the leading bits, and stochastic rounding
/// that draws 64 bits once per finite nonzero input and compares them with the first 64 discarded
/// bits, so that the same source gives the same results as core::Rounder on narrow formats.
class WideRounder {
public:
    WideRounder(const FormatSpec& spec, RoundingOptions options);

    WideRounded operator()(const WideValue& x) const;

    const FormatSpec& spec() const { return spec_; }
    const RoundingOptions& options() const { return options_; }
    const WideGeometry& geometry() const { return geometry_; }

private:
    WideRounded round_finite(const WideValue& x) const;
    WideRounded zero(bool negative, ExceptionFlags flags) const;
    WideRounded nan(const WideValue& x, ExceptionFlags flags) const;
    WideRounded infinity(bool negative, ExceptionFlags flags) const;
    WideRounded overflow(bool negative, ExceptionFlags flags) const;

    FormatSpec spec_;
    RoundingOptions options_;
    WideGeometry geometry_;
    WideBits sign_bit_;
    WideBits infinity_;  ///< the pattern of +inf
    WideBits max_finite_;  ///< the pattern of +max
};

}  // namespace floatscope::core
