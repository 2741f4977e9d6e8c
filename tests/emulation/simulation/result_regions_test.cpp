// result_regions: which regions are a run's results.
#include <catch2/catch.hpp>

#include <set>
#include <vector>

#include "emulation/simulation/result_regions.hpp"

using floatscope::emu::RegionKey;
using floatscope::emu::result_regions;

TEST_CASE("result_regions: a graph's outputs, else the first kind's last region or all of it") {
    const std::vector<RegionKey> graph = {{"node", 0}, {"node", 1}, {"output", 0}, {"node", 2}, {"output", 1}};
    CHECK(result_regions(graph, false) == std::set<RegionKey>{{"output", 0}, {"output", 1}});
    CHECK(result_regions(graph, true) == std::set<RegionKey>{{"output", 0}, {"output", 1}});

    // The largest index, not the last recorded; other kinds after the first are steps, not results.
    const std::vector<RegionKey> layers = {{"layer", 0}, {"layer", 2}, {"layer", 1}, {"epoch", 9}};
    CHECK(result_regions(layers, false) == std::set<RegionKey>{{"layer", 2}});
    CHECK(result_regions(layers, true) == std::set<RegionKey>{{"layer", 0}, {"layer", 1}, {"layer", 2}});
    CHECK(result_regions({}, false).empty());
}
