// Reducing a report to a row per policy, for the Compare table.
#include "app/gui/simulator/policy_summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "emulation/simulation/engine.hpp"
#include "plots/report_metrics.hpp"
#include "plots/report_selection.hpp"

namespace floatscope::gui {

namespace {

constexpr const char* ground_truth_policy = "ground-truth";

/// The value of `metric` in the last region of the first kind that has it, for one policy: an
/// epoch-by-epoch figure (test accuracy, train loss), not an error.
std::optional<double> final_value(const emu::Report& report, const PolicySummary& s, std::string_view metric) {
    for (const std::string& kind : plots::region_kinds_with(report, metric))
        for (const plots::MetricTrack& track : plots::metric_tracks(report, kind, metric))
            if (track.run == s.run && track.policy == s.policy && !track.values.empty())
                return track.values.back().value;
    return std::nullopt;
}

bool is_error_metric(const std::string& metric) {
    return metric == plots::metric::normwise_rel_error || metric == plots::metric::rel_error_max;
}

/// The final figures and the failure verdict from the output regions' rows.
void summarize_outputs(const emu::Report& report, PolicySummary& s) {
    const std::vector<std::pair<std::string, int>> outputs = output_regions(report, s.run, s.policy);
    auto is_output = [&](const emu::ReportRow& row) {
        return row.run == s.run && row.policy == s.policy &&
               std::find(outputs.begin(), outputs.end(), std::pair(row.region_kind, row.region_index)) != outputs.end();
    };
    std::map<std::string, std::vector<double>> values;  // metric -> one value per output region
    for (const emu::ReportRow& row : report.rows)
        if (is_output(row)) values[row.metric].push_back(row.value);
    auto worst = [&](const char* metric, bool largest) -> std::optional<double> {
        const auto found = values.find(metric);
        if (found == values.end()) return std::nullopt;
        // NaN and inf are the worst errors and the fewest bits.
        double w = found->second.front();
        for (double v : found->second) {
            if (std::isnan(w)) break;
            if (std::isnan(v) || (largest ? v > w : v < w)) w = v;
        }
        return w;
    };
    const bool normwise = values.contains(plots::metric::normwise_rel_error);
    s.final_metric = normwise ? plots::metric::normwise_rel_error : plots::metric::rel_error_max;
    s.final_error = worst(normwise ? plots::metric::normwise_rel_error : plots::metric::rel_error_max, true);
    s.final_bits_correct =
        worst(normwise ? plots::metric::normwise_bits_correct : plots::metric::bits_correct_min, false);
    s.failed = s.final_error && !std::isfinite(*s.final_error);
    for (const char* count : {plots::metric::nan_count, plots::metric::inf_count})
        if (const auto found = values.find(count); found != values.end())
            for (double v : found->second) s.nonfinite_outputs += v;
    if (const auto found = values.find(plots::metric::value_count); found != values.end())
        for (double v : found->second) s.output_values += v;
    auto total = [&](const char* metric) -> std::optional<double> {
        const auto found = values.find(metric);
        if (found == values.end()) return std::nullopt;
        double sum = 0;
        for (double v : found->second) sum += v;
        return sum;
    };
    s.never_ended = total(plots::metric::budget_exceeded_count);
    s.samples = total(plots::metric::samples);
}

}  // namespace

std::vector<std::pair<std::string, int>> output_regions(const emu::Report& report, const std::string& run,
                                                        const std::string& policy) {
    std::vector<std::pair<std::string, int>> outputs;
    std::string error_kind;  // the first kind with an error measure
    for (const emu::ReportRow& row : report.rows) {
        if (row.run != run || row.policy != policy || row.region_kind == plots::metric::whole_run_kind) continue;
        if (row.region_kind == "output") {
            if (std::find(outputs.begin(), outputs.end(), std::pair(row.region_kind, row.region_index)) ==
                outputs.end())
                outputs.emplace_back(row.region_kind, row.region_index);
        } else if (error_kind.empty() && is_error_metric(row.metric)) {
            error_kind = row.region_kind;
        }
    }
    if (!outputs.empty() || error_kind.empty()) return outputs;
    int last = 0;
    bool any = false;
    for (const emu::ReportRow& row : report.rows)
        if (row.run == run && row.policy == policy && row.region_kind == error_kind && is_error_metric(row.metric))
            last = any ? std::max(last, row.region_index) : row.region_index, any = true;
    return {{error_kind, last}};
}

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
            s = summaries.emplace(summaries.end());
            s->run = row.run;
            s->policy = row.policy;
            s->name = plots::track_name(report, row.run, row.policy);
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
        summarize_outputs(report, s);
        s.test_accuracy = final_value(report, s, plots::metric::test_accuracy);
        s.test_accuracy_std = final_value(report, s, plots::metric::test_accuracy_std);
        s.test_accuracy_min = final_value(report, s, plots::metric::test_accuracy_min);
        s.test_accuracy_max = final_value(report, s, plots::metric::test_accuracy_max);
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
    // The runs' policy lists too: an export of the selection names only the policies it holds.
    for (emu::RunInfo& info : selected.runs)
        std::erase_if(info.policies, [&](const auto& policy) { return !kept(info.run, policy.first); });
    return selected;
}

}  // namespace floatscope::gui
