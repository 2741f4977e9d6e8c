// Reading a Report for plotting: the values of one metric along the regions of one kind.
#include "plots/report_selection.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "plots/report_metrics.hpp"

namespace floatscope::plots {
namespace {

/// Whether a policy of this name has rows in more than one run: only then does its legend name
/// need the run. A GUI run whose policies differ in a parameter (loss scaling on and off) is
/// several runs of the engine, one per policy, whose names already tell them apart.
bool in_several_runs(const emu::Report& report, const std::string& policy) {
    const std::string* first_run = nullptr;
    for (const emu::ReportRow& row : report.rows) {
        if (row.policy != policy) continue;
        if (first_run == nullptr)
            first_run = &row.run;
        else if (row.run != *first_run)
            return true;
    }
    return false;
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

double RegionPositions::at(const std::string& run, int index) const {
    const auto found = by_region.find({run, index});
    return found != by_region.end() ? found->second : static_cast<double>(index);
}

bool ordered_region_kind(std::string_view region_kind) {
    for (const std::string_view kind : {"terms", "k", "step", "epoch", "layer", "iteration", "node"})
        if (region_kind == kind) return true;
    return false;
}

RegionPositions region_positions(const emu::Report& report, std::string_view region_kind,
                                 const std::vector<std::string_view>& metrics) {
    RegionPositions positions;
    positions.label = std::string(region_kind);
    if (!ordered_region_kind(region_kind)) {
        positions.categorical = true;
        std::vector<std::string> categories;
        for (const emu::ReportRow& row : report.rows) {
            if (row.region_kind != region_kind ||
                std::find(metrics.begin(), metrics.end(), row.metric) == metrics.end())
                continue;
            auto at = std::find(categories.begin(), categories.end(), row.region);
            if (at == categories.end()) at = categories.insert(at, row.region);
            positions.by_region.emplace(std::pair(row.run, row.region_index),
                                        static_cast<double>(at - categories.begin()));
        }
        return positions;
    }
    if (region_kind == "node") positions.label = "node (execution order)";
    const char* parameter = metric::position_metric(region_kind);
    if (parameter == nullptr) {
        if (region_kind == "epoch") {  // epochs are counted from 1, their regions from 0
            for (const emu::ReportRow& row : report.rows)
                if (row.region_kind == region_kind)
                    positions.by_region.emplace(std::pair(row.run, row.region_index), row.region_index + 1);
        }
        return positions;
    }
    std::map<std::pair<std::string, int>, double> found;
    std::set<std::pair<std::string, int>> listed;
    for (const emu::ReportRow& row : report.rows) {
        if (row.region_kind != region_kind) continue;
        listed.emplace(row.run, row.region_index);
        if (row.metric == parameter) found.emplace(std::pair(row.run, row.region_index), row.value);
    }
    // Every region must carry its parameter; a report without them keeps the index (and says so).
    if (found.size() != listed.size()) {
        positions.label = std::string(region_kind) + " (region index)";
        return positions;
    }
    positions.by_region = std::move(found);
    positions.label = std::string(parameter) + (region_kind == "terms" ? " (terms summed)" : "");
    double low = INFINITY, high = 0;
    for (const auto& [region, x] : positions.by_region) low = std::min(low, x), high = std::max(high, x);
    positions.logarithmic = low > 0 && high / low >= 100;
    return positions;
}

std::optional<std::pair<std::string, std::string>> tensor_and_scheme(const std::string& label) {
    const std::size_t open = label.rfind(" [");
    if (open == std::string::npos || label.empty() || label.back() != ']') return std::nullopt;
    return std::make_pair(label.substr(0, open), label.substr(open + 2, label.size() - open - 3));
}

std::string track_name(const emu::Report& report, const std::string& run, const std::string& policy) {
    return in_several_runs(report, policy) ? policy + " (run " + run + ")" : policy;
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
