// Where an emulated run's control flow left its ground truth's (a condition computed in low precision
// flips an ONNX If): the decisions that differ, and the regions that then have no truth to pair with.
#pragma once

#include <string>
#include <vector>

#include "emulation/simulation/report.hpp"
#include "emulation/simulation/trace.hpp"

namespace floatscope::emu {

/// One policy's decisions (regions of kind metric::branch_kind) against the truth's, learnt as the
/// truth hands its regions on: a workload hands a decision on before the regions it governs.
class ControlDivergence {
public:
    /// The rows of the policy's branch region against the truth's: value_count (its decisions) and
    /// branch_divergence (those that differ, a different count adding the difference); no
    /// branch_divergence where a decision around it already diverged, which leaves nothing to compare.
    std::vector<ReportRow> branch_rows(const ReportRow& base, const TraceRegion& region, const TruthRegion& truth);
    /// The rows of a branch region without a truth to compare with: value_count.
    static std::vector<ReportRow> branch_rows_alone(const ReportRow& base, const TraceRegion& region);
    /// Whether `region` is measured without `truth` (may be null): it lies in what a diverged decision
    /// governs, or, once any decision diverged, the truth lacks it or recorded another number of
    /// values (a tensor after the If of another shape).
    bool without_truth(const TraceRegion& region, const TruthRegion* truth) const;
    /// The run's decisions that differ from the truth's.
    double total() const { return total_; }
    bool any() const { return total_ > 0; }
    /// Whether the run recorded decisions compared with the truth's.
    bool compared() const { return compared_; }

private:
    struct Governed {
        std::string kind;
        int first = 0;
        int last = -1;
    };
    std::vector<Governed> diverged_;
    double total_ = 0;
    bool compared_ = false;

    bool governed(const std::string& kind, int index) const;
};

}  // namespace floatscope::emu
