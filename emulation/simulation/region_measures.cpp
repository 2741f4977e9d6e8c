// Measuring a region against its ground truth. Errors are formed in MPFR (x - t rounded once) and
// norms accumulated in long double, whose exponent range holds the square of any double.
#include "emulation/simulation/region_measures.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <utility>

#include <fmt/format.h>

#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/format_properties.hpp"
#include "core/format_width.hpp"
#include "core/rounding.hpp"
#include "core/wide_format.hpp"
#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/arithmetic/mpfr_long_double.hpp"
#include "emulation/simulation/format_spacing.hpp"
#include "emulation/simulation/median.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/value_range.hpp"

namespace floatscope::emu {

namespace {

constexpr int difference_precision = 64;  // x - t rounded once, to a long double's significand

/// max, mean and median of a list of non-negative numbers.
struct Statistics {
    std::vector<double> values;

    void append(const Statistics& later) { values.insert(values.end(), later.values.begin(), later.values.end()); }

    double max() const { return *std::max_element(values.begin(), values.end()); }
    double min() const { return *std::min_element(values.begin(), values.end()); }
    double mean() const {
        double sum = 0;
        for (double v : values) sum += v;
        return sum / static_cast<double>(values.size());
    }
    double median() { return emu::median(values); }
};

/// A TruthNumber of `bits` bits (operations on it round to that precision).
TruthNumber scratch(int bits) {
    TruthNumber x;
    mpfr_set_prec(x.backend().data(), bits);
    return x;
}

/// The limits of a format wider than binary64, exactly: its range is not a double's.
struct WideLimits {
    core::WideGeometry geometry;
    TruthNumber max_finite, min_normal;
    bool flushes = false;

    explicit WideLimits(const core::FormatSpec& spec)
        : geometry(core::wide_geometry(spec)),
          max_finite(scratch(geometry.precision)),
          min_normal(scratch(2)),
          flushes(spec.subnormals == core::SubnormalPolicy::Flush) {
        core::decode_wide_bits(spec, geometry.max_finite_magnitude).value.to_mpfr(max_finite.backend().data());
        mpfr_set_ui_2exp(min_normal.backend().data(), 1, geometry.emin, MPFR_RNDN);
    }
    /// The exponent of the spacing of the format's values at t (finite): max(e, emin) - (p - 1), as
    /// FormatSpacing; below the normal range of a flushing format the gap from 0 to the smallest normal.
    long ulp_exponent_at(mpfr_srcptr t) const {
        const long e = mpfr_zero_p(t) ? geometry.emin - 1 : mpfr_get_exp(t) - 1;
        if (e < geometry.emin && flushes) return geometry.emin;
        return std::max<long>(e, geometry.emin) - (geometry.precision - 1);
    }
};

/// -log2 of a relative error, in [0, p]: p for an exact result (never more bits than the format has).
double bits_correct(double relative_error, int precision) {
    if (relative_error == 0) return precision;
    const double bits = -std::log2(relative_error);
    return bits > 0 ? std::min(bits, static_cast<double>(precision)) : 0.0;  // also +0 for bits = -0
}

/// Where the truth leaves the format's range: at max + half its ulp, the value round to nearest
/// sends to infinity (binary, scale), max + 1/2 for integers, beyond max for tables, posits and takums
/// (which saturate), beyond 40960 for HiF8 (the tie there goes to the even code of 32768).
struct OverflowRule {
    TruthNumber threshold = scratch(128);
    bool at_threshold_overflows = true;

