// WideRounder: an exact value (core::WideValue, any precision) rounded once to a binary format of
// any width, with IEEE flags; the MPFR-path twin of core::Rounder's binary rounding.
#pragma once

#include "core/exception_flags.hpp"
#include "core/format.hpp"
#include "core/out_of_range.hpp"
#include "core/rounding.hpp"
#include "core/wide_format.hpp"

namespace floatscope::core {

struct WideRounded {
    WideBits bits;
    ExceptionFlags flags;
};

/// Rounds to one binary format of the wide path (wide_geometry says which: IEEE-encoded or P3109)
/// under fixed options, with core::Rounder's conventions (rounding.hpp) and its rules for results
/// out of range (core/out_of_range.hpp): every mode (ties-to-away and round-to-odd included, on
/// the exact integer significand rather than through MPFR's modes), tininess after or before
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
    WideRounded max_finite(bool negative, ExceptionFlags flags) const;
    WideRounded out_of_range(OutOfRange result, bool negative, ExceptionFlags flags) const;

    FormatSpec spec_;
    RoundingOptions options_;
    WideGeometry geometry_;
    WideBits sign_bit_;  ///< 0 in unsigned formats
};

}  // namespace floatscope::core
