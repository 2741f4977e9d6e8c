// Value-range histograms: floor(log2|x|) of a region's values with their format's range shaded, and of
// the operands its matrix products rounded into another format, with that format's range.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

#include "core/csv.hpp"

#include "plots/report_metrics.hpp"
#include "plots/report_plots.hpp"
#include "plots/report_selection.hpp"

namespace floatscope::plots {
namespace {

/// Which values a histogram counts, and so whose format's range applies: what the region wrote
/// (its output format), or what its matrix products took as operands where they rounded them into
/// another format (a MatMul under an FP8 preset: e4m3 operands, fp32 outputs).
enum class Side { Outputs, Operands };

/// The report's rows of one side: its bins and its format's range.
struct SideMetrics {
    std::optional<int> (*bin)(std::string_view);
    const char* min_subnormal;
    const char* min_normal;
    const char* max;
};

SideMetrics metrics_of(Side side) {
    if (side == Side::Outputs)
        return {metric::log2_hist_bin, metric::format_min_subnormal, metric::format_min_normal, metric::format_max};
    return {metric::operand_log2_hist_bin, metric::operand_format_min_subnormal, metric::operand_format_min_normal,
            metric::operand_format_max};
}

/// What the report says about one side of one region of one policy's run.
struct RegionHistogram {
    std::string run;
    std::string policy;
    std::string kind;
    int index = 0;
    std::string region;
    Side side = Side::Outputs;
    std::map<int, double> bins;  ///< k -> count of values with floor(log2|x|) = k
    std::optional<double> min_subnormal;
    std::optional<double> min_normal;
    std::optional<double> max;
};

std::vector<RegionHistogram> collect(const emu::Report& report, Side side) {
    const SideMetrics names = metrics_of(side);
    std::vector<RegionHistogram> regions;
    std::map<std::tuple<std::string, std::string, std::string, int>, std::size_t> position;
    const auto region_of = [&](const emu::ReportRow& row) -> RegionHistogram& {
        const auto [at, added] =
            position.try_emplace({row.run, row.policy, row.region_kind, row.region_index}, regions.size());
        if (added)
            regions.push_back(
                {row.run, row.policy, row.region_kind, row.region_index, row.region, side, {}, {}, {}, {}});
        return regions[at->second];
    };
    for (const emu::ReportRow& row : report.rows) {
        if (row.region_kind == metric::whole_run_kind) continue;
        if (const std::optional<int> bin = names.bin(row.metric))
            region_of(row).bins.emplace(*bin, row.value);
        else if (row.metric == names.min_subnormal)
            region_of(row).min_subnormal = row.value;
        else if (row.metric == names.min_normal)
            region_of(row).min_normal = row.value;
        else if (row.metric == names.max)
            region_of(row).max = row.value;
    }
    std::erase_if(regions, [](const RegionHistogram& r) { return r.bins.empty(); });
    return regions;
}

/// "output format" or "operand format": the bands' and titles' word for whose range is shaded.
std::string format_role(Side side) { return side == Side::Outputs ? "output format" : "operand format"; }

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
    const std::string role = format_role(r.side) + ": ";
    std::vector<Band> bands;
    bands.push_back(
        {BandAxis::X, -infinity, subnormal, role + "underflow to zero (below " + min_text + ")", ColourRole::Bad});
    // A format that flushes subnormals (or has none) has min subnormal = min normal: no zone.
    if (subnormal < normal)
        bands.push_back({BandAxis::X, subnormal, normal, role + "subnormal (" + min_text + " to " + normal_text + ")",
                         ColourRole::Caution});
    bands.push_back(
        {BandAxis::X, normal, max, role + "normal range (" + normal_text + " to " + max_text + ")", ColourRole::Good});
    bands.push_back({BandAxis::X, max, infinity, role + "overflow (above " + max_text + ")", ColourRole::Bad});
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
    const bool outputs = r.side == Side::Outputs;
    PlotModel plot;
    plot.id = family_id + "_" + std::to_string(r.index);
    plot.title = (outputs ? "Outputs of " : "Matrix-product operands of ") + r.region + " under " + name +
                 " (bands: " + format_role(r.side) + ")";
    plot.family = PlotFamily{
        family_id, std::string(outputs ? "Output" : "Operand") + " value ranges under " + name + ", per " + r.kind,
        r.region};
    plot.x_axis.label = outputs ? "floor(log2 |x|)" : "floor(log2 |x / scale|)";
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
    // The output histograms, then the operand histograms of the regions that have them.
    std::vector<RegionHistogram> regions = collect(report, Side::Outputs);
    for (RegionHistogram& r : collect(report, Side::Operands)) regions.push_back(std::move(r));
    using FamilyKey = std::tuple<std::string, std::string, std::string, Side>;  // run, policy, region kind, side
    const auto key_of = [](const RegionHistogram& r) { return FamilyKey{r.run, r.policy, r.kind, r.side}; };
    std::map<FamilyKey, std::vector<const RegionHistogram*>> families;
    for (const RegionHistogram& r : regions) families[key_of(r)].push_back(&r);
    // File-name ids lose punctuation ("a b" and "a-b" are both a_b): a family whose id is taken
    // gets a number, so that two policies never share a list entry.
    std::map<FamilyKey, std::string> family_ids;
    std::set<std::string> taken;
    for (const RegionHistogram& r : regions) {
        const auto [at, added] = family_ids.try_emplace(key_of(r));
        if (!added) continue;
        const std::string stem = make_plot_id((r.side == Side::Outputs ? "value_range_" : "operand_range_") +
                                              track_name(report, r.run, r.policy) + "_" + r.kind);
        at->second = stem;
        for (int n = 2; !taken.insert(at->second).second; ++n) at->second = stem + "_" + std::to_string(n);
    }
    std::vector<PlotModel> plots;
    for (const RegionHistogram& r : regions)
        plots.push_back(histogram_plot(report, r, family_ids.at(key_of(r)), focused_range(families.at(key_of(r)))));
    return plots;
}

}  // namespace floatscope::plots