    explicit OverflowRule(const core::FormatSpec& spec, double max_finite) {
        mpfr_ptr at = threshold.backend().data();
        mpfr_set_d(at, max_finite, MPFR_RNDN);
        switch (spec.kind) {
            case core::FormatKind::Binary:
            case core::FormatKind::ExponentScale: mpfr_add_d(at, at, FormatSpacing(spec).at(at) / 2, MPFR_RNDN); break;
            case core::FormatKind::Integer: mpfr_add_d(at, at, 0.5, MPFR_RNDN); break;
            case core::FormatKind::Lookup:
            case core::FormatKind::Posit:
            case core::FormatKind::Takum: at_threshold_overflows = false; break;
            case core::FormatKind::HiFloat8:
                mpfr_add_d(at, at, 8192, MPFR_RNDN);  // half the top binade's step of 16384
                at_threshold_overflows = false;
                break;
        }
    }
    /// A format wider than binary64: max + half its ulp, 2^(emax - p) beyond max.
    explicit OverflowRule(const WideLimits& limits) {
        mpfr_ptr at = threshold.backend().data();
        mpfr_set_prec(at, limits.geometry.precision + 2);
        TruthNumber half = scratch(2);
        mpfr_set_ui_2exp(half.backend().data(), 1, limits.geometry.emax - limits.geometry.precision, MPFR_RNDN);
        mpfr_add(at, limits.max_finite.backend().data(), half.backend().data(), MPFR_RNDN);  // exact at p + 2 bits
    }
    bool beyond_range(mpfr_srcptr t) const {
        const int c = mpfr_cmpabs(t, threshold.backend().data());
        return at_threshold_overflows ? c >= 0 : c > 0;
    }
};

/// The normwise accumulators: ||x - t|| and ||t|| in the 2-norm (sums of squares) and the max norm.
/// The errors are kept and their squares summed in order when the norms are read, so that the
/// measures of consecutive parts of a region (made on several threads) join into the sums one
/// pass would make; ||t||'s terms are the components' magnitudes (Component).
struct Norms {
    std::vector<long double> errors;
    long double error_max = 0, truth_max = 0;
    bool unbounded = false;  ///< some x is NaN or inf where the truth is finite, or disagrees with an infinite truth
    bool exact = true;

    void add(long double error, long double truth) {
        errors.push_back(error);
        add_truth(truth);
        error_max = std::max(error_max, std::fabs(error));
        exact = exact && error == 0;
    }
    void add_truth(long double truth) { truth_max = std::max(truth_max, std::fabs(truth)); }
    /// The norms of the values after these.
    void append(Norms&& later) {
        errors.insert(errors.end(), later.errors.begin(), later.errors.end());
        error_max = std::max(error_max, later.error_max);
        truth_max = std::max(truth_max, later.truth_max);
        unbounded = unbounded || later.unbounded;
        exact = exact && later.exact;
    }
    long double error_squares() const {
        long double sum = 0;
        for (long double e : errors) sum += e * e;
        return sum;
    }
};

/// A componentwise relative error and the magnitude of the truth it was measured against.
struct Component {
    long double truth_magnitude;
    double relative_error;
};

void add_count(std::vector<ReportRow>& rows, const ReportRow& base, const char* count_metric,
               const char* fraction_metric, std::uint64_t count, std::uint64_t total) {
    rows.push_back(with_metric(base, count_metric, static_cast<double>(count)));
    rows.push_back(with_metric(base, fraction_metric, static_cast<double>(count) / static_cast<double>(total)));
}

void add_counter_rows(std::vector<ReportRow>& rows, const ReportRow& base, const OperationCounters& c) {
    if (c == OperationCounters{}) return;
    rows.push_back(with_metric(base, metric::op_count, static_cast<double>(c.operations)));
    rows.push_back(with_metric(base, metric::op_inexact, static_cast<double>(c.inexact)));
    if (c.operations > 0)
        rows.push_back(with_metric(base, metric::op_inexact_fraction,
                                   static_cast<double>(c.inexact) / static_cast<double>(c.operations)));
    rows.push_back(with_metric(base, metric::op_overflow_flags, static_cast<double>(c.overflow)));
    rows.push_back(with_metric(base, metric::op_underflow_flags, static_cast<double>(c.underflow)));
    rows.push_back(with_metric(base, metric::op_divide_by_zero, static_cast<double>(c.divide_by_zero)));
    rows.push_back(with_metric(base, metric::op_invalid, static_cast<double>(c.invalid)));
    rows.push_back(with_metric(base, metric::op_nan, static_cast<double>(c.nan_results)));
    rows.push_back(with_metric(base, metric::op_inf, static_cast<double>(c.infinite_results)));
    rows.push_back(with_metric(base, metric::op_zero, static_cast<double>(c.zero_results)));
}

/// The rows that compare the region with its truth.
class TruthComparison {
public:
    TruthComparison(const core::FormatSpec& format, const core::FormatProperties& properties)
        : precision_(measure_precision(format)),
          min_normal_(properties.min_normal),
          max_finite_(properties.max_finite),
          overflow_(format, properties.max_finite),
          spacing_(format) {
        mpfr_set_d(min_normal_number_.backend().data(), min_normal_, MPFR_RNDN);  // exact: 53 bits
    }
    /// A format wider than binary64: its values are compared exactly (add(mpfr_srcptr, mpfr_srcptr)).
    TruthComparison(const core::FormatSpec& format, const WideLimits& limits)
        : precision_(measure_precision(format)), wide_(&limits), overflow_(limits), spacing_(format) {}

