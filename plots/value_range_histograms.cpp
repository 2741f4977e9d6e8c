// Value-range histograms: floor(log2|x|) of a region's values with the format's range shaded.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "core/csv.hpp"

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

/// A bound of the format for a band's name: "2^-24" for a power of two, "65504" otherwise.
std::string bound_text(double value) {
    int exponent = 0;
    if (std::frexp(value, &exponent) == 0.5) return "2^" + std::to_string(exponent - 1);
    return core::csv_number(value);
}

/// The format's range in log2 space, shaded from edge to edge of the plot; the names give the
/// bounds, so that the range is known even where the plot shows only the values' part of it.
std::vector<Band> range_bands(const RegionHistogram& r) {
    constexpr double infinity = std::numeric_limits<double>::infinity();
    const double subnormal = std::log2(*r.min_subnormal);
    const double normal = std::log2(*r.min_normal);
    const double max = std::log2(*r.max);
    const std::string min_text = bound_text(*r.min_subnormal), normal_text = bound_text(*r.min_normal),
                      max_text = bound_text(*r.max);
    std::vector<Band> bands;
    bands.push_back({BandAxis::X, -infinity, subnormal, "underflow to zero (below " + min_text + ")", ColourRole::Bad});
    // A format that flushes subnormals (or has none) has min subnormal = min normal: no zone.
    if (subnormal < normal)
        bands.push_back({BandAxis::X, subnormal, normal, "subnormal (" + min_text + " to " + normal_text + ")",
                         ColourRole::Caution});
    bands.push_back(
        {BandAxis::X, normal, max, "normal range (" + normal_text + " to " + max_text + ")", ColourRole::Good});
    bands.push_back({BandAxis::X, max, infinity, "overflow (above " + max_text + ")", ColourRole::Bad});
    return bands;
}

/// The x range of a family's plots: the bins of all its members with `margin` bins each side, so
/// that the slider does not move the axis; a format bound within `near` bins of the values is
/// taken in, so that the edge the values come close to shows.
AxisRange focused_range(const std::vector<const RegionHistogram*>& members) {
    constexpr double margin = 2;
    constexpr double near = 8;
    double low = INFINITY, high = -INFINITY;
    for (const RegionHistogram* r : members)
        low = std::min(low, static_cast<double>(r->bins.begin()->first)),
        high = std::max(high, static_cast<double>(r->bins.rbegin()->first + 1));
    double from = low, to = high;
    for (const RegionHistogram* r : members) {
        if (!usable_range(*r)) continue;
        for (const double edge : {std::floor(std::log2(*r->min_subnormal)), std::floor(std::log2(*r->min_normal)),
                                  std::ceil(std::log2(*r->max))}) {
            if (edge < low && low - edge <= near) from = std::min(from, edge);
            if (edge > high && edge - high <= near) to = std::max(to, edge);
        }
    }
    return {from - margin, to + margin};
}

PlotModel histogram_plot(const emu::Report& report, const RegionHistogram& r, const std::string& family_id,
                         const AxisRange& range) {
    const std::string name = track_name(report, r.run, r.policy);
    PlotModel plot;
    plot.id = family_id + "_" + std::to_string(r.index);
    plot.title = "Values of " + r.region + " under " + name;
    plot.family = PlotFamily{family_id, "Value ranges under " + name + ", per " + r.kind, r.region};
    plot.x_axis.label = "floor(log2 |x|)";
    // Counts span decades; a log axis keeps the few values that fall off either end visible.
    plot.y_axis = {"number of values", AxisScale::Log, 10, {}, {}};
    Series series{name, {}, SeriesStyle::Bars, 1};
    series.colour_key = r.policy;
    for (const auto& [bin, count] : r.bins) series.points.push_back({static_cast<double>(bin), count});
    plot.series.push_back(std::move(series));
    if (usable_range(r)) plot.bands = range_bands(r);
    plot.x_axis.range = range;
    return plot;
}

}  // namespace

std::vector<PlotModel> value_range_histograms(const emu::Report& report) {
    const std::vector<RegionHistogram> regions = collect(report);
    using FamilyKey = std::tuple<std::string, std::string, std::string>;  // run, policy, region kind
    std::map<FamilyKey, std::vector<const RegionHistogram*>> families;
    for (const RegionHistogram& r : regions) families[{r.run, r.policy, r.kind}].push_back(&r);
    // File-name ids lose punctuation ("a b" and "a-b" are both a_b): a family whose id is taken
    // gets a number, so that two policies never share a list entry.
    std::map<FamilyKey, std::string> family_ids;
    std::set<std::string> taken;
    for (const RegionHistogram& r : regions) {
        const auto [at, added] = family_ids.try_emplace({r.run, r.policy, r.kind});
        if (!added) continue;
        const std::string stem = make_plot_id("value_range_" + track_name(report, r.run, r.policy) + "_" + r.kind);
        at->second = stem;
        for (int n = 2; !taken.insert(at->second).second; ++n) at->second = stem + "_" + std::to_string(n);
    }
    std::vector<PlotModel> plots;
    for (const RegionHistogram& r : regions) {
        const FamilyKey key{r.run, r.policy, r.kind};
        plots.push_back(histogram_plot(report, r, family_ids.at(key), focused_range(families.at(key))));
    }
    return plots;
}

}  // namespace floatscope::plots
