// Where rounding into a format leaves its finite range: the overflow threshold above the largest
// finite value and the underflow threshold above zero, under one rounding mode.
#pragma once

#include <optional>

#include "core/format.hpp"
#include "core/rounding.hpp"

namespace floatscope::core {

/// A threshold on the positive axis: values on one side round to `within`, values past it to `beyond`.
struct RangeBoundary {
    double at = 0;
    bool included = false;  ///< whether `at` itself rounds to `beyond` ([at, ...) rather than (at, ...))
    double within = 0;  ///< what the values on the near side round to: max finite, or 0
    Rounded beyond;  ///< what the values past `at` round to: inf, NaN, max (with overflow raised), min positive
};

/// The smallest positive x whose rounding overflows: it raises overflow or gives other than max
/// finite (inf, NaN). Found by asking the Rounder, so that it follows every rule it applies (ties
/// to even past max, formats without inf, saturation, directed modes). nullopt in stochastic modes
/// (the threshold depends on the draw) and where no finite positive value overflows.
std::optional<RangeBoundary> overflow_boundary(const FormatSpec& spec, RoundingMode mode);

/// Where positive values stop rounding to zero: below `at` (or at it, unless included) they give 0,
/// past it the smallest positive value (or, flushing subnormals, the smallest normal). nullopt in
/// stochastic modes.
std::optional<RangeBoundary> underflow_boundary(const FormatSpec& spec, RoundingMode mode);

}  // namespace floatscope::core
