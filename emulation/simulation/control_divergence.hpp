// Where an emulated run's control flow left its ground truth's (a condition computed in low precision
// flips an ONNX If): the decisions that differ, and the regions that then have no truth to pair with.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "emulation/simulation/report.hpp"
#include "emulation/simulation/trace.hpp"

namespace floatscope::emu {

/// The decisions (regions of kind metric::branch_kind) of one run against the truth's.
class ControlDivergence {
public:
    /// `truth` null: no ground truth, nothing diverges.
    ControlDivergence(const Trace& trace, const TruthTrace* truth);

    /// The rows of a branch region: value_count (its decisions) and branch_divergence (those that
    /// differ from the truth's; none where a decision around it already diverged, which leaves
    /// nothing to compare it with).
    std::vector<ReportRow> branch_rows(const ReportRow& base, const TraceRegion& region) const;
    /// Whether `region` is measured without its truth: it lies in what a diverged decision governs,
    /// or, once any decision diverged, the truth lacks it or recorded another number of values (a
    /// tensor after the If of another shape).
    bool without_truth(const TraceRegion& region, const TruthRegion* truth) const;
    /// The decisions of the run that differ from the truth's.
    double total() const { return total_; }
    bool any() const { return total_ > 0; }
    /// Whether the run recorded decisions compared with the truth's.
    bool compared() const { return !counted_.empty(); }

private:
    struct Governed {
        std::string kind;
        int first = 0;
        int last = -1;
    };
    std::vector<std::pair<const TraceRegion*, double>> counted_;  // branch regions compared, their count
    std::vector<Governed> diverged_;
    double total_ = 0;

    bool governed(const std::string& kind, int index) const;
};

}  // namespace floatscope::emu
