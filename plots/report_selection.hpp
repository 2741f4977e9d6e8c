// Reading a Report for plotting: the values of one metric along the regions of one kind, one
// track per policy, in the order the report lists them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulation/simulation/report.hpp"

namespace floatscope::plots {

struct RegionValue {
    int index = 0;  ///< region_index
    std::string region;  ///< the region's label
    double value = 0;
};

/// One policy's values of one metric, sorted by region index.
struct MetricTrack {
    std::string run;
    std::string policy;
    /// For legends: the policy, or "policy (run r)" when the report holds several runs (a sweep).
    std::string name;
    std::vector<RegionValue> values;
};

/// The region kinds that have rows of `metric`, in order of first appearance; whole-run figures
/// (region_kind "run") are not regions along a computation and are left out.
std::vector<std::string> region_kinds_with(const emu::Report& report, std::string_view metric);

/// One track per (run, policy) that has `metric` in regions of `region_kind`, in order of first
/// appearance; empty when there is none. A region listed twice keeps its first value.
std::vector<MetricTrack> metric_tracks(const emu::Report& report, std::string_view region_kind,
                                       std::string_view metric);

/// Whether regions of the kind follow one another along a number (n, k, a step, an epoch, a layer,
/// an iteration, a node of a graph in execution order), so that a line between them means
/// something; the others (schemes, operations, and kinds this list does not know) are categories.
bool ordered_region_kind(std::string_view region_kind);

/// Where the regions of one kind lie along the x axis: ordered kinds at their parameter (the sum's
/// n, gemm's k, a logged step; an epoch's number from 1; a layer's, an iteration's, a node's
/// number), categories at 0, 1, 2, ... by label in order of first appearance in rows of the plotted
/// `metrics`, so that a category none of them has (overflow-demo's "p - p", whose exact value 0 has
/// no relative error) takes no slot. Each run has its own (two runs overlaid may sum to different
/// n, or list other schemes).
struct RegionPositions {
    std::string label;  ///< the axis label: "n (terms summed)", "k", "layer", "epoch", "scheme"
    bool categorical = false;  ///< !ordered_region_kind
    bool logarithmic = false;  ///< positions spanning two decades and more (n = 1, 2, 4, ...)
    std::map<std::pair<std::string, int>, double> by_region;  ///< (run, region_index) -> x
    double at(const std::string& run, int index) const;
};
RegionPositions region_positions(const emu::Report& report, std::string_view region_kind,
                                 const std::vector<std::string_view>& metrics);

/// "q_proj.weight [nf4]" -> ("q_proj.weight", "nf4"): a weights region of one tensor and scheme;
/// nullopt for a label of another shape.
std::optional<std::pair<std::string, std::string>> tensor_and_scheme(const std::string& label);

/// The legend name of a policy of a run, as MetricTrack::name: the policy, with " (run N)" where
/// a policy of that name ran in several runs of the report.
std::string track_name(const emu::Report& report, const std::string& run, const std::string& policy);

}  // namespace floatscope::plots