    /// Room for `count` values' measures at once: growing six lists value by value copied each of them
    /// several times over (a tenth of the measures' time on a large region).
    void reserve(std::size_t count) {
        norms_.errors.reserve(count);
        components_.reserve(count);
        for (Statistics* s : {&abs_error_, &rel_error_, &ulp_error_, &bits_correct_}) s->values.reserve(count);
    }

    void add(double x, mpfr_srcptr t) {
        if (mpfr_nan_p(t)) return;  // nothing to compare with
        ++compared_;
        if (mpfr_inf_p(t) || !std::isfinite(x)) return add_non_finite(std::isinf(x), x > 0, t);
        // t and x - t rounded once to 64 bits, from their bits where that can (truth_and_difference),
        // else in MPFR; the ratios below round once more.
        if (const std::optional<TruthAndDifference> rounded = truth_and_difference(x, t)) {
            classify(x == 0, std::fabs(x) < min_normal_, std::fabs(x) == max_finite_, t,
                     !std::isnan(min_normal_) && std::fabs(rounded->truth) < min_normal_);
            return add_difference(t, rounded->truth, rounded->difference, false);
        }
        mpfr_ptr rounded = rounded_truth_.backend().data();
        const long double truth = to_long_double(t, rounded);
        classify(x == 0, std::fabs(x) < min_normal_, std::fabs(x) == max_finite_, t, below_min_normal(rounded));
        mpfr_d_sub(difference_.backend().data(), x, t, MPFR_RNDN);
        add_held_difference(t, truth);
    }

    /// A value of a wide format, exactly (WideLimits' constructor).
    void add(mpfr_srcptr x, mpfr_srcptr t) {
        if (mpfr_nan_p(t)) return;
        ++compared_;
        if (mpfr_inf_p(t) || !mpfr_number_p(x)) return add_non_finite(mpfr_inf_p(x), mpfr_sgn(x) > 0, t);
        const long double truth = to_long_double(t, rounded_truth_.backend().data());
        classify(mpfr_zero_p(x), mpfr_cmpabs(x, wide_->min_normal.backend().data()) < 0,
                 mpfr_cmpabs(x, wide_->max_finite.backend().data()) == 0, t,
                 mpfr_cmpabs(t, wide_->min_normal.backend().data()) < 0);
        mpfr_sub(difference_.backend().data(), x, t, MPFR_RNDN);
        add_held_difference(t, truth);
    }

    void write(std::vector<ReportRow>& rows, const ReportRow& base, std::uint64_t value_count) {
        auto add = [&](const char* name, double value) { rows.push_back(with_metric(base, name, value)); };
        add(metric::compared_count, static_cast<double>(compared_));
        write_normwise(add);
        write_componentwise(add);
        if (!abs_error_.values.empty()) {
            add(metric::abs_error_max, abs_error_.max());
            add(metric::abs_error_mean, abs_error_.mean());
            add(metric::abs_error_median, abs_error_.median());
        }
        if (!rel_error_.values.empty()) {
            add(metric::rel_error_max, rel_error_.max());
            add(metric::rel_error_mean, rel_error_.mean());
            add(metric::rel_error_median, rel_error_.median());
        }
        if (!ulp_error_.values.empty()) {
            add(metric::ulp_error_max, ulp_error_.max());
            add(metric::ulp_error_mean, ulp_error_.mean());
        }
        if (!bits_correct_.values.empty()) {
            add(metric::bits_correct_min, bits_correct_.min());
            add(metric::bits_correct_mean, bits_correct_.mean());
        }
        add_count(rows, base, metric::overflow_count, metric::overflow_fraction, overflow_count_, value_count);
        add_count(rows, base, metric::underflow_count, metric::underflow_fraction, flushed_ + subnormal_results_,
                  value_count);
        add_count(rows, base, metric::flushed_to_zero_count, metric::flushed_to_zero_fraction, flushed_, value_count);
        add_count(rows, base, metric::subnormal_result_count, metric::subnormal_result_fraction, subnormal_results_,
                  value_count);
        add_count(rows, base, metric::zeroed_count, metric::zeroed_fraction, zeroed_, value_count);
    }

