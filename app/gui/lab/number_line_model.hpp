// The number line's data: a small format's finite values, and where a value's two neighbours' rounding intervals lie.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/exact_value.hpp"
#include "core/format.hpp"
#include "core/range_boundaries.hpp"
#include "core/rounding.hpp"

namespace floatscope::gui {

/// Every finite value of a format of at most 16 bits, ascending, +0 and -0 merged, and where one
/// rounding mode leaves the finite range.
struct NumberLine {
    core::FormatSpec spec;
    core::RoundingMode mode = core::RoundingMode::NearestEven;
    std::vector<double> values;
    double min_normal = 0;  ///< start of the normal range (binary formats); 0 where there is none
    double min_positive = 0;  ///< smallest positive value
    double max_finite = 0;
    bool has_subnormals = false;
    std::optional<core::RangeBoundary> overflow;  ///< above max finite (core/range_boundaries.hpp)
    /// Below -max, as a positive magnitude (the mirrored mode's boundary); signed formats only.
    std::optional<core::RangeBoundary> negative_overflow;
    std::optional<core::RangeBoundary> underflow;  ///< between 0 and the smallest positive value
};

/// Throws floatscope::Error for formats wider than 16 bits (their values are not enumerated).
NumberLine number_line(const core::FormatSpec& spec, core::RoundingMode mode);

/// Whether number_line accepts the format.
bool fits_number_line(const core::FormatSpec& spec);

/// The reals that round to one format value under one mode: from `low` to `high` (infinite where
/// every real beyond rounds to it); an end is included when `*_closed`.
struct RoundingInterval {
    double value = 0;
    double low = 0;
    double high = 0;
    bool low_closed = false;
    bool high_closed = false;
};

/// The entered value's place on the line: the values just below and above it (the same value when
/// it is representable), their intervals, and what it rounds to under the mode. Past max finite
/// (or -max) the outer neighbour is what overflow gives (inf, NaN, or max when saturating), its
/// interval running from the overflow threshold on; where no rounding overflows both are the end
/// value, whose interval runs to infinity.
struct Neighbourhood {
    double x = 0;  ///< the entered value, to double precision (for drawing)
    RoundingInterval below;
    RoundingInterval above;
    double rounded = 0;
    bool exact = false;
};

/// nullopt when x is NaN or infinite, or outside the line in a stochastic mode without an overflow threshold.
std::optional<Neighbourhood> neighbourhood(const NumberLine& line, const core::ExactValue& x,
                                           const core::RoundingOptions& options);

/// The interval of values[index] under the line's mode, each end found by rounding (bisection over
/// the doubles between two neighbours with the same Rounder as Bits and the CLI), so it follows the
/// format's own rule: ties to even or away, the bit-string midpoints of posits and takums, HiFloat8's
/// grid, round-to-odd, saturation (a result that raises overflow lies past the end, as the overflow
/// threshold draws it). Stochastic modes may give either neighbour: open gaps both sides.
RoundingInterval rounding_interval(const NumberLine& line, std::size_t index);

}  // namespace floatscope::gui
