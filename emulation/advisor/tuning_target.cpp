// TuningTarget: parsing the target text, and measuring it on the output regions of a report.
#include "emulation/advisor/tuning_target.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/result_regions.hpp"

namespace floatscope::emu {

namespace {

/// The target name that means normwise_bits_correct where the outputs have it (a region against its
/// truth), else bits_correct_mean (FPCore's points).
constexpr const char* bits_correct = "bits_correct";

constexpr const char* target_forms =
    "METRIC<=NUMBER (an error: normwise_rel_error<=1e-3), METRIC>=NUMBER (bits_correct>=10) or "
    "METRIC>=truth-NUMBER (test_accuracy>=truth-0.005)";

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

double parse_number(const std::string& text, std::string_view whole) {
    try {
        std::size_t used = 0;
        const double value = std::stod(text, &used);
        if (used == text.size() && std::isfinite(value)) return value;
    } catch (const std::exception&) {
    }
    throw Error(fmt::format("tune: '{}' in the target '{}' is not a finite number; a target is {}", text, whole,
                            target_forms));
}

}  // namespace

TuningTarget parse_tuning_target(std::string_view text) {
    const std::string whole = trimmed(text);
    const auto le = whole.find("<="), ge = whole.find(">=");
    if ((le == std::string::npos) == (ge == std::string::npos))
        throw Error(fmt::format("tune: the target '{}' has no single <= or >=; a target is {}", whole, target_forms));
    TuningTarget target;
    target.at_most = le != std::string::npos;
    const auto at = target.at_most ? le : ge;
    target.metric = trimmed(whole.substr(0, at));
    const metric::MetricDefinition* known = metric::find_definition(target.metric);
    if (target.metric != bits_correct && (target.metric.empty() || known == nullptr || known->is_prefix))
        throw Error(fmt::format("tune: '{}' is not a metric of the report (floatscope-cli list --metrics); a target is {}",
                                target.metric, target_forms));
    std::string bound = trimmed(whole.substr(at + 2));
    if (bound.rfind("truth", 0) == 0) {
        target.relative_to_truth = true;
        bound = trimmed(bound.substr(5));
        if (!bound.empty()) {
            if (bound[0] != '+' && bound[0] != '-')
                throw Error(fmt::format("tune: '{}' after 'truth' in '{}' is not +NUMBER or -NUMBER", bound, whole));
            const double sign = bound[0] == '-' ? -1.0 : 1.0;
            target.threshold = sign * parse_number(trimmed(bound.substr(1)), whole);
        }
    } else {
        target.threshold = parse_number(bound, whole);
    }
    target.text = target.metric + (target.at_most ? "<=" : ">=") +
                  (target.relative_to_truth ? fmt::format("truth{:+g}", target.threshold) : fmt::format("{:g}", target.threshold));
    return target;
}

double TargetMeasure::badness() const {
    if (!finite_where_truth_is) return INFINITY;
    return at_most ? value : -value;
}

TargetMeasure measure_target(const TuningTarget& target, const Report& report, const std::string& run,
                             const std::string& policy, bool regions_are_results) {
    // The output regions, from the policy's own rows (every policy of a run has the same regions).
    std::vector<RegionKey> regions;
    for (const ReportRow& row : report.rows) {
        if (row.run != run || row.policy != policy || row.region_kind == metric::whole_run_kind ||
            row.region_kind == metric::branch_kind)
            continue;
        if (regions.empty() || regions.back() != RegionKey{row.region_kind, row.region_index})
            regions.emplace_back(row.region_kind, row.region_index);
    }
    const std::set<RegionKey> outputs = result_regions(regions, regions_are_results);
    if (outputs.empty()) throw Error(fmt::format("tune: the run of '{}' has no region to measure the target on", policy));
    std::string wanted = target.metric;
    if (wanted == bits_correct) {
        const bool normwise = std::any_of(report.rows.begin(), report.rows.end(), [&](const ReportRow& row) {
            return row.run == run && row.policy == policy && row.metric == metric::normwise_bits_correct;
        });
        wanted = normwise ? metric::normwise_bits_correct : metric::bits_correct_mean;
    }
    TargetMeasure measure;
    measure.at_most = target.at_most;
    measure.value = target.at_most ? -INFINITY : INFINITY;
    bool found = false, normwise = false, nan_results = false;
    std::map<std::pair<std::string, int>, double> truth_values;
    std::set<std::string> available;
    for (const ReportRow& row : report.rows) {
        if (row.run != run || !outputs.contains({row.region_kind, row.region_index})) continue;
        if (row.policy == "ground-truth" && row.metric == wanted)
            truth_values[{row.region_kind, row.region_index}] = row.value;
        if (row.policy != policy) continue;
        available.insert(row.metric);
        if (row.metric == metric::normwise_rel_error && !std::isfinite(row.value)) measure.finite_where_truth_is = false;
        if (row.metric == metric::normwise_rel_error) normwise = true;
        if (row.metric == metric::nan_count && row.value > 0) nan_results = true;
        if (row.metric != wanted) continue;
        found = true;
        const double v = std::isnan(row.value) ? (target.at_most ? INFINITY : -INFINITY) : row.value;
        measure.value = target.at_most ? std::max(measure.value, v) : std::min(measure.value, v);
    }
    // Without a truth per value (FPCore: points whose truth is NaN are dropped), a NaN result is one
    // where the truth is finite.
    if (!normwise && nan_results) measure.finite_where_truth_is = false;
    if (!found) {
        std::vector<std::string> names;
        for (const std::string& name : available)
            if (!metric::log2_hist_bin(name) && !metric::operand_log2_hist_bin(name)) names.push_back(name);
        throw Error(fmt::format("tune: the outputs of this workload have no '{}'; they have {}", wanted,
                                fmt::join(names, ", ")));
    }
    measure.threshold = target.threshold;
    if (target.relative_to_truth) {
        if (truth_values.empty())
            throw Error(fmt::format("tune: the ground truth reports no '{}' on the outputs, so '{}' cannot be measured; "
                                    "give an absolute threshold",
                                    wanted, target.text));
        double truth = target.at_most ? INFINITY : -INFINITY;
        for (const auto& [region, value] : truth_values) truth = target.at_most ? std::min(truth, value) : std::max(truth, value);
        measure.threshold = truth + target.threshold;
    }
    const bool within = target.at_most ? measure.value <= measure.threshold : measure.value >= measure.threshold;
    measure.meets = within && measure.finite_where_truth_is;
    return measure;
}

}  // namespace floatscope::emu
