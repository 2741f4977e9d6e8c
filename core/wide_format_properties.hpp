// Properties of a format wider than binary64, exactly: its limits as exact values (binary128's max
// and min subnormal are beyond a double's range) and its value count as an integer.
#pragma once

#include <vector>

#include <gmpxx.h>

#include "core/format.hpp"
#include "core/format_properties.hpp"
#include "core/wide_format.hpp"

namespace floatscope::core {

struct WideFormatProperties {
    /// Bits, fields, bias, digits, decades, bytes and specials as format_properties gives them for a
    /// narrow format; its limits are the nearest doubles (inf and 0 where a double cannot hold
    /// them) and its finite_values saturates at 2^64 - 1: read the exact members below instead.
    FormatProperties shape;
    WideValue max_finite;
    WideValue lowest;  ///< -max, or 0 for unsigned formats
    WideValue min_normal;
    WideValue min_subnormal;  ///< min_normal where there are no subnormals (flushed, or M = 0)
    WideValue epsilon;  ///< 2^-M
    WideValue unit_roundoff;  ///< 2^-(M+1)
    mpz_class finite_values;  ///< distinct finite values, +0 and -0 once
};

/// Every format the wide path takes (core::wide_geometry: eXmY with the IEEE encoding, P3109),
/// narrow ones included, so that tests can hold it against format_properties; throws
/// floatscope::Error naming the format otherwise.
WideFormatProperties wide_format_properties(const FormatSpec& spec);

/// The formats beyond binary64 that the catalog names (binary256, binary128; not their aliases),
/// widest first.
std::vector<FormatSpec> named_wide_formats();

/// log2 |x| of a finite nonzero x, to about a double's precision, for x beyond a double's range too.
double log2_magnitude(const WideValue& x);

}  // namespace floatscope::core
