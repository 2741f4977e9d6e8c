// Enumerating a small format's values and the rounding intervals of a value's neighbours.
#include "app/gui/lab/number_line_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

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

namespace {

// Doubles as integers in the same order (-0 and +0 both 0): bisection over them ends at two
// neighbouring doubles in at most 64 steps, whatever the scale.
std::int64_t order_key(double x) {
    if (x == 0) return 0;
    const auto bits = static_cast<std::int64_t>(std::bit_cast<std::uint64_t>(std::fabs(x)));
    return x > 0 ? bits : -bits;
}

double from_order_key(std::int64_t key) {
    const double magnitude = std::bit_cast<double>(static_cast<std::uint64_t>(key < 0 ? -key : key));
    return key < 0 ? -magnitude : magnitude;
}

/// The real halfway between two neighbouring doubles (not a double itself).
core::ExactValue between(double low, double high) {
    const bool negative = high <= 0;
    const double magnitude = negative ? -high : low;  // the one nearer zero
    const double ulp = high - low;  // a power of two: the two are neighbours of one sign (or one is 0)
    const int u = std::ilogb(ulp);
    const auto k = static_cast<std::uint64_t>(std::ldexp(magnitude, -u));
    return core::ExactValue::from_scaled_integer(negative, 2 * k + 1, u - 1);
}

/// Where a value's rounding interval ends: `at`, and whether `at` itself rounds to the lower side.
struct Split {
    double at = 0;
    bool at_rounds_low = false;
};

/// What x rounds to under the line's deterministic mode, as a point on the line: NaN (overflow in
/// formats without inf, negatives in unsigned ones) and a result that raises overflow (saturation:
/// max again, drawn past the line's end as "max, overflow raised") count as beyond the end on x's
/// side, so that rounding is monotone in it.
class Ranker {
public:
    explicit Ranker(const NumberLine& line) : rounder_(line.spec, core::RoundingOptions{line.mode}) {}
    double operator()(const core::ExactValue& x) const {
        const core::Rounded r = rounder_(x);
        if (!std::isnan(r.value) && !r.flags.has(core::ExceptionFlags::overflow)) return r.value;
        return x.negative ? -INFINITY : INFINITY;
    }
    double operator()(double x) const { return (*this)(core::ExactValue::from_double(x)); }

    /// The boundary between reals that round to `limit` or below and those that round above it,
    /// found between `low` (which rounds low) and `high` (which does not) by rounding only.
    Split split(double limit, double low, double high) const {
        std::int64_t a = order_key(low), b = order_key(high);
        while (static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a) > 1) {
            const std::int64_t mid =
                a + static_cast<std::int64_t>((static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a)) / 2);
            ((*this)(from_order_key(mid)) <= limit ? a = mid : b = mid);
        }
        const double last_low = from_order_key(a), first_high = from_order_key(b);
        // The tie of formats of at most 16 bits is a double, so it is one of the two: the real
        // between them says which (it rounds low when the boundary is first_high, rounding high).
        if ((*this)(between(last_low, first_high)) <= limit) return {first_high, false};
        return {last_low, true};
    }

private:
    core::Rounder rounder_;
};

bool deterministic(core::RoundingMode mode) {
    return mode != core::RoundingMode::Stochastic && mode != core::RoundingMode::StochasticEqual;
}

/// Stochastic modes may give either neighbour: a value's reals are the open gaps on both sides.
RoundingInterval stochastic_interval(const std::vector<double>& v, std::size_t index) {
    const double value = v[index];
    // Beyond the ends the gap repeats the last one.
    const double gap_below = index > 0 ? value - v[index - 1] : (v.size() > 1 ? v[1] - v[0] : 1);
    const double gap_above = index + 1 < v.size() ? v[index + 1] - value : gap_below;
    return {value, value - gap_below, value + gap_above, false, false};
}

}  // namespace

RoundingInterval rounding_interval(const NumberLine& line, std::size_t index) {
    const std::vector<double>& v = line.values;
    const double value = v[index];
    RoundingInterval r{value, value, value, true, true};
    if (!deterministic(line.mode)) {
        r = stochastic_interval(v, index);
    } else {
        // Each end found by rounding: the tie rule, the bit-string midpoints of posits and takums,
        // HiFloat8's grid and the saturating ends all come from the Rounder, none from arithmetic.
        const Ranker rank(line);
        constexpr double largest = std::numeric_limits<double>::max();
        if (index > 0) {
            const Split s = rank.split(v[index - 1], v[index - 1], value);
            r.low = s.at;
            r.low_closed = !s.at_rounds_low;
        } else if (rank(-largest) < value) {
            const Split s = rank.split(std::nextafter(value, -INFINITY), -largest, value);
            r.low = s.at;
            r.low_closed = !s.at_rounds_low;
        } else {
            r.low = -INFINITY;  // every real below rounds here, without overflow
            r.low_closed = false;
        }
        if (index + 1 < v.size()) {
            const Split s = rank.split(value, value, v[index + 1]);
            r.high = s.at;
            r.high_closed = s.at_rounds_low;
        } else if (rank(largest) > value) {
            const Split s = rank.split(value, value, largest);
            r.high = s.at;
            r.high_closed = s.at_rounds_low;
        } else {
            r.high = INFINITY;
            r.high_closed = false;
        }
    }
    // Where rounding raises overflow (saturating formats give max again) the overflow rule's
    // threshold ends the value's own interval: past it lies "max, overflow raised".
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
    // Past an end that no rounding leaves (a deterministic mode without an overflow threshold): the
    // end's own interval runs on to infinity.
    auto end_only = [&](std::size_t end) -> std::optional<Neighbourhood> {
        if (!deterministic(line.mode)) return std::nullopt;
        n.below = n.above = rounding_interval(line, end);
        return n;
    };
    if (core::compare(x, core::ExactValue::from_double(v.back())) > 0)
        return line.overflow ? std::optional(past_end(v.size() - 1, line.overflow, 1)) : end_only(v.size() - 1);
    if (core::compare(x, core::ExactValue::from_double(v.front())) < 0)
        return line.negative_overflow ? std::optional(past_end(0, line.negative_overflow, -1)) : end_only(0);
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
