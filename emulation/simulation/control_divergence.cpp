// Comparing an emulated run's control-flow decisions with its ground truth's.
#include "emulation/simulation/control_divergence.hpp"

#include <algorithm>
#include <cstddef>

#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/region_measures.hpp"

namespace floatscope::emu {

ControlDivergence::ControlDivergence(const Trace& trace, const TruthTrace* truth) {
    if (truth == nullptr) return;
    std::vector<const TraceRegion*> branches;
    for (const TraceRegion& region : trace.regions())
        if (region.kind == metric::branch_kind) branches.push_back(&region);
    // Outer decisions first: a decision inside what a diverged one governs has nothing to compare with.
    std::sort(branches.begin(), branches.end(),
              [](const TraceRegion* a, const TraceRegion* b) { return a->index < b->index; });
    for (const TraceRegion* region : branches) {
        if (governed(metric::branch_kind, region->index) || governed(region->governed_kind, region->index)) continue;
        const TruthRegion* t = truth->find(region->kind, region->index);
        const std::size_t theirs = t == nullptr ? 0 : t->values.size();
        const std::size_t common = std::min(theirs, region->values.size());
        double differ = static_cast<double>(std::max(theirs, region->values.size()) - common);
        for (std::size_t i = 0; i < common; ++i) differ += region->values[i] != t->values[i].convert_to<double>();
        counted_.emplace_back(region, differ);
        total_ += differ;
        if (differ > 0) diverged_.push_back({region->governed_kind, region->governed_first, region->governed_last});
    }
}

bool ControlDivergence::governed(const std::string& kind, int index) const {
    for (const Governed& g : diverged_)
        if (g.kind == kind && index >= g.first && index <= g.last) return true;
    return false;
}

std::vector<ReportRow> ControlDivergence::branch_rows(const ReportRow& base, const TraceRegion& region) const {
    std::vector<ReportRow> rows{with_metric(base, metric::value_count, static_cast<double>(region.values.size()))};
    for (const auto& [counted, differ] : counted_)
        if (counted == &region) rows.push_back(with_metric(base, metric::branch_divergence, differ));
    return rows;
}

bool ControlDivergence::without_truth(const TraceRegion& region, const TruthRegion* truth) const {
    if (!any()) return false;
    if (governed(region.kind, region.index)) return true;
    return truth == nullptr || truth->values.size() != region.values.size();
}

}  // namespace floatscope::emu
