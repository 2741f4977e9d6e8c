// The range boundaries, found by bisection over the positive doubles: every threshold of a format
// within binary64 is a double, or lies between two adjacent ones.
#include "core/range_boundaries.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>

#include "core/format_properties.hpp"

namespace floatscope::core {

namespace {

/// Significant bits of a positive double (1 for powers of two), to tell a threshold from its neighbour.
int significant_bits(double x) {
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const std::uint64_t mantissa = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
    return 53 - std::countr_zero(mantissa);
}

/// The smallest double d in (low, high] with past(d), given past(high) and not past(low): the
/// predicate must be monotone there. Positive doubles order as their bit patterns.
double first_past(double low, double high, const std::function<bool(double)>& past) {
    auto lo = std::bit_cast<std::uint64_t>(low), hi = std::bit_cast<std::uint64_t>(high);
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        (past(std::bit_cast<double>(mid)) ? hi : lo) = mid;
    }
    return std::bit_cast<double>(hi);
}

/// The boundary between the smallest past value d and the double below it: described by whichever
/// of the two is the shorter number (65520 rather than 65519.99..., 65504 rather than 65504.000..01),
/// which is where the threshold lies on the reals.
RangeBoundary boundary_at(double first, double within, const Rounded& beyond) {
    const double below = std::nextafter(first, 0.0);
    RangeBoundary b;
    if (below == 0) {
        b.at = 0;  // every positive value is past it
    } else {
        b.included = significant_bits(first) <= significant_bits(below);
        b.at = b.included ? first : below;
    }
    b.within = within;
    b.beyond = beyond;
    return b;
}

}  // namespace

std::optional<RangeBoundary> overflow_boundary(const FormatSpec& spec, RoundingMode mode) {
    if (is_stochastic(mode)) return std::nullopt;
    const Rounder round(spec, RoundingOptions{mode});
    const double max = format_properties(spec).max_finite;
    auto overflows = [&](double x) {
        const Rounded r = round(x);
        return r.value != max || (r.flags.bits & ExceptionFlags::overflow) != 0;
    };
    const double far = std::numeric_limits<double>::max();
    if (!overflows(far)) return std::nullopt;
    const double first = first_past(max, far, overflows);
    return boundary_at(first, max, round(first));
}

std::optional<RangeBoundary> underflow_boundary(const FormatSpec& spec, RoundingMode mode) {
    if (is_stochastic(mode)) return std::nullopt;
    const Rounder round(spec, RoundingOptions{mode});
    auto leaves_zero = [&](double x) { return round(x).value != 0; };
    const FormatProperties p = format_properties(spec);
    double smallest = p.min_subnormal;
    if (!leaves_zero(smallest)) smallest = p.min_normal;  // flushed subnormals: the normals start it
    if (!(smallest > 0) || !leaves_zero(smallest)) return std::nullopt;
    const double first = first_past(0.0, smallest, leaves_zero);
    return boundary_at(first, 0.0, round(first));
}

}  // namespace floatscope::core
