// What a report's summary and plots must say beside its numbers.
#include "emulation/simulation/report_findings.hpp"

#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "emulation/simulation/metric_vocabulary.hpp"

namespace floatscope::emu {

namespace {

using RegionKey = std::tuple<std::string, std::string, std::string, int>;  // run, policy, kind, index

RegionKey region_of(const ReportRow& row) { return {row.run, row.policy, row.region_kind, row.region_index}; }

/// The value of `metric` per region.
std::map<RegionKey, double> values_of(const Report& report, std::string_view metric) {
    std::map<RegionKey, double> values;
    for (const ReportRow& row : report.rows)
        if (row.metric == metric) values.emplace(region_of(row), row.value);
    return values;
}

std::optional<double> find(const std::map<RegionKey, double>& values, const ReportRow& row) {
    const auto at = values.find(region_of(row));
    return at == values.end() ? std::nullopt : std::optional<double>(at->second);
}

}  // namespace

std::vector<BoundExcess> deterministic_bound_excesses(const Report& report) {
    const std::map<RegionKey, double> bounds = values_of(report, metric::error_bound_deterministic);
    std::vector<BoundExcess> excesses;
    for (const ReportRow& row : report.rows) {
        if (row.metric != metric::normwise_rel_error || !std::isfinite(row.value)) continue;
        if (const std::optional<double> bound = find(bounds, row); bound && row.value > *bound)
            excesses.push_back({&row, *bound});
    }
    return excesses;
}

std::vector<RefinementEnding> refinement_endings(const Report& report) {
    const std::map<RegionKey, double> errors = values_of(report, metric::forward_error);
    const std::map<RegionKey, double> limits = values_of(report, metric::error_bound_limiting_accuracy);
    std::vector<RefinementEnding> endings;
    for (const ReportRow& row : report.rows)
        if (row.metric == metric::stop_reason) endings.push_back({&row, find(errors, row), find(limits, row)});
    return endings;
}

std::string describe(const RefinementEnding& ending) {
    const char* why = metric::refinement_stop_text(ending.stop->value);
    std::string text = fmt::format("at {} ({})", ending.stop->region, why ? why : "an unknown stop_reason");
    if (!ending.forward_error) return text;
    text += fmt::format(": forward error {:.2g}", *ending.forward_error);
    if (!ending.limiting_accuracy || !std::isfinite(*ending.forward_error)) return text;
    const double ratio = *ending.forward_error / *ending.limiting_accuracy;
    return text + (ratio <= 1
                       ? fmt::format(", within its limiting accuracy {:.2g} (an estimate)", *ending.limiting_accuracy)
                       : fmt::format(", {:.2g}x its limiting accuracy {:.2g} (an estimate)", ratio,
                                     *ending.limiting_accuracy));
}

}  // namespace floatscope::emu
