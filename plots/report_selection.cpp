// Reading a Report for plotting: the values of one metric along the regions of one kind.
#include "plots/report_selection.hpp"

#include <algorithm>
#include <cmath>

#include "plots/report_metrics.hpp"

namespace floatscope::plots {
namespace {

bool several_runs(const emu::Report& report) {
    return std::any_of(report.rows.begin(), report.rows.end(),
                       [&](const emu::ReportRow& row) { return row.run != report.rows.front().run; });
}

}  // namespace

std::vector<std::string> region_kinds_with(const emu::Report& report, std::string_view metric) {
    std::vector<std::string> kinds;
    for (const emu::ReportRow& row : report.rows)
        if (row.metric == metric && row.region_kind != metric::whole_run_kind &&
            std::find(kinds.begin(), kinds.end(), row.region_kind) == kinds.end())
            kinds.push_back(row.region_kind);
    return kinds;
}

double RegionPositions::at(int index) const {
    const auto found = by_index.find(index);
    return found != by_index.end() ? found->second : static_cast<double>(index);
}

RegionPositions region_positions(const emu::Report& report, std::string_view region_kind) {
    RegionPositions positions;
    positions.label = std::string(region_kind);
    const char* parameter = metric::position_metric(region_kind);
    if (parameter == nullptr) {
        if (region_kind == "epoch") {  // epochs are counted from 1, their regions from 0
            for (const emu::ReportRow& row : report.rows)
                if (row.region_kind == region_kind) positions.by_index.emplace(row.region_index, row.region_index + 1);
        }
        return positions;
    }
    std::map<int, double> found;
    std::map<int, bool> listed;
    for (const emu::ReportRow& row : report.rows) {
        if (row.region_kind != region_kind) continue;
        listed[row.region_index] = true;
        if (row.metric == parameter) found.emplace(row.region_index, row.value);
    }
    // Every region must carry its parameter; a report without them keeps the index (and says so).
    if (found.size() != listed.size()) {
        positions.label = std::string(region_kind) + " (region index)";
        return positions;
    }
    positions.by_index = std::move(found);
    positions.label = std::string(parameter) + (region_kind == "terms" ? " (terms summed)" : "");
    double low = INFINITY, high = 0;
    for (const auto& [index, x] : positions.by_index) low = std::min(low, x), high = std::max(high, x);
    positions.logarithmic = low > 0 && high / low >= 100;
    return positions;
}

std::string track_name(const emu::Report& report, const std::string& run, const std::string& policy) {
    return several_runs(report) ? policy + " (run " + run + ")" : policy;
}

std::vector<MetricTrack> metric_tracks(const emu::Report& report, std::string_view region_kind,
                                       std::string_view metric) {
    std::vector<MetricTrack> tracks;
    for (const emu::ReportRow& row : report.rows) {
        if (row.metric != metric || row.region_kind != region_kind) continue;
        auto track = std::find_if(tracks.begin(), tracks.end(),
                                  [&](const MetricTrack& t) { return t.run == row.run && t.policy == row.policy; });
        if (track == tracks.end()) {
            tracks.push_back({row.run, row.policy, track_name(report, row.run, row.policy), {}});
            track = tracks.end() - 1;
        }
        track->values.push_back({row.region_index, row.region, row.value});
    }
    for (MetricTrack& track : tracks) {
        // Stable, so that of a region listed twice the first value stays in front and is kept.
        std::stable_sort(track.values.begin(), track.values.end(),
                         [](const RegionValue& a, const RegionValue& b) { return a.index < b.index; });
        const auto duplicates =
            std::unique(track.values.begin(), track.values.end(),
                        [](const RegionValue& a, const RegionValue& b) { return a.index == b.index; });
        track.values.erase(duplicates, track.values.end());
    }
    return tracks;
}

}  // namespace floatscope::plots
