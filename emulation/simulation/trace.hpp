// Trace: what one run of a workload recorded, region by region (layer, step, iteration), for the
// engine to measure against the ground truth.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/format.hpp"
#include "emulation/arithmetic/operation_counters.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/simulation/operand_range.hpp"

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
    /// engine counts branch_divergence and measures those regions without the truth. The truth hands
    /// a branch region on before the regions it governs.
    std::string governed_kind = {};
    int governed_first = 0;
    int governed_last = -1;
    /// What the region's matrix products rounded into their operand format, where that is not
    /// `format` (matmul_operand_range): the plots shade its range over these operands.
    std::optional<OperandRange> operands = {};
    /// A format wider than binary64 (core::is_wider_than_binary64): the same values exactly, MPFR
    /// numbers of the format's precision, which the engine measures against the truth in place of
    /// `values`; `values` then holds each rounded to the nearest double, for the value-range rows
    /// and the plots (set_wide_values fills both). A double would round a binary128 result a
    /// second time and hide its last 60 bits of accuracy.
    std::vector<TruthNumber> wide_values = {};

    /// Keeps exact values of a wide format, and their nearest doubles in `values`.
    void set_wide_values(std::vector<TruthNumber> exact) {
        values.resize(exact.size());
        for (std::size_t i = 0; i < exact.size(); ++i) values[i] = mpfr_get_d(exact[i].backend().data(), MPFR_RNDN);
        wide_values = std::move(exact);
    }
};

class Trace {
public:
    /// Appends a region and returns it for filling in.
    TraceRegion& add_region(std::string kind, int index, std::string label, core::FormatSpec format) {
        regions_.push_back(
            {std::move(kind), index, std::move(label), std::move(format), {}, {}, {}, {}, 0, -1, {}, {}});
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
    /// Values the region reads from the workload, valid only while the sink has it
    /// (TruthTrace::hand_on_now); `values` is then empty.
    std::span<const TruthNumber> borrowed = {};

    /// The region's values: its own, or those it borrows.
    std::span<const TruthNumber> numbers() const { return values.empty() ? borrowed : std::span(values); }
};

class TruthTrace {
public:
    /// Hands each region to `sink` as soon as the truth has made it: when the next region is added,
    /// and at finish(). The engine measures the policies' regions against it there and drops its
    /// values, so that the truth holds the region in progress, not every region of the run.
    void hand_regions_to(std::function<void(TruthRegion&)> sink) { sink_ = std::move(sink); }

    TruthRegion& add_region(std::string kind, int index, std::string label) {
        hand_on_last();
        regions_.push_back({std::move(kind), index, std::move(label), {}, {}});
        return regions_.back();
    }
    /// A region whose values the workload holds until this returns (a graph node's output, which
    /// lives on as other nodes' input): the sink measures it at once and nothing copies them.
    /// Without a sink the region keeps a copy, as add_region's regions keep their values.
    void hand_on_now(std::string kind, int index, std::string label, std::span<const TruthNumber> values) {
        TruthRegion& region = add_region(std::move(kind), index, std::move(label));
        if (!sink_) {
            region.values.assign(values.begin(), values.end());
            return;
        }
        region.borrowed = values;
        hand_on_last();
        region.borrowed = {};
    }
    /// The truth has run: its last region goes to the sink too.
    void finish() { hand_on_last(); }

    const std::vector<TruthRegion>& regions() const { return regions_; }
    /// The region of that kind and index, or nullptr.
    const TruthRegion* find(const std::string& kind, int index) const {
        for (const TruthRegion& r : regions_)
            if (r.index == index && r.kind == kind) return &r;
        return nullptr;
    }

private:
    void hand_on_last() {
        if (sink_ && handed_on_ < regions_.size()) sink_(regions_.back());
        handed_on_ = regions_.size();
    }

    std::vector<TruthRegion> regions_;
    std::function<void(TruthRegion&)> sink_;
    std::size_t handed_on_ = 0;  ///< regions given to the sink
};

}  // namespace floatscope::emu
