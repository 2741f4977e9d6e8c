// The regions that are a run's results: what the advisor's target measures and what a kept
// ground truth keeps (engine.hpp's KeptTruth).
#pragma once

#include <set>
#include <span>
#include <string>
#include <utility>

namespace floatscope::emu {

using RegionKey = std::pair<std::string, int>;  ///< (region kind, region index)

/// From a run's regions in the order it recorded them (whole-run and branch regions left out): every
/// region of kind "output" where there is one (a graph's outputs); else every region of the first kind
/// when `regions_are_results` (gemm's product per k); else the region of the first kind with the
/// largest index (mlp-forward's last layer, the whole sum). Empty for no regions.
std::set<RegionKey> result_regions(std::span<const RegionKey> regions, bool regions_are_results);

}  // namespace floatscope::emu
