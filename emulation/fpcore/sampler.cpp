// Reading argument ranges out of :pre and drawing inputs uniformly over format values.
#include "emulation/fpcore/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

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
        if (program_.has_pre) conjunct(program_.pre);
        return std::move(bounds_);
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

    /// Records lower <= upper where one side is an argument and the other is constant.
    void order(const Expr& lower, const Expr& upper) {
        const int low_arg = argument_of(lower), high_arg = argument_of(upper);
        if (high_arg >= 0 && !uses_variables(lower)) tighten(high_arg, lower, true);
        if (low_arg >= 0 && !uses_variables(upper)) tighten(low_arg, upper, false);
    }

    void tighten(int argument, const Expr& bound_expr, bool is_low) {
        const auto v = interpreter_.constant_expression(bound_expr);
        if (v.kind != Value<Real>::Kind::Number || mpfr_nan_p(v.number.get()) != 0) return;
        Bound& b = bounds_[static_cast<std::size_t>(argument)];
        if (is_low) {
            if (!b.has_low || mpfr_cmp(v.number.get(), b.low.get()) > 0) b.low = v.number;
            b.has_low = true;
        } else {
            if (!b.has_high || mpfr_cmp(v.number.get(), b.high.get()) < 0) b.high = v.number;
            b.has_high = true;
        }
    }

    void conjunct(const Expr& e) {
        if (e.kind != Expr::Kind::Operation) return;
        if (e.op == Op::And) {
            for (const Expr& c : e.children) conjunct(c);
            return;
        }
        const bool ascending = e.op == Op::Less || e.op == Op::LessEqual;
        const bool descending = e.op == Op::Greater || e.op == Op::GreaterEqual;
        if (!ascending && !descending) return;
        // A chain bounds every adjacent pair: (<= a x b) is a <= x and x <= b.
        for (std::size_t i = 0; i + 1 < e.children.size(); ++i) {
            if (ascending)
                order(e.children[i], e.children[i + 1]);
            else
                order(e.children[i + 1], e.children[i]);
        }
    }

    const Program& program_;
    TruthDomain domain_;
    Interpreter<TruthDomain> interpreter_;
    std::vector<Bound> bounds_;
};

std::string bound_text(const ArgumentRange& r, std::int64_t ordinal) {
    if (r.integer) return std::to_string(ordinal);
    return core::shortest_decimal(r.format, value_of_ordinal(r.format, ordinal));
}

}  // namespace

std::string ArgumentRange::describe() const {
    return name + " in [" + bound_text(*this, low) + ", " + bound_text(*this, high) + "]";
}

std::vector<ArgumentRange> argument_ranges(const Program& program, const EmulatedDomain& domain, int truth_precision) {
    RangeReader reader(program, truth_precision);
    const std::vector<std::optional<Real>> examples = reader.examples();
    std::vector<Bound> bounds = reader.read();
    const Function& f = program.functions[0];
    std::vector<ArgumentRange> ranges;
    for (std::size_t i = 0; i < f.argument_slots.size(); ++i) {
        ArgumentRange r;
        r.name = f.argument_names[i];
        const int context = f.argument_contexts[i];
        const RoundingContext& rc = program.contexts[static_cast<std::size_t>(context)];
        r.integer = rc.precision.kind == PrecisionKind::Integer;
        r.format = domain.format(context);
        Bound& b = bounds[i];
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
        ranges.push_back(std::move(r));
    }
    return ranges;
}

std::vector<double> draw_point(const std::vector<ArgumentRange>& ranges, Spread spread, std::mt19937_64& random) {
    std::vector<double> point;
    point.reserve(ranges.size());
    for (const ArgumentRange& r : ranges) {
        if (r.integer || spread == Spread::Ordinal || r.low == r.high) {
            const std::int64_t ordinal = std::uniform_int_distribution<std::int64_t>(r.low, r.high)(random);
            point.push_back(r.integer ? static_cast<double>(ordinal) : value_of_ordinal(r.format, ordinal));
            continue;
        }
        // Halves keep hi - lo finite when the range spans the whole format.
        const double low = value_of_ordinal(r.format, r.low) / 2, high = value_of_ordinal(r.format, r.high) / 2;
        const double u = 2 * (low + std::uniform_real_distribution<double>(0, 1)(random) * (high - low));
        const core::Rounder nearest(r.format, {});
        point.push_back(value_of_ordinal(r.format, std::clamp(format_ordinal(nearest, u), r.low, r.high)));
    }
    return point;
}

}  // namespace floatscope::emu::fpcore
