#include "emulation/simulation/result_regions.hpp"

#include <algorithm>

namespace floatscope::emu {

std::set<RegionKey> result_regions(std::span<const RegionKey> regions, bool regions_are_results) {
    std::set<RegionKey> outputs, first_kind;
    for (const RegionKey& region : regions) {
        if (region.first == "output") outputs.insert(region);
        if (region.first == regions.front().first) first_kind.insert(region);
    }
    if (!outputs.empty() || first_kind.empty()) return outputs;
    if (regions_are_results) return first_kind;
    const auto last = std::max_element(first_kind.begin(), first_kind.end(),
                                       [](const RegionKey& a, const RegionKey& b) { return a.second < b.second; });
    return {*last};
}

}  // namespace floatscope::emu
