// PlotModel: what an x/y plot shows (axes, series, shaded bands) as plain data.
#include "plots/plot_model.hpp"

#include "core/csv.hpp"

namespace floatscope::plots {
namespace {

std::string tick_label_at(const Axis& axis, double x) {
    for (const AxisTick& tick : axis.ticks)
        if (tick.value == x) return tick.label;
    return {};
}

}  // namespace

std::string points_csv(const PlotModel& plot) {
    std::string csv = "series,x,y,x_label\n";  // line ends as the CLI writes them (LF)
    for (const Series& series : plot.series)
        for (const PlotPoint& point : series.points)
            csv += core::csv_field(series.name) + ',' + core::csv_number(point.x) + ',' + core::csv_number(point.y) +
                   ',' + core::csv_field(tick_label_at(plot.x_axis, point.x)) + "\n";
    return csv;
}

std::string bands_csv(const PlotModel& plot) {
    std::string csv = "band,axis,from,to,role\n";
    for (const Band& band : plot.bands)
        csv += core::csv_field(band.label) + ',' + (band.axis == BandAxis::X ? "x" : "y") + ',' +
               core::csv_number(band.from) + ',' + core::csv_number(band.to) + ',' + colour_role_name(band.role) + "\n";
    return csv;
}

const char* colour_role_name(ColourRole role) {
    switch (role) {
        case ColourRole::Good: return "good";
        case ColourRole::Caution: return "caution";
        case ColourRole::Bad: return "bad";
    }
    return "good";
}

std::string make_plot_id(std::string_view text) {
    std::string id;
    for (const char c : text) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        const bool upper = c >= 'A' && c <= 'Z';
        if (keep || upper)
            id += upper ? static_cast<char>(c - 'A' + 'a') : c;
        else if (!id.empty() && id.back() != '_')
            id += '_';
    }
    while (!id.empty() && id.back() == '_') id.pop_back();
    return id.empty() ? "plot" : id;
}

}  // namespace floatscope::plots
