// Reducing a report to a row per policy, for the Compare table.
#include "app/gui/simulator/policy_summary.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "emulation/simulation/engine.hpp"
#include "plots/report_metrics.hpp"
#include "plots/report_selection.hpp"

namespace floatscope::gui {

namespace {

constexpr const char* ground_truth_policy = "ground-truth";

/// The value of `metric` in the last region of the first kind that has it, for one policy.
std::optional<double> final_value(const emu::Report& report, const PolicySummary& s, std::string_view metric) {
    for (const std::string& kind : plots::region_kinds_with(report, metric))
        for (const plots::MetricTrack& track : plots::metric_tracks(report, kind, metric))
            if (track.run == s.run && track.policy == s.policy && !track.values.empty())
                return track.values.back().value;
    return std::nullopt;
}

}  // namespace

std::vector<PolicySummary> summarize_policies(const emu::Report& report) {
    std::vector<PolicySummary> summaries;
    auto find = [&](const emu::ReportRow& row) {
        return std::find_if(summaries.begin(), summaries.end(),
                            [&](const PolicySummary& s) { return s.run == row.run && s.policy == row.policy; });
    };
    for (const emu::ReportRow& row : report.rows) {
        if (row.policy == ground_truth_policy) continue;
        auto s = find(row);
        if (s == summaries.end()) {
            summaries.push_back(
                {row.run, row.policy, plots::track_name(report, row.run, row.policy), {}, {}, 0, 0, 0, {}, {}, {}});
            s = summaries.end() - 1;
        }
        if (row.region_kind == plots::metric::whole_run_kind) continue;
        if (row.metric == plots::metric::overflow_count)
            s->overflow += row.value;
        else if (row.metric == plots::metric::underflow_count || row.metric == plots::metric::underflow_to_zero_count)
            s->underflow += row.value;  // a report holds one or the other
        else if (row.metric == plots::metric::nan_count)
            s->nan += row.value;
    }
    for (PolicySummary& s : summaries) {
        s.final_error = final_value(report, s, plots::metric::normwise_rel_error);
        s.final_bits_correct = final_value(report, s, plots::metric::normwise_bits_correct);
        if (!s.final_error) {  // a report from before the normwise measures
            s.final_error = final_value(report, s, plots::metric::rel_error_max);
            s.final_bits_correct = final_value(report, s, plots::metric::bits_correct_min);
        }
        s.test_accuracy = final_value(report, s, plots::metric::test_accuracy);
        s.train_loss = final_value(report, s, plots::metric::train_loss);
        s.work = emu::read_work(report, s.run, s.policy);
    }
    return summaries;
}

std::vector<SchemeSummary> summarize_schemes(const emu::Report& report) {
    // The regions with bits_per_value, then every figure of theirs.
    std::vector<SchemeSummary> schemes;
    std::map<std::tuple<std::string, std::string, std::string, int>, std::size_t> at;
    for (const emu::ReportRow& row : report.rows)
        if (row.metric == plots::metric::bits_per_value && row.region_kind != "tensor" &&
            row.policy != ground_truth_policy &&
            at.try_emplace({row.run, row.policy, row.region_kind, row.region_index}, schemes.size()).second)
            schemes.push_back({row.run, row.policy, row.region, row.value, {}, {}, {}, {}, {}, {}});
    for (const emu::ReportRow& row : report.rows) {
        const auto found = at.find({row.run, row.policy, row.region_kind, row.region_index});
        if (found == at.end()) continue;
        SchemeSummary& s = schemes[found->second];
        if (row.metric == plots::metric::sqnr_db)
            s.sqnr_db = row.value;
        else if (row.metric == plots::metric::relative_frobenius)
            s.relative_frobenius = row.value;
        else if (row.metric == plots::metric::normwise_rel_error)
            s.normwise_error = row.value;
        else if (row.metric == plots::metric::fraction_clipped)
            s.fraction_clipped = row.value;
        else if (row.metric == plots::metric::model_bytes)
            s.model_bytes = row.value;
        else if (row.metric == plots::metric::test_accuracy)
            s.test_accuracy = row.value;
    }
    return schemes;
}

emu::Report select_policies(const emu::Report& report, const std::vector<std::pair<std::string, std::string>>& keep) {
    auto kept = [&](const std::string& run, const std::string& policy) {
        return policy == ground_truth_policy ||
               std::find(keep.begin(), keep.end(), std::pair(run, policy)) != keep.end();
    };
    emu::Report selected = report;
    std::erase_if(selected.rows, [&](const emu::ReportRow& row) { return !kept(row.run, row.policy); });
    std::erase_if(selected.runs, [&](const emu::RunInfo& info) {
        return std::none_of(keep.begin(), keep.end(), [&](const auto& k) { return k.first == info.run; });
    });
    return selected;
}

}  // namespace floatscope::gui