    /// Takes in the comparison of the values after this one's (the next part of the region): the
    /// rows are then those of one comparison of them all.
    void append(TruthComparison&& later) {
        compared_ += later.compared_;
        overflow_count_ += later.overflow_count_;
        flushed_ += later.flushed_;
        subnormal_results_ += later.subnormal_results_;
        zeroed_ += later.zeroed_;
        norms_.append(std::move(later.norms_));
        components_.insert(components_.end(), later.components_.begin(), later.components_.end());
        abs_error_.append(later.abs_error_);
        rel_error_.append(later.rel_error_);
        ulp_error_.append(later.ulp_error_);
        bits_correct_.append(later.bits_correct_);
    }

private:
    /// Agreeing infinities are exact; any other non-finite pair (NaN or inf for a finite truth, a
    /// finite result for an infinite truth) is an unbounded error, never a silent gap.
    void add_non_finite(bool x_infinite, bool x_positive, mpfr_srcptr t) {
        const bool agree = x_infinite && mpfr_inf_p(t) && x_positive == (mpfr_sgn(t) > 0);
        const double error = agree ? 0.0 : INFINITY;
        abs_error_.values.push_back(error);
        ulp_error_.values.push_back(error);
        rel_error_.values.push_back(error);
        bits_correct_.values.push_back(agree ? precision_ : 0.0);
        if (!agree) norms_.unbounded = true, norms_.exact = false;
        if (mpfr_inf_p(t)) return;
        // A finite truth counts in ||t|| all the same: a region whose results are all NaN has an
        // unbounded normwise error, not none (which a "last region with the metric" skipped).
        const long double truth = to_long_double(t, rounded_truth_.backend().data());
        norms_.add_truth(truth);
        overflow_count_ += overflow_.beyond_range(t);
        components_.push_back({std::fabs(truth), INFINITY});
    }

    /// The measures of difference_ = x - t (rounded once to 64 bits in MPFR); `truth` is t as a long double.
    void add_held_difference(mpfr_srcptr t, long double truth) {
        add_difference(t, truth, to_long_double(difference_.backend().data(), rounded_difference_.backend().data()),
                       true);
    }

    /// The measures of x - t (rounded once to 64 bits) for a finite x and t, given as long doubles: `truth`
    /// t, `error` x - t. difference_ holds x - t where `held` (its long double may be rounded again, beyond
    /// a long double's normal range); else `error` is exactly it.
    void add_difference(mpfr_srcptr t, long double truth, long double error, bool held) {
        mpfr_ptr d = difference_.backend().data();
        norms_.add(error, truth);
        const double abs_error = std::fabs(static_cast<double>(error));
        abs_error_.values.push_back(abs_error);
        ulp_error_.values.push_back(wide_ == nullptr ? abs_error / spacing_.at(t) : wide_ulp_error(t));
        if (mpfr_zero_p(t)) return;
        // (x - t) / t rounded to 64 bits and then to a double: from the long doubles where they
        // decide it, else divided in MPFR. `error` is d exactly where it is normal.
        const std::optional<double> quotient = quotient_to_double(error, truth);
        if (!quotient) {
            if (!held) mpfr_set_ld(d, error, MPFR_RNDN);  // exact: 64 bits
            mpfr_div(d, d, t, MPFR_RNDN);
        }
        const double rel = std::fabs(quotient ? *quotient : mpfr_get_d(d, MPFR_RNDN));
        rel_error_.values.push_back(rel);
        bits_correct_.values.push_back(bits_correct(rel, precision_));
        components_.push_back({std::fabs(truth), rel});
    }

