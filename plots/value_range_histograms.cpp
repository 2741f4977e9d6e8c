// Value-range histograms: floor(log2|x|) of a region's values with the format's range shaded.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"
#include "plots/report_selection.hpp"

namespace floatscope::plots {
namespace {

/// What the report says about one region of one policy's run.
struct RegionHistogram {
    std::string run;
    std::string policy;
    std::string kind;
    int index = 0;
    std::string region;
    std::map<int, double> bins;  ///< k -> count of values with floor(log2|x|) = k
    std::optional<double> min_subnormal;
    std::optional<double> min_normal;
    std::optional<double> max;
};

std::vector<RegionHistogram> collect(const emu::Report& report) {
    std::vector<RegionHistogram> regions;
    std::map<std::tuple<std::string, std::string, std::string, int>, std::size_t> position;
    const auto region_of = [&](const emu::ReportRow& row) -> RegionHistogram& {
        const auto [at, added] =
            position.try_emplace({row.run, row.policy, row.region_kind, row.region_index}, regions.size());
        if (added)
            regions.push_back({row.run, row.policy, row.region_kind, row.region_index, row.region, {}, {}, {}, {}});
        return regions[at->second];
    };
    for (const emu::ReportRow& row : report.rows) {
        if (row.region_kind == metric::whole_run_kind) continue;
        if (const std::optional<int> bin = metric::log2_hist_bin(row.metric))
            region_of(row).bins.emplace(*bin, row.value);
        else if (row.metric == metric::format_min_subnormal)
            region_of(row).min_subnormal = row.value;
        else if (row.metric == metric::format_min_normal)
            region_of(row).min_normal = row.value;
        else if (row.metric == metric::format_max)
            region_of(row).max = row.value;
    }
    std::erase_if(regions, [](const RegionHistogram& r) { return r.bins.empty(); });
    return regions;
}

bool usable_range(const RegionHistogram& r) {
    const auto positive = [](const std::optional<double>& v) { return v && std::isfinite(*v) && *v > 0; };
    return positive(r.min_subnormal) && positive(r.min_normal) && positive(r.max) &&
           *r.min_subnormal <= *r.min_normal && *r.min_normal <= *r.max;
}

/// The format's range in log2 space, shaded from edge to edge of the plot.
std::vector<Band> range_bands(const RegionHistogram& r) {
    constexpr double infinity = std::numeric_limits<double>::infinity();
    const double subnormal = std::log2(*r.min_subnormal);
    const double normal = std::log2(*r.min_normal);
    const double max = std::log2(*r.max);
    std::vector<Band> bands;
    bands.push_back({BandAxis::X, -infinity, subnormal, "underflow to zero (below min subnormal)", ColourRole::Bad});
    // A format that flushes subnormals (or has none) has min subnormal = min normal: no zone.
    if (subnormal < normal) bands.push_back({BandAxis::X, subnormal, normal, "subnormal", ColourRole::Caution});
    bands.push_back({BandAxis::X, normal, max, "normal range", ColourRole::Good});
    bands.push_back({BandAxis::X, max, infinity, "overflow (above max)", ColourRole::Bad});
    return bands;
}

PlotModel histogram_plot(const emu::Report& report, const RegionHistogram& r) {
    const std::string name = track_name(report, r.run, r.policy);
    PlotModel plot;
    plot.id = make_plot_id("value_range_" + name + "_" + r.kind + "_" + std::to_string(r.index));
    plot.title = "Values of " + r.region + " under " + name;
    plot.x_axis.label = "floor(log2 |x|)";
    // Counts span decades; a log axis keeps the few values that fall off either end visible.
    plot.y_axis = {"number of values", AxisScale::Log, 10, {}, {}};
    Series series{name, {}, SeriesStyle::Bars, 1};
    for (const auto& [bin, count] : r.bins) series.points.push_back({static_cast<double>(bin), count});
    plot.series.push_back(std::move(series));

    double low = r.bins.begin()->first;
    double high = r.bins.rbegin()->first + 1;
    if (usable_range(r)) {
        plot.bands = range_bands(r);
        low = std::min(low, std::floor(std::log2(*r.min_subnormal)));
        high = std::max(high, std::ceil(std::log2(*r.max)));
    }
    // Two bins of margin, so that the outer bands show even when no value reaches them.
    plot.x_axis.range = AxisRange{low - 2, high + 2};
    return plot;
}

}  // namespace

std::vector<PlotModel> value_range_histograms(const emu::Report& report) {
    std::vector<PlotModel> plots;
    for (const RegionHistogram& region : collect(report)) plots.push_back(histogram_plot(report, region));
    return plots;
}

}  // namespace floatscope::plots
