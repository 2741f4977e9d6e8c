// The advisor's report read back, and its front and sensitivity figures.
#include "plots/tune_plots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/error.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"

namespace floatscope::plots {

namespace {

namespace metric = emu::metric;

/// Logarithmic where every value is positive and they span a decade or more (errors from 1e-7 to
/// 0.1; costs of a few settings within a factor of four read better on a linear axis).
AxisScale scale_for(const std::vector<double>& values) {
    if (values.empty()) return AxisScale::Linear;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    return *lo > 0 && std::isfinite(*hi) && *hi / *lo >= 10 ? AxisScale::Log : AxisScale::Linear;
}

std::string measure_label(const TuneOutcome& outcome) {
    return outcome.target.empty() ? std::string("the target's measure") : "target: " + outcome.target;
}

std::string cost_label(const TuneOutcome& outcome) {
    return outcome.cost_unit.empty() ? std::string("cost") : "cost (" + outcome.cost_unit + ")";
}

/// Whether the target is an upper bound on the measure (an error) rather than a lower one (bits
/// correct, accuracy): a configuration that meets it with a measure above the threshold, or misses
/// it below, says the latter.
bool at_most(const TuneOutcome& outcome) {
    for (const TunedConfiguration& c : outcome.configurations) {
        if (c.meets && c.measure > c.threshold) return false;
        if (!c.meets && std::isfinite(c.measure) && c.measure < c.threshold) return false;
    }
    return true;
}

}  // namespace

const TunedConfiguration* TuneOutcome::recommended() const {
    const auto it = std::find_if(configurations.begin(), configurations.end(),
                                 [](const TunedConfiguration& c) { return c.recommended; });
    return it == configurations.end() ? nullptr : &*it;
}

const TunedConfiguration* TuneOutcome::reference() const {
    const auto it = std::find_if(configurations.begin(), configurations.end(),
                                 [](const TunedConfiguration& c) { return c.phase == "reference"; });
    return it == configurations.end() ? nullptr : &*it;
}

std::vector<std::string> TuneOutcome::units() const {
    std::vector<std::string> names;
    for (const SensitivityEntry& s : sensitivity)
        if (names.empty() || names.back() != s.unit) names.push_back(s.unit);
    return names;
}

TuneOutcome read_tune_outcome(const emu::Report& report) {
    TuneOutcome outcome;
    std::map<int, TunedConfiguration> configurations;
    for (const emu::ReportRow& row : report.rows) {
        if (row.region_kind == metric::candidate_kind) {
            TunedConfiguration& c = configurations[row.region_index];
            c.name = row.policy;
            c.phase = row.region;
            if (row.metric == metric::tune_cost) c.cost = row.value;
            if (row.metric == metric::tune_error) c.measure = row.value;
            if (row.metric == metric::tune_threshold) c.threshold = row.value;
            if (row.metric == metric::tune_meets_target) c.meets = row.value != 0;
            if (row.metric == metric::tune_on_front) c.on_front = row.value != 0;
            if (row.metric == metric::tune_recommended) c.recommended = row.value != 0;
            if (row.metric == metric::tune_validation_error) c.held_out = row.value;
            if (row.metric == metric::tune_validation_meets_target) c.held_out_meets = row.value != 0;
        } else if (row.region_kind == metric::sensitivity_kind) {
            // Region "layer 3: bf16": the unit, then the setting; rows in the order they were tried.
            const std::size_t colon = row.region.rfind(": ");
            const std::string unit = row.region.substr(0, colon);
            const std::string setting = colon == std::string::npos ? std::string() : row.region.substr(colon + 2);
            auto it = std::find_if(
                outcome.sensitivity.begin(), outcome.sensitivity.end(),
                [&](const SensitivityEntry& s) { return s.dimension == row.region_index && s.setting == setting; });
            if (it == outcome.sensitivity.end())
                it = outcome.sensitivity.insert(outcome.sensitivity.end(), {row.region_index, unit, setting});
            SensitivityEntry& s = *it;
            if (row.metric == metric::tune_error) s.measure = row.value;
            if (row.metric == metric::tune_meets_target) s.meets = row.value != 0;
        }
    }
    if (configurations.empty())
        throw Error(
            "not a tune report: it has no rows of region kind 'candidate' (floatscope-cli tune --csv or "
            "--json writes them)");
    if (!report.runs.empty()) {
        outcome.workload = report.runs.front().workload;
        outcome.parameters = report.runs.front().parameters;
        for (auto& [index, c] : configurations)
            for (const auto& [name, text] : report.runs.front().policies)
                if (name == c.name) c.policy = text;
    }
    for (auto& [index, c] : configurations) outcome.configurations.push_back(std::move(c));
    outcome.threshold = outcome.configurations.front().threshold;
    return outcome;
}

PlotModel tune_front_plot(const TuneOutcome& outcome) {
    PlotModel plot;
    plot.id = "tune_front";
    plot.title = "Every configuration run";
    Series meets{meets_series, {}, SeriesStyle::Points};
    meets.colour_key = meets_series;
    Series misses{misses_series, {}, SeriesStyle::Points};
    misses.colour_key = misses_series;
    misses.marker = PointMarker::Square;
    Series recommended{recommended_series, {}, SeriesStyle::Points};
    recommended.neutral = true;  // dark over the palette's colours: it stands out from both kinds
    recommended.marker = PointMarker::Star;
    std::vector<double> costs, measures;
    for (const TunedConfiguration& c : outcome.configurations) {
        (c.meets ? meets : misses).points.push_back({c.cost, c.measure});
        if (c.recommended) recommended.points.push_back({c.cost, c.measure});
        costs.push_back(c.cost);
        if (std::isfinite(c.measure)) measures.push_back(c.measure);
    }
    measures.push_back(outcome.threshold);
    plot.x_axis.label = cost_label(outcome);
    plot.x_axis.scale = scale_for(costs);
    plot.y_axis.label = measure_label(outcome);
    plot.y_axis.scale = scale_for(measures);
    // The threshold across the costs run, a little beyond them so that it reaches the outer points.
    const auto [lo, hi] = std::minmax_element(costs.begin(), costs.end());
    const double left = plot.x_axis.scale == AxisScale::Log ? *lo / 1.1 : *lo - 0.05 * (*hi - *lo);
    const double right = plot.x_axis.scale == AxisScale::Log ? *hi * 1.1 : *hi + 0.05 * (*hi - *lo);
    Series threshold{"target", {{left, outcome.threshold}, {right, outcome.threshold}}, SeriesStyle::Line};
    threshold.neutral = true;
    threshold.pattern = LinePattern::Dashed;
    plot.series = {meets, misses, recommended, threshold};
    return plot;
}

PlotModel tune_sensitivity_plot(const TuneOutcome& outcome) {
    PlotModel plot;
    plot.id = "tune_sensitivity";
    plot.title = "Sensitivity per unit";
    const std::vector<std::string> units = outcome.units();
    plot.x_axis.label = "unit";
    plot.x_axis.categorical = true;
    for (std::size_t u = 0; u < units.size(); ++u) plot.x_axis.ticks.push_back({static_cast<double>(u), units[u]});
    std::vector<double> measures{outcome.threshold};
    for (const SensitivityEntry& s : outcome.sensitivity) {
        const auto unit = std::find(units.begin(), units.end(), s.unit) - units.begin();
        auto series = std::find_if(plot.series.begin(), plot.series.end(),
                                   [&](const Series& existing) { return existing.name == s.setting; });
        if (series == plot.series.end()) {
            plot.series.push_back({s.setting, {}, SeriesStyle::GroupedBars});
            plot.series.back().colour_key = s.setting;
            series = plot.series.end() - 1;
        }
        series->points.push_back({static_cast<double>(unit), s.measure});
        if (std::isfinite(s.measure)) measures.push_back(s.measure);
    }
    plot.y_axis.label = measure_label(outcome);
    plot.y_axis.scale = scale_for(measures);
    const double inf = std::numeric_limits<double>::infinity();
    plot.bands.push_back(at_most(outcome) ? Band{BandAxis::Y, outcome.threshold, inf, "misses", ColourRole::Bad}
                                          : Band{BandAxis::Y, -inf, outcome.threshold, "misses", ColourRole::Bad});
    return plot;
}

}  // namespace floatscope::plots
