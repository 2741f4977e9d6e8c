// Comparing an emulated run's control-flow decisions with its ground truth's.
#include "emulation/simulation/control_divergence.hpp"

#include <algorithm>
#include <cstddef>

#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/region_measures.hpp"

namespace floatscope::emu {

std::vector<ReportRow> ControlDivergence::branch_rows_alone(const ReportRow& base, const TraceRegion& region) {
    return {with_metric(base, metric::value_count, static_cast<double>(region.values.size()))};
}

std::vector<ReportRow> ControlDivergence::branch_rows(const ReportRow& base, const TraceRegion& region,
                                                      const TruthRegion& truth) {
    std::vector<ReportRow> rows = branch_rows_alone(base, region);
    // Inside what a diverged decision governs, this one was reached in other circumstances.
    if (governed(metric::branch_kind, region.index) || governed(region.governed_kind, region.index)) return rows;
    const std::size_t theirs = truth.numbers().size();
    const std::size_t common = std::min(theirs, region.values.size());
    double differ = static_cast<double>(std::max(theirs, region.values.size()) - common);
    for (std::size_t i = 0; i < common; ++i) differ += region.values[i] != truth.numbers()[i].convert_to<double>();
    compared_ = true;
    total_ += differ;
    if (differ > 0) diverged_.push_back({region.governed_kind, region.governed_first, region.governed_last});
    rows.push_back(with_metric(base, metric::branch_divergence, differ));
    return rows;
}

bool ControlDivergence::governed(const std::string& kind, int index) const {
    for (const Governed& g : diverged_)
        if (g.kind == kind && index >= g.first && index <= g.last) return true;
    return false;
}

bool ControlDivergence::without_truth(const TraceRegion& region, const TruthRegion* truth) const {
    if (!any()) return false;
    if (governed(region.kind, region.index)) return true;
    return truth == nullptr || truth->numbers().size() != region.values.size();
}

}  // namespace floatscope::emu
