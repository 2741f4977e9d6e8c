// Reading argument ranges out of :pre and drawing inputs uniformly over format values.
#include "emulation/fpcore/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/decimal.hpp"
#include "core/error.hpp"
#include "emulation/fpcore/error_measure.hpp"
#include "emulation/fpcore/interpreter.hpp"
#include "emulation/fpcore/truth_domain.hpp"

namespace floatscope::emu::fpcore {

namespace {

constexpr std::int64_t integer_limit = std::int64_t{1} << 31;

struct Bound {
    bool has_low = false, has_high = false;
    Real low, high;  // inclusive or not: strict bounds are checked by the full :pre
};

bool uses_variables(const Expr& e) {
    if (e.kind == Expr::Kind::Variable || e.kind == Expr::Kind::Call) return true;
    return std::any_of(e.children.begin(), e.children.end(), uses_variables);
}

class RangeReader {
public:
    RangeReader(const Program& program, int truth_precision)
        : program_(program),
          domain_(program, truth_precision),
          interpreter_(program, domain_, EvaluationLimits{}),
          bounds_(program.functions[0].argument_slots.size()) {}

    std::vector<Bound> read() {
        if (program_.has_pre) conjunct(program_.pre, false);
        // A tensor's elements: the hull of its comparisons' bounds (a side bounded only where all are).
        for (const auto& [argument, chains] : element_bounds_) {
            Bound hull = chains.front();
            for (const Bound& b : chains) {
                hull.has_low = hull.has_low && b.has_low;
                hull.has_high = hull.has_high && b.has_high;
                if (hull.has_low && mpfr_cmp(b.low.get(), hull.low.get()) < 0) hull.low = b.low;
                if (hull.has_high && mpfr_cmp(b.high.get(), hull.high.get()) > 0) hull.high = b.high;
            }
            bounds_[static_cast<std::size_t>(argument)] = hull;
        }
        return std::move(bounds_);
    }

    /// A tensor argument's constant dimension (`(v 3)`).
    long long constant_size(const Expr& e, const std::string& argument) {
        const auto v = interpreter_.constant_expression(e);
        if (v.kind != Value<Real>::Kind::Number || mpfr_integer_p(v.number.get()) == 0 ||
            mpfr_cmp_si(v.number.get(), 0) < 0 || mpfr_cmp_si(v.number.get(), max_tensor_elements) > 0)
            throw Error("tensor argument '" + argument + "': a dimension is not an integer in [0, 2^20]");
        return mpfr_get_si(v.number.get(), MPFR_RNDN);
    }

    /// The :example value of each argument (nullopt where it gives none).
    std::vector<std::optional<Real>> examples() {
        std::vector<std::optional<Real>> values(bounds_.size());
        for (const auto& [argument, expression] : program_.example) {
            const auto v = interpreter_.constant_expression(expression);
            if (v.kind == Value<Real>::Kind::Number) values[static_cast<std::size_t>(argument)] = v.number;
        }
        return values;
    }

private:
    int argument_of(const Expr& e) const {
        if (e.kind != Expr::Kind::Variable) return -1;
        const auto& slots = program_.functions[0].argument_slots;
        const auto at = std::find(slots.begin(), slots.end(), e.slot);
        return at == slots.end() ? -1 : static_cast<int>(at - slots.begin());
    }

    /// The tensor argument whose element `e` is, (ref v i...), or -1.
    int element_of(const Expr& e) const {
        if (e.kind != Expr::Kind::Operation || e.op != Op::Ref || e.children.empty()) return -1;
        return argument_of(e.children[0]);
    }

    /// Records lower <= upper where one side is an argument (not inside a loop, which may not run)
    /// or a tensor argument's element and the other is constant; `chain` collects the elements'.
    void order(const Expr& lower, const Expr& upper, bool in_loop, std::map<int, Bound>& chain) {
        const int low_arg = argument_of(lower), high_arg = argument_of(upper);
        if (!in_loop && high_arg >= 0 && !uses_variables(lower)) tighten(bounds_[index(high_arg)], lower, true);
        if (!in_loop && low_arg >= 0 && !uses_variables(upper)) tighten(bounds_[index(low_arg)], upper, false);
        const int low_element = element_of(lower), high_element = element_of(upper);
        if (high_element >= 0 && !uses_variables(lower)) tighten(chain[high_element], lower, true);
        if (low_element >= 0 && !uses_variables(upper)) tighten(chain[low_element], upper, false);
    }

    static std::size_t index(int argument) { return static_cast<std::size_t>(argument); }

