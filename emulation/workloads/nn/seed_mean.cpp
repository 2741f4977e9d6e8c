// Averaging the traces of one training under several seeds.
#include "emulation/workloads/nn/seed_mean.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"

namespace floatscope::emu {

namespace {

void require_same_shape(const TraceRegion& first, const TraceRegion& other, std::size_t run) {
    const bool same_metrics =
        std::equal(first.metrics.begin(), first.metrics.end(), other.metrics.begin(), other.metrics.end(),
                   [](const RegionMetric& a, const RegionMetric& b) { return a.name == b.name; });
    if (other.kind != first.kind || other.index != first.index || !same_metrics)
        throw Error(fmt::format("mean_over_seeds: run {} recorded {} {} where run 0 recorded {} {}", run, other.kind,
                                other.index, first.kind, first.index));
}

/// The spread rows of the values of test_accuracy over the runs.
std::vector<RegionMetric> spread(const std::vector<double>& values, double mean) {
    double squares = 0;
    for (double v : values) squares += (v - mean) * (v - mean);
    const double n = static_cast<double>(values.size());
    return {{metric::test_accuracy_std, values.size() > 1 ? std::sqrt(squares / (n - 1)) : 0.0},
            {metric::test_accuracy_min, *std::min_element(values.begin(), values.end())},
            {metric::test_accuracy_max, *std::max_element(values.begin(), values.end())}};
}

}  // namespace

Trace mean_over_seeds(const std::vector<Trace>& runs) {
    if (runs.empty()) throw Error("mean_over_seeds: no run to average");
    const std::vector<TraceRegion>& first = runs.front().regions();
    for (std::size_t r = 1; r < runs.size(); ++r)
        if (runs[r].regions().size() != first.size())
            throw Error(fmt::format("mean_over_seeds: run {} recorded {} regions, run 0 {}", r,
                                    runs[r].regions().size(), first.size()));
    Trace mean;
    for (std::size_t i = 0; i < first.size(); ++i) {
        TraceRegion& region = mean.add_region(first[i].kind, first[i].index, first[i].label, first[i].format);
        std::vector<RegionMetric> spread_rows;
        for (std::size_t m = 0; m < first[i].metrics.size(); ++m) {
            std::vector<double> values;
            for (std::size_t r = 0; r < runs.size(); ++r) {
                const TraceRegion& other = runs[r].regions()[i];
                require_same_shape(first[i], other, r);
                values.push_back(other.metrics[m].value);
            }
            double sum = 0;
            for (double v : values) sum += v;
            const double average = sum / static_cast<double>(values.size());
            region.metrics.push_back({first[i].metrics[m].name, average});
            if (first[i].metrics[m].name == metric::test_accuracy) spread_rows = spread(values, average);
        }
        region.metrics.insert(region.metrics.end(), spread_rows.begin(), spread_rows.end());
    }
    return mean;
}

}  // namespace floatscope::emu
