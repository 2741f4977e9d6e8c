// The quantization decision: bits per value against SQNR per scheme with its Pareto front, per-tensor error, model
// bytes.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"
#include "plots/report_selection.hpp"

namespace floatscope::plots {

namespace {

/// One region's metrics, gathered from its rows.
struct RegionMetrics {
    std::string kind;
    int index = 0;
    std::string label;
    std::map<std::string, double, std::less<>> values;
    std::optional<double> get(std::string_view name) const {
        const auto at = values.find(name);
        return at == values.end() ? std::nullopt : std::optional<double>(at->second);
    }
};

/// The regions of each (run, policy), in order of first appearance.
std::map<std::pair<std::string, std::string>, std::vector<RegionMetrics>> regions_by_run(const emu::Report& report) {
    std::map<std::pair<std::string, std::string>, std::vector<RegionMetrics>> out;
    std::map<std::tuple<std::string, std::string, std::string, int>, std::size_t> where;
    for (const emu::ReportRow& row : report.rows) {
        const auto key = std::make_tuple(row.run, row.policy, row.region_kind, row.region_index);
        std::vector<RegionMetrics>& list = out[{row.run, row.policy}];
        auto [at, inserted] = where.emplace(key, list.size());
        if (inserted) list.push_back({row.region_kind, row.region_index, row.region, {}});
        list[at->second].values[row.metric] = row.value;
    }
    return out;
}

/// Whether the report has more than one (run, policy) with `kind` regions carrying `metric_name`;
/// titles then say which one a plot is.
template <typename Regions>
bool several(const Regions& by_run, std::string_view metric_name) {
    int with = 0;
    for (const auto& [key, regions] : by_run)
        with += std::any_of(regions.begin(), regions.end(),
                            [&](const RegionMetrics& r) { return r.get(metric_name).has_value(); });
    return with > 1;
}

std::string suffix(bool named, const std::pair<std::string, std::string>& key) {
    return named ? " (run " + key.first + ", " + key.second + ")" : "";
}

}  // namespace

std::vector<PlotModel> quantization_tradeoff_plots(const emu::Report& report) {
    std::vector<PlotModel> plots;
    const auto by_run = regions_by_run(report);
    const bool named = several(by_run, metric::bits_per_value);
    for (const auto& [key, regions] : by_run) {
        // A scheme: a region (not a single tensor's) with both figures.
        struct Scheme {
            std::string name;
            double bits;
            double sqnr;
        };
        std::vector<Scheme> schemes;
        for (const RegionMetrics& r : regions) {
            const auto bits = r.get(metric::bits_per_value), sqnr = r.get(metric::sqnr_db);
            if (r.kind != "tensor" && bits && sqnr && std::isfinite(*bits) && std::isfinite(*sqnr))
                schemes.push_back({r.label, *bits, *sqnr});
        }
        if (schemes.empty()) continue;
        PlotModel plot;
        plot.id = make_plot_id("quantization_tradeoff" + suffix(named, key));
        plot.title = "Bits per value against SQNR, per scheme (up and left is better)" + suffix(named, key);
        plot.x_axis = {"bits per value (elements, scales, zero points)", AxisScale::Linear, 10, {}, {}};
        plot.y_axis = {"SQNR (dB)", AxisScale::Linear, 10, {}, {}};
        for (const Scheme& s : schemes) {
            Series point{s.name, {{s.bits, s.sqnr}}, SeriesStyle::Points};
            point.colour_key = "scheme " + s.name;  // a scheme keeps its colour from run to run
            plot.series.push_back(std::move(point));
        }
        // The Pareto front: schemes no other one beats with at most as many bits and more SQNR (or
        // fewer bits and as much), joined by increasing bits.
        std::vector<Scheme> front;
        for (const Scheme& s : schemes) {
            const bool dominated = std::any_of(schemes.begin(), schemes.end(), [&](const Scheme& o) {
                return o.bits <= s.bits && o.sqnr >= s.sqnr && (o.bits < s.bits || o.sqnr > s.sqnr);
            });
            if (!dominated) front.push_back(s);
        }
        std::sort(front.begin(), front.end(), [](const Scheme& a, const Scheme& b) { return a.bits < b.bits; });
        Series line{"Pareto front", {}, SeriesStyle::Line};
        line.pattern = LinePattern::Dashed;
        line.neutral = true;
        for (const Scheme& s : front) line.points.push_back({s.bits, s.sqnr});
        plot.series.push_back(std::move(line));
        plots.push_back(std::move(plot));
    }
    // The memory table as bars: the model's bytes per scheme (weights), on a categorical axis.
    const bool named_bytes = several(by_run, metric::model_bytes);
    for (const auto& [key, regions] : by_run) {
        PlotModel plot;
        plot.id = make_plot_id("model_bytes" + suffix(named_bytes, key));
        plot.title = "The model's size per scheme" + suffix(named_bytes, key);
        plot.y_axis = {"bytes", AxisScale::Linear, 10, {}, {}};  // 4 bits against 8 is a factor to see
        plot.x_axis = {"scheme", AxisScale::Linear, 10, {}, {}, true};
        Series bars{"model bytes", {}, SeriesStyle::GroupedBars};
        bars.colour_key = key.second;
        for (const RegionMetrics& r : regions) {
            const auto bytes = r.get(metric::model_bytes);
            if (!bytes) continue;
            const auto x = static_cast<double>(bars.points.size());
            bars.points.push_back({x, *bytes});
            plot.x_axis.ticks.push_back({x, r.label});
        }
        if (bars.points.empty()) continue;
        plot.series.push_back(std::move(bars));
        plots.push_back(std::move(plot));
    }
    return plots;
}

std::vector<HeatmapModel> quantization_heatmaps(const emu::Report& report) {
    std::vector<HeatmapModel> heatmaps;
    const auto by_run = regions_by_run(report);
    int with_tensors = 0;
    for (const auto& [key, regions] : by_run)
        with_tensors += std::any_of(regions.begin(), regions.end(), [](const RegionMetrics& r) {
            return r.kind == "tensor" && r.get(metric::relative_frobenius).has_value();
        });
    const bool named = with_tensors > 1;
    for (const auto& [key, regions] : by_run) {
        std::vector<std::string> tensors, schemes;
        std::map<std::pair<std::string, std::string>, double> error;
        for (const RegionMetrics& r : regions) {
            const auto names = r.kind == "tensor" ? tensor_and_scheme(r.label) : std::nullopt;
            const auto value = r.get(metric::relative_frobenius);
            if (!names || !value) continue;
            if (std::find(tensors.begin(), tensors.end(), names->first) == tensors.end())
                tensors.push_back(names->first);
            if (std::find(schemes.begin(), schemes.end(), names->second) == schemes.end())
                schemes.push_back(names->second);
            error[*names] = *value;
        }
        if (error.empty()) continue;
        HeatmapModel heatmap;
        heatmap.id = make_plot_id("tensor_error" + suffix(named, key));
        heatmap.title = "Relative error per tensor and scheme (darker is worse)" + suffix(named, key);
        heatmap.row_axis = "tensor";
        heatmap.column_axis = "scheme";
        heatmap.value_label = "||Q(W) - W||_F / ||W||_F";
        heatmap.rows = tensors;
        heatmap.columns = schemes;
        heatmap.colour_scale = AxisScale::Log;  // errors span decades: int8 against int4
        for (const std::string& t : tensors)
            for (const std::string& s : schemes) {
                const auto at = error.find({t, s});
                heatmap.values.push_back(at == error.end() ? std::nan("") : at->second);
            }
        heatmaps.push_back(std::move(heatmap));
    }
    return heatmaps;
}

}  // namespace floatscope::plots
