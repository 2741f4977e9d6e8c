// Error growth across regions: normwise error and its bounds, componentwise error, bits correct or
// bits of error, one series per policy.
#include <algorithm>

#include "core/csv.hpp"
#include "emulation/simulation/report_findings.hpp"
#include "plots/metric_plot.hpp"
#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"
#include "plots/report_selection.hpp"

namespace floatscope::plots {

namespace {

/// FPCore runs count the sampled points whose loops never ended (budget_exceeded_count, of the
/// same region's samples): the plots of their errors say how many, per policy, and what became of
/// them.
std::string never_ended_note(const emu::Report& report, const char* what_became_of_them) {
    std::vector<std::pair<std::string, std::string>> counts;  // (policy legend name, "149 of 256")
    for (const emu::ReportRow& row : report.rows) {
        if (row.metric != metric::budget_exceeded_count || row.value <= 0) continue;
        double samples = 0;
        for (const emu::ReportRow& other : report.rows)
            if (other.metric == metric::samples && other.run == row.run && other.policy == row.policy &&
                other.region_kind == row.region_kind && other.region_index == row.region_index)
                samples = other.value;
        counts.emplace_back(track_name(report, row.run, row.policy),
                            core::csv_number(row.value) + " of " + core::csv_number(samples));
    }
    if (counts.empty()) return {};
    // On a line of its own: Qt elides a title wider than the chart.
    std::string note = "\n(points that never ended, " + std::string(what_became_of_them) + ":";
    for (std::size_t i = 0; i < counts.size(); ++i)
        note += (i == 0 ? " " : ", ") + counts[i].first + " " + counts[i].second;
    return note + ")";
}

void add_note(std::vector<PlotModel>& plots, const std::string& note) {
    for (PlotModel& plot : plots) plot.title += note;
}

/// Bars of height 0 do not show: a plot whose every value is 0 says so, and what it means.
void note_all_zero(std::vector<PlotModel>& plots, const std::string& meaning) {
    for (PlotModel& plot : plots) {
        bool any = false, all_zero = true;
        for (const Series& series : plot.series)
            for (const PlotPoint& point : series.points) any = true, all_zero = all_zero && point.y == 0;
        if (any && all_zero) plot.title += "\n(every value is 0: " + meaning + ")";
    }
}

bool has_rows_in(const emu::Report& report, std::string_view metric, const std::string& kind) {
    const std::vector<std::string> kinds = region_kinds_with(report, metric);
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

/// "\n(ABOVE its deterministic bound: fp16 at n = 4096, 0.031 > 0.0024; ...)": a bound drawn beside
/// an error it does not bound is said on the plot (the first three, and how many more).
std::string bound_excess_note(const emu::Report& report, const std::string& kind) {
    std::string listed;
    int count = 0;
    for (const emu::BoundExcess& excess : emu::deterministic_bound_excesses(report)) {
        const emu::ReportRow& row = *excess.error;
        if (row.region_kind != kind) continue;
        if (++count > 3) continue;
        if (count > 1) listed += "; ";
        listed += track_name(report, row.run, row.policy) + " at " + row.region + ", " + core::csv_number(row.value) +
                  " > " + core::csv_number(excess.bound);
    }
    if (count == 0) return {};
    return "\n(ABOVE its deterministic bound: " + listed +
           (count > 3 ? "; and " + std::to_string(count - 3) + " more" : "") + ")";
}

}  // namespace

std::vector<PlotModel> error_growth_plots(const emu::Report& report, ErrorMeasure measure) {
    if (measure == ErrorMeasure::NormwiseRelError) {
        const std::vector<std::string_view> bounds = {metric::error_bound_deterministic,
                                                      metric::error_bound_probabilistic,
                                                      metric::error_bound_limiting_accuracy};
        std::vector<std::string_view> metrics = {metric::normwise_rel_error};
        metrics.insert(metrics.end(), bounds.begin(), bounds.end());
        std::vector<PlotModel> plots;
        for (const std::string& kind : region_kinds_with(report, metric::normwise_rel_error)) {
            // The title promises bounds only where the workload reports some for these regions (an
            // ONNX graph's nodes have none), and calls refinement's limiting accuracy the estimate it is.
            const bool bounded = has_rows_in(report, metric::error_bound_deterministic, kind) ||
                                 has_rows_in(report, metric::error_bound_probabilistic, kind);
            const bool estimated = has_rows_in(report, metric::error_bound_limiting_accuracy, kind);
            const std::string title = std::string("Normwise relative error ||x - t|| / ||t|| per %1") +
                                      (bounded     ? ", with its bounds"
                                       : estimated ? ", with its limiting accuracy (an estimate)"
                                                   : "");
            const MetricPlotSpec spec{"error_growth_normwise_rel_error",
                                      title,
                                      {"normwise relative error vs ground truth", AxisScale::Log, 10, {}, {}}};
            if (std::optional<PlotModel> plot = metric_plot(report, kind, metrics, spec)) {
                plot->title += bound_excess_note(report, kind);
                plots.push_back(std::move(*plot));
            }
        }
        return plots;
    }
    if (measure == ErrorMeasure::ComponentwiseRelErrorMax) {
        const MetricPlotSpec spec{"error_growth_componentwise_rel_error_max",
                                  "Max componentwise relative error (|t_i| >= 2^-p max |t|) per %1",
                                  {"max componentwise relative error", AxisScale::Log, 10, {}, {}}};
        return metric_plots(report, {metric::componentwise_rel_error_max}, spec);
    }
    if (measure == ErrorMeasure::RelativeErrorMax) {
        const MetricPlotSpec spec{"error_growth_rel_error_max",
                                  "Max relative error per %1",
                                  {"max relative error vs ground truth", AxisScale::Log, 10, {}, {}}};
        std::vector<PlotModel> plots = metric_plots(report, {metric::rel_error_max}, spec);
        add_note(plots, never_ended_note(report, "left out"));
        return plots;
    }
    if (measure == ErrorMeasure::BitsOfError) {
        const MetricPlotSpec spec{"error_growth_bits_error",
                                  "Bits of error (log2 ULPs, worst and mean point) per %1",
                                  {"bits of error", AxisScale::Linear, 10, {}, {}}};
        std::vector<PlotModel> plots = metric_plots(report, {metric::bits_error_max, metric::bits_error_avg}, spec);
        add_note(plots, never_ended_note(report, "left out"));
        note_all_zero(plots, "no point lost a bit");
        return plots;
    }
    const MetricPlotSpec spec{"error_growth_bits_correct_min",
                              "Bits correct (worst value) per %1",
                              {"bits correct (min)", AxisScale::Linear, 10, {}, {}}};
    return metric_plots(report, {metric::bits_correct_min}, spec);
}

}  // namespace floatscope::plots
