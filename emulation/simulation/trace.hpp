// Trace: what one run of a workload recorded, region by region (layer, step, iteration), for the
// engine to measure against the ground truth.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/format.hpp"
#include "emulation/arithmetic/operation_counters.hpp"
#include "emulation/arithmetic/truth_number.hpp"

namespace floatscope::emu {

/// A named number a workload reports directly for a region: loss, accuracy, loss scale, the
/// fraction of gradients that underflowed, the n at which a sum stagnated.
struct RegionMetric {
    std::string name;  ///< lower_snake: "loss", "test_accuracy", "grad_underflow_fraction"
    double value = 0;
};

/// One region of an emulated run.
struct TraceRegion {
    std::string kind;  ///< "layer", "step", "epoch", "iteration", "terms", "operation"
    int index = 0;  ///< position among the regions of its kind, from 0
    std::string label;  ///< for people: "layer 3 (relu)", "10000 * 10000"
    /// The format `values` are in: ULP errors, the range and the classification (subnormal,
    /// overflow) refer to it.
    core::FormatSpec format;
    /// The region's results, compared element by element with the ground truth's region of the
    /// same kind and index (same length, same order).
    std::vector<double> values;
    /// Emulated operations counted in the region (workloads using the Emulated scalar fill it with
    /// a CountingScope; array kernels leave it empty and the engine classifies `values`).
    OperationCounters counters;
    std::vector<RegionMetric> metrics;
    /// Kind `branch` (metric::branch_kind), a place where the run's control flow decides (an ONNX
    /// If, a Loop's trip count), `values` its decisions each time it was reached: the regions of
    /// kind `governed_kind` with indices governed_first..governed_last run only as those decisions
    /// say (the nodes of the If's branches, the Loop's body). Where the truth decided otherwise, the
    /// engine counts branch_divergence and measures those regions without the truth.
    std::string governed_kind = {};
    int governed_first = 0;
    int governed_last = -1;
};

class Trace {
public:
    /// Appends a region and returns it for filling in.
    TraceRegion& add_region(std::string kind, int index, std::string label, core::FormatSpec format) {
        regions_.push_back({std::move(kind), index, std::move(label), std::move(format), {}, {}, {}, {}, 0, -1});
        return regions_.back();
    }
    const std::vector<TraceRegion>& regions() const { return regions_; }
    std::vector<TraceRegion>& regions() { return regions_; }

private:
    std::vector<TraceRegion> regions_;
};

/// One region of the ground-truth run: the same kind and index as the emulated region it answers.
struct TruthRegion {
    std::string kind;
    int index = 0;
    std::string label;
    std::vector<TruthNumber> values;
    std::vector<RegionMetric> metrics;
};

class TruthTrace {
public:
    TruthRegion& add_region(std::string kind, int index, std::string label) {
        regions_.push_back({std::move(kind), index, std::move(label), {}, {}});
        return regions_.back();
    }
    const std::vector<TruthRegion>& regions() const { return regions_; }
    /// The region of that kind and index, or nullptr.
    const TruthRegion* find(const std::string& kind, int index) const {
        for (const TruthRegion& r : regions_)
            if (r.index == index && r.kind == kind) return &r;
        return nullptr;
    }

private:
    std::vector<TruthRegion> regions_;
};

}  // namespace floatscope::emu
