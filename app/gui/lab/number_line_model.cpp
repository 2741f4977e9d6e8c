// Enumerating a small format's values and the rounding intervals of a value's neighbours.
#include "app/gui/lab/number_line_model.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/format_properties.hpp"

namespace floatscope::gui {

bool fits_number_line(const core::FormatSpec& spec) { return spec.total_bits() <= 16; }

namespace {

/// The mode that rounds -x as `mode` rounds x, negated: the negative side's boundaries are the
/// positive side's under it.
core::RoundingMode mirrored(core::RoundingMode mode) {
    if (mode == core::RoundingMode::Upward) return core::RoundingMode::Downward;
    if (mode == core::RoundingMode::Downward) return core::RoundingMode::Upward;
    return mode;
}

}  // namespace

NumberLine number_line(const core::FormatSpec& spec, core::RoundingMode mode) {
    if (!fits_number_line(spec))
        throw Error(fmt::format("the number line enumerates formats of at most 16 bits; '{}' has {}", spec.name,
                                spec.total_bits()));
    NumberLine line;
    line.spec = spec;
    line.mode = mode;
    for (std::uint64_t bits : core::all_bit_patterns(spec)) {
        const core::Decoded d = core::decode_bits(spec, bits);
        if (d.value_class == core::ValueClass::NaN || d.value_class == core::ValueClass::Infinite) continue;
        line.values.push_back(d.value == 0 ? 0.0 : d.value);  // -0 and +0 are one point
    }
    std::sort(line.values.begin(), line.values.end());
    line.values.erase(std::unique(line.values.begin(), line.values.end()), line.values.end());
    const core::FormatProperties p = core::format_properties(spec);
    line.max_finite = p.max_finite;
    line.min_positive = p.min_subnormal;
    line.has_subnormals = p.has_subnormals;
    line.min_normal =
        spec.kind == core::FormatKind::Binary || spec.kind == core::FormatKind::HiFloat8 ? p.min_normal : 0;
    line.overflow = core::overflow_boundary(spec, mode);
    if (spec.has_sign && !line.values.empty() && line.values.front() < 0)
        line.negative_overflow = core::overflow_boundary(spec, mirrored(mode));
    line.underflow = core::underflow_boundary(spec, mode);
    return line;
}

RoundingInterval rounding_interval(const NumberLine& line, std::size_t index) {
    const core::RoundingMode mode = line.mode;
    const std::vector<double>& v = line.values;
    const double value = v[index];
    // Beyond the ends the gap repeats the last one (IEEE overflow: max + ulp/2 still rounds to max).
    const double gap_below = index > 0 ? value - v[index - 1] : (v.size() > 1 ? v[1] - v[0] : 1);
    const double gap_above = index + 1 < v.size() ? v[index + 1] - value : gap_below;
    const double previous = value - gap_below, next = value + gap_above;
    RoundingInterval r{value, value, value, true, true};
    using M = core::RoundingMode;
    switch (mode) {
        case M::NearestEven:
        case M::NearestAway: {
            r.low = value - gap_below / 2;
            r.high = value + gap_above / 2;
            const bool even = (std::lround(value / std::min(gap_below, gap_above)) & 1) == 0;
            r.low_closed = mode == M::NearestAway ? value <= 0 : even;
            r.high_closed = mode == M::NearestAway ? value >= 0 : even;
            break;
        }
        case M::Upward:
            r.low = previous;
            r.low_closed = false;
            break;
        case M::Downward:
            r.high = next;
            r.high_closed = false;
            break;
        case M::TowardZero:
            if (value >= 0) {
                r.high = next;
                r.high_closed = false;
            }
            if (value <= 0) {
                r.low = previous;
                r.low_closed = false;
            }
            break;
        case M::ToOdd:
        case M::Stochastic:
        case M::StochasticEqual:
            r.low = previous;
            r.high = next;
            r.low_closed = r.high_closed = false;
            break;
    }
    // Past the ends the overflow rule decides, not the mirrored gap.
    if (index + 1 == v.size() && line.overflow && line.overflow->within == value) {
        r.high = line.overflow->at;
        r.high_closed = !line.overflow->included;
    }
    if (index == 0 && line.negative_overflow && line.negative_overflow->within == -value) {
        r.low = -line.negative_overflow->at;
        r.low_closed = !line.negative_overflow->included;
    }
    return r;
}

std::optional<Neighbourhood> neighbourhood(const NumberLine& line, const core::ExactValue& x,
                                           const core::RoundingOptions& options) {
    if (x.kind == core::ExactValue::Kind::NaN || x.kind == core::ExactValue::Kind::Infinite || line.values.empty())
        return std::nullopt;
    const double xd = x.to_double();
    const std::vector<double>& v = line.values;
    Neighbourhood n;
    n.x = xd;
    n.rounded = core::Rounder(line.spec, options)(x).value;
    // Past an end: that end and what overflow gives (inf, NaN, or max again) from the threshold on.
    auto past_end = [&](std::size_t end, const std::optional<core::RangeBoundary>& boundary, double sign) {
        const RoundingInterval inner = rounding_interval(line, end);
        RoundingInterval outer{sign * boundary->beyond.value, sign * boundary->at, sign * INFINITY, boundary->included,
                               false};
        if (sign < 0) std::swap(outer.low, outer.high), std::swap(outer.low_closed, outer.high_closed);
        n.below = sign > 0 ? inner : outer;
        n.above = sign > 0 ? outer : inner;
        return n;
    };
    if (core::compare(x, core::ExactValue::from_double(v.back())) > 0)
        return line.overflow ? std::optional(past_end(v.size() - 1, line.overflow, 1)) : std::nullopt;
    if (core::compare(x, core::ExactValue::from_double(v.front())) < 0)
        return line.negative_overflow ? std::optional(past_end(0, line.negative_overflow, -1)) : std::nullopt;
    auto at_or_above = static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), xd) - v.begin());
    // xd is x rounded to a double: compare exactly, so that x just above a value is not taken for it.
    const int order = core::compare(x, core::ExactValue::from_double(v[at_or_above]));
    if (order > 0 && at_or_above + 1 < v.size()) ++at_or_above;
    n.exact = order == 0;
    const std::size_t below = n.exact || at_or_above == 0 ? at_or_above : at_or_above - 1;
    n.below = rounding_interval(line, below);
    n.above = rounding_interval(line, at_or_above);
    return n;
}

}  // namespace floatscope::gui