    /// |x - t| in ulps of the wide format at t, scaled in MPFR (binary256's ulps are beyond a double's range).
    double wide_ulp_error(mpfr_srcptr t) {
        mpfr_ptr scaled = scaled_difference_.backend().data();
        mpfr_mul_2si(scaled, difference_.backend().data(), -wide_->ulp_exponent_at(t), MPFR_RNDN);
        return std::fabs(mpfr_get_d(scaled, MPFR_RNDN));
    }

    /// Underflow means the exact value is below the normal range; a zero from a normal-range truth
    /// (cancellation, a ReLU after rounding) is zeroed, not underflow. Overflow: the truth beyond
    /// the range and the result infinite, NaN or saturated at max.
    /// `t_below_min_normal`: |t| < min_normal (for a narrow format, t rounded to 64 bits compared).
    void classify(bool x_zero, bool x_below_min_normal, bool x_at_max, mpfr_srcptr t, bool t_below_min_normal) {
        if (mpfr_zero_p(t)) return;
        if (t_below_min_normal) {
            flushed_ += x_zero;
            subnormal_results_ += !x_zero && x_below_min_normal;
        } else {
            zeroed_ += x_zero;
        }
        overflow_count_ += overflow_.beyond_range(t) && x_at_max;
    }
    /// |t| < min_normal, as mpfr_cmp_d gives it (false for a NaN min_normal), with the bound held
    /// as an MPFR number once rather than converted for every value.
    bool below_min_normal(mpfr_srcptr t) const {
        return !std::isnan(min_normal_) && mpfr_cmpabs(t, min_normal_number_.backend().data()) < 0;
    }

    template <class Add>
    void write_normwise(Add add) const {
        if (compared_ == 0) return;
        add(metric::exact, norms_.exact ? 1.0 : 0.0);
        // ||t||^2 from the components, in order: every finite nonzero t has one (a zero adds nothing).
        long double truth_squares = 0;
        for (const Component& c : components_) truth_squares += c.truth_magnitude * c.truth_magnitude;
        if (truth_squares == 0) return;  // ||t|| = 0: a relative error is undefined
        const double normwise =
            norms_.unbounded ? INFINITY
                             : static_cast<double>(std::sqrt(norms_.error_squares()) / std::sqrt(truth_squares));
        add(metric::normwise_rel_error, normwise);
        add(metric::normwise_rel_error_inf,
            norms_.unbounded ? INFINITY : static_cast<double>(norms_.error_max / norms_.truth_max));
        add(metric::normwise_bits_correct, bits_correct(normwise, precision_));
    }

    /// Components whose |t_i| is at least u max|t| (u = 2^-p): below that floor a component is at
    /// the level of the rounding noise of the largest ones, and its relative error measures
    /// cancellation rather than the format.
    template <class Add>
    void write_componentwise(Add add) {
        if (compared_ == 0) return;
        long double largest = 0;
        for (const Component& c : components_)
            if (std::isfinite(c.truth_magnitude)) largest = std::max(largest, c.truth_magnitude);
        Statistics kept;
        const long double floor = std::ldexp(largest, -precision_);
        for (const Component& c : components_)
            if (c.truth_magnitude > 0 && c.truth_magnitude >= floor) kept.values.push_back(c.relative_error);
        add(metric::componentwise_excluded_count, static_cast<double>(compared_ - kept.values.size()));
        if (kept.values.empty()) return;
        add(metric::componentwise_rel_error_max, kept.max());
        add(metric::componentwise_rel_error_median, kept.median());
    }