    void tighten(Bound& b, const Expr& bound_expr, bool is_low) {
        const auto v = interpreter_.constant_expression(bound_expr);
        if (v.kind != Value<Real>::Kind::Number || mpfr_nan_p(v.number.get()) != 0) return;
        if (is_low) {
            if (!b.has_low || mpfr_cmp(v.number.get(), b.low.get()) > 0) b.low = v.number;
            b.has_low = true;
        } else {
            if (!b.has_high || mpfr_cmp(v.number.get(), b.high.get()) < 0) b.high = v.number;
            b.has_high = true;
        }
    }

    void conjunct(const Expr& e, bool in_loop) {
        if (e.kind == Expr::Kind::For || e.kind == Expr::Kind::ForStar) {
            // children: sizes..., (init, update)..., body: the updates and the body test elements.
            for (std::size_t c = static_cast<std::size_t>(e.index_count) + 1; c < e.children.size(); c += 2)
                conjunct(e.children[c], true);
            conjunct(e.children.back(), true);
            return;
        }
        if (e.kind != Expr::Kind::Operation) return;
        if (e.op == Op::And) {
            for (const Expr& c : e.children) conjunct(c, in_loop);
            return;
        }
        const bool ascending = e.op == Op::Less || e.op == Op::LessEqual;
        const bool descending = e.op == Op::Greater || e.op == Op::GreaterEqual;
        if (!ascending && !descending) return;
        // A chain bounds every adjacent pair: (<= a x b) is a <= x and x <= b.
        std::map<int, Bound> chain;
        for (std::size_t i = 0; i + 1 < e.children.size(); ++i) {
            if (ascending)
                order(e.children[i], e.children[i + 1], in_loop, chain);
            else
                order(e.children[i + 1], e.children[i], in_loop, chain);
        }
        for (auto& [argument, bound] : chain) element_bounds_[argument].push_back(std::move(bound));
    }

    const Program& program_;
    TruthDomain domain_;
    Interpreter<TruthDomain> interpreter_;
    std::vector<Bound> bounds_;
    std::map<int, std::vector<Bound>> element_bounds_;  ///< per tensor argument, one per comparison chain
};

std::string bound_text(const ArgumentRange& r, std::int64_t ordinal) {
    if (r.integer || r.is_dimension) return std::to_string(ordinal);
    return core::shortest_decimal(r.format, value_of_ordinal(r.format, ordinal));
}

}  // namespace

std::string ArgumentRange::describe() const {
    std::string shape;
    for (const Extent& d : dimensions) shape += (shape.empty() ? " (" : " x ") + d.text;
    return name + shape + (shape.empty() ? "" : ")") + " in [" + bound_text(*this, low) + ", " +
           bound_text(*this, high) + "]";
}

std::vector<ArgumentRange> argument_ranges(const Program& program, const EmulatedDomain& domain, int truth_precision) {
    RangeReader reader(program, truth_precision);
    const std::vector<std::optional<Real>> examples = reader.examples();
    std::vector<Bound> bounds = reader.read();
    const Function& f = program.functions[0];
    std::vector<ArgumentRange> ranges(f.argument_slots.size());
    for (std::size_t i = 0; i < ranges.size(); ++i)
        for (const Expr& d : f.argument_dimensions[i]) {
            Extent extent;
            if (d.kind == Expr::Kind::Variable) {
                const auto at = std::find(f.argument_slots.begin(), f.argument_slots.end(), d.slot);
                extent.argument = static_cast<int>(at - f.argument_slots.begin());
                extent.text = f.argument_names[static_cast<std::size_t>(extent.argument)];
                ArgumentRange& sized_by = ranges[static_cast<std::size_t>(extent.argument)];
                if (!sized_by.dimensions.empty())
                    throw Error("tensor argument '" + f.argument_names[i] + "': its dimension '" + extent.text +
                                "' is a tensor");
                sized_by.is_dimension = true;
            } else {
                extent.size = reader.constant_size(d, f.argument_names[i]);
                extent.text = std::to_string(extent.size);
            }
            ranges[i].dimensions.push_back(std::move(extent));
        }
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        ArgumentRange& r = ranges[i];
        r.name = f.argument_names[i];
        const int context = f.argument_contexts[i];
        const RoundingContext& rc = program.contexts[static_cast<std::size_t>(context)];
        r.integer = rc.precision.kind == PrecisionKind::Integer;
        r.format = domain.format(context);
        Bound& b = bounds[i];
        if (r.is_dimension) {
            if (!b.has_low || !b.has_high || mpfr_cmp_si(b.low.get(), 0) < 0 ||
                mpfr_cmp_si(b.high.get(), max_tensor_dimension) > 0)
                throw Error(":pre must bound argument '" + r.name +
                            "', a dimension of a tensor argument, within [0, 65536], as (<= 1 " + r.name + " 100)");
            r.low = static_cast<std::int64_t>(std::ceil(mpfr_get_d(b.low.get(), MPFR_RNDU)));
            r.high = static_cast<std::int64_t>(std::floor(mpfr_get_d(b.high.get(), MPFR_RNDD)));
            if (r.low > r.high) throw Error(":pre leaves no integer for argument '" + r.name + "'");
            continue;
        }
        if (!b.has_low && !b.has_high && examples[i]) {
            b.has_low = b.has_high = true;
            b.low = b.high = *examples[i];
            r.from_example = true;
        }
        if (r.from_example && !r.integer) {
            const core::Rounder nearest(r.format, {});
            r.low = r.high = format_ordinal(nearest, nearest(core::ExactValue::from_mpfr(b.low.get())).value);
        } else if (r.integer) {
            r.low = b.has_low ? static_cast<std::int64_t>(
                                    std::max(std::ceil(mpfr_get_d(b.low.get(), MPFR_RNDU)), -double(integer_limit)))
                              : -integer_limit;
            r.high = b.has_high ? static_cast<std::int64_t>(std::min(std::floor(mpfr_get_d(b.high.get(), MPFR_RNDD)),
                                                                     double(integer_limit - 1)))
                                : integer_limit - 1;
        } else {
            const core::Rounder up(r.format, {core::RoundingMode::Upward, core::Tininess::AfterRounding, nullptr});
            const core::Rounder down(r.format, {core::RoundingMode::Downward, core::Tininess::AfterRounding, nullptr});
            const core::Rounder nearest(r.format, {});
            const double max = core::binary_geometry(r.format).max_finite;
            const double low = b.has_low ? std::max(up(core::ExactValue::from_mpfr(b.low.get())).value, -max) : -max;
            const double high = b.has_high ? std::min(down(core::ExactValue::from_mpfr(b.high.get())).value, max) : max;
            if (!(low <= high))
                r.low = 1, r.high = 0;
            else
                r.low = format_ordinal(nearest, low), r.high = format_ordinal(nearest, high);
        }
        if (r.low > r.high) throw Error(":pre leaves no value of its format for argument '" + r.name + "'");
    }
    return ranges;
}

namespace {

double draw_value(const ArgumentRange& r, Spread spread, std::mt19937_64& random) {
    if (r.is_dimension) {
        const auto n = static_cast<double>(std::uniform_int_distribution<std::int64_t>(r.low, r.high)(random));
        // The value the argument's format holds, so that the interpreter reads the same size.
        if (r.integer) return n;
        return value_of_ordinal(r.format, format_ordinal(core::Rounder(r.format, {}), n));
    }
    if (r.integer || spread == Spread::Ordinal || r.low == r.high) {
        const std::int64_t ordinal = std::uniform_int_distribution<std::int64_t>(r.low, r.high)(random);
        return r.integer ? static_cast<double>(ordinal) : value_of_ordinal(r.format, ordinal);
    }
    // Halves keep hi - lo finite when the range spans the whole format.
    const double low = value_of_ordinal(r.format, r.low) / 2, high = value_of_ordinal(r.format, r.high) / 2;
    const double u = 2 * (low + std::uniform_real_distribution<double>(0, 1)(random) * (high - low));
    const core::Rounder nearest(r.format, {});
    return value_of_ordinal(r.format, std::clamp(format_ordinal(nearest, u), r.low, r.high));
}

}  // namespace

std::vector<double> draw_point(const std::vector<ArgumentRange>& ranges, Spread spread, std::mt19937_64& random) {
    std::vector<double> point, scalars(ranges.size());
    point.reserve(ranges.size());
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const ArgumentRange& r = ranges[i];
        if (r.dimensions.empty()) {
            scalars[i] = draw_value(r, spread, random);
            point.push_back(scalars[i]);
            continue;
        }
        double elements = 1;
        for (const Extent& d : r.dimensions)
            elements *= d.argument < 0 ? static_cast<double>(d.size) : scalars[static_cast<std::size_t>(d.argument)];
        if (elements > static_cast<double>(max_tensor_elements))
            throw Error("tensor argument " + r.describe() + " drew " + fmt::format("{:.0f}", elements) +
                        " elements; FloatScope samples at most 2^20 per argument (bound its dimensions in :pre)");
        for (double k = 0; k < elements; ++k) point.push_back(draw_value(r, spread, random));
    }
    return point;
}

}  // namespace floatscope::emu::fpcore