    int precision_;
    double min_normal_ = 0, max_finite_ = 0;
    const WideLimits* wide_ = nullptr;  ///< a format wider than binary64
    OverflowRule overflow_;
    FormatSpacing spacing_;
    TruthNumber difference_ = scratch(difference_precision), rounded_truth_ = scratch(long_double_significand_bits),
                rounded_difference_ = scratch(long_double_significand_bits), min_normal_number_ = scratch(53),
                scaled_difference_ = scratch(difference_precision);
    std::uint64_t compared_ = 0, overflow_count_ = 0, flushed_ = 0, subnormal_results_ = 0, zeroed_ = 0;
    Norms norms_;
    std::vector<Component> components_;
    Statistics abs_error_, rel_error_, ulp_error_, bits_correct_;
};

}  // namespace

int measure_precision(const core::FormatSpec& format) {
    switch (format.kind) {
        case core::FormatKind::Binary: return format.mantissa_bits + 1;
        case core::FormatKind::ExponentScale: return 1;
        case core::FormatKind::Integer: return std::max(1, format.integer_bits - (format.has_sign ? 1 : 0));
        case core::FormatKind::Lookup:
            return std::max(1, static_cast<int>(std::ceil(std::log2(static_cast<double>(format.code_values.size())))));
        case core::FormatKind::Posit:
        case core::FormatKind::Takum:
        case core::FormatKind::HiFloat8: return core::format_properties(format).mantissa_bits + 1;  // at 1
    }
    return 1;
}

ReportRow with_metric(const ReportRow& base, const std::string& metric, double value) {
    ReportRow row = base;
    row.metric = metric;
    row.value = value;
    return row;
}

namespace {

/// The rows of what a region's matrix products rounded into their operand format (operand_range.hpp).
void add_operand_rows(std::vector<ReportRow>& rows, const ReportRow& base, const OperandRange& operands) {
    const core::FormatProperties format = core::format_properties(operands.format);
    rows.push_back(with_metric(base, metric::operand_format_max, format.max_finite));
    rows.push_back(with_metric(base, metric::operand_format_min_normal, format.min_normal));
    rows.push_back(with_metric(base, metric::operand_format_min_subnormal, format.min_subnormal));
    for (const auto& [exponent, count] : operands.log2_counts)
        rows.push_back(
            with_metric(base, metric::operand_log2_hist_prefix + std::to_string(exponent), static_cast<double>(count)));
}

}  // namespace

namespace {

/// What the rows say of a region's format: format_properties' limits, or for a format wider than
/// binary64 its own (the nearest doubles: binary256's max is +inf there, its min_normal 0).
core::FormatProperties region_format_properties(const core::FormatSpec& format, const WideLimits* wide) {
    if (wide == nullptr) return core::format_properties(format);
    core::FormatProperties p;
    p.max_finite = mpfr_get_d(wide->max_finite.backend().data(), MPFR_RNDN);
    p.min_normal = mpfr_get_d(wide->min_normal.backend().data(), MPFR_RNDN);
    TruthNumber smallest = scratch(2);
    mpfr_set_ui_2exp(smallest.backend().data(), 1,
                     wide->geometry.emin - (wide->flushes ? 0 : wide->geometry.precision - 1), MPFR_RNDN);
    p.min_subnormal = mpfr_get_d(smallest.backend().data(), MPFR_RNDN);
    p.has_subnormals = !wide->flushes;
    return p;
}

/// The measures of the values [begin, end) of a region.
struct RegionPart {
    std::size_t begin;
    ValueRange range;
    TruthComparison comparison;
};

/// Values a region needs before its parts are measured on several threads: fewer, and waking them costs
/// more than it saves.
constexpr std::size_t values_worth_threads = 1 << 12;

}  // namespace

std::vector<ReportRow> region_rows(const std::string& run_id, const std::string& workload, const std::string& policy,
                                   const TraceRegion& region, const TruthRegion* truth) {
    const bool wide = core::is_wider_than_binary64(region.format);
    if (wide && region.wide_values.size() != region.values.size())
        throw Error(
            fmt::format("workload '{}', region {} {} ('{}'): policy '{}' in '{}' recorded no exact values "
                        "(TraceRegion::set_wide_values)",
                        workload, region.kind, region.index, region.label, policy, region.format.name));
    if (truth != nullptr && truth->numbers().size() != region.values.size())
        throw Error(fmt::format(
            "workload '{}', region {} {} ('{}'): policy '{}' recorded {} values, the ground truth {}", workload,
            region.kind, region.index, region.label, policy, region.values.size(), truth->numbers().size()));
    std::vector<ReportRow> rows;
    const ReportRow base{run_id, workload, policy, region.kind, region.index, region.label, "", 0};
    if (!region.values.empty()) {
        const std::optional<WideLimits> wide_limits =
            wide ? std::optional<WideLimits>(std::in_place, region.format) : std::nullopt;
        const WideLimits* limits = wide_limits ? &*wide_limits : nullptr;
        const core::FormatProperties format = region_format_properties(region.format, limits);
        const bool has_subnormals =
            (region.format.kind == core::FormatKind::Binary || region.format.kind == core::FormatKind::HiFloat8) &&
            format.has_subnormals;
        const std::span<const TruthNumber> truth_values = truth ? truth->numbers() : std::span<const TruthNumber>();
        const auto measure_part = [&](std::size_t begin, std::size_t end) {
            auto part = std::make_unique<RegionPart>(RegionPart{
                begin, {}, limits ? TruthComparison(region.format, *limits) : TruthComparison(region.format, format)});
            // The first part takes the later ones in (append): room for them all.
            if (truth != nullptr) part->comparison.reserve(begin == 0 ? region.values.size() : end - begin);
            for (std::size_t i = begin; i < end; ++i) {
                const double x = region.values[i];
                part->range.add(x, has_subnormals ? format.min_normal : 0.0);
                if (truth == nullptr) continue;
                if (limits)
                    part->comparison.add(region.wide_values[i].backend().data(), truth_values[i].backend().data());
                else
                    part->comparison.add(x, truth_values[i].backend().data());
            }
            return part;
        };
        // A large region against its truth is measured in parts over the truth's threads (the MPFR
        // differences cost most), joined in order: the same rows on any count.
        const std::uint64_t n = region.values.size();
        std::vector<std::unique_ptr<RegionPart>> parts;
        if (truth != nullptr && n >= values_worth_threads) {
            std::mutex parts_mutex;
            truth_parallel_rows(n, [&] {
                return [&](std::size_t begin, std::size_t end) {
                    std::unique_ptr<RegionPart> part = measure_part(begin, end);
                    const std::lock_guard<std::mutex> lock(parts_mutex);
                    parts.push_back(std::move(part));
                };
            });
            std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a->begin < b->begin; });
        } else {
            parts.push_back(measure_part(0, n));
        }
        RegionPart& whole = *parts.front();
        for (std::size_t i = 1; i < parts.size(); ++i) {
            whole.range.append(parts[i]->range);
            whole.comparison.append(std::move(parts[i]->comparison));
        }
        const ValueRange& range = whole.range;
        rows.push_back(with_metric(base, metric::value_count, static_cast<double>(n)));
        if (truth != nullptr) whole.comparison.write(rows, base, n);
        add_count(rows, base, metric::subnormal_count, metric::subnormal_fraction, range.subnormal, n);
        add_count(rows, base, metric::nan_count, metric::nan_fraction, range.nan, n);
        add_count(rows, base, metric::inf_count, metric::inf_fraction, range.inf, n);
        add_counter_rows(rows, base, region.counters);
        if (range.max_abs > 0) {
            rows.push_back(with_metric(base, metric::min_abs, range.min_abs));
            rows.push_back(with_metric(base, metric::max_abs, range.max_abs));
        }
        rows.push_back(with_metric(base, metric::format_max, format.max_finite));
        rows.push_back(with_metric(base, metric::format_min_normal, format.min_normal));
        rows.push_back(with_metric(base, metric::format_min_subnormal, format.min_subnormal));
        for (int exponent = ValueRange::least_exponent; exponent <= ValueRange::greatest_exponent; ++exponent)
            if (const std::uint64_t count = range.histogram[static_cast<std::size_t>(exponent - ValueRange::least_exponent)])
                rows.push_back(
                    with_metric(base, metric::log2_hist_prefix + std::to_string(exponent), static_cast<double>(count)));
        if (region.operands && !region.operands->log2_counts.empty()) add_operand_rows(rows, base, *region.operands);
    } else {
        add_counter_rows(rows, base, region.counters);
    }
    for (const RegionMetric& m : region.metrics) rows.push_back(with_metric(base, m.name, m.value));
    return rows;
}

std::vector<ReportRow> unmeasured_region_rows(const std::string& run_id, const std::string& workload,
                                              const std::string& policy, const TraceRegion& region) {
    const ReportRow base{run_id, workload, policy, region.kind, region.index, region.label, "", 0};
    std::vector<ReportRow> rows;
    if (!region.values.empty())
        rows.push_back(with_metric(base, metric::value_count, static_cast<double>(region.values.size())));
    for (const RegionMetric& m : region.metrics) rows.push_back(with_metric(base, m.name, m.value));
    return rows;
}

}  // namespace floatscope::emu
