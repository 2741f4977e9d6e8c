// A sweep's grid: parameter axes whose Cartesian product is a run request per point, numbered in order
// (what `floatscope-cli sweep --grid` and the Python module's sweep(grid=...) both run).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "emulation/simulation/engine.hpp"

namespace floatscope::emu {

/// One parameter and the values the grid gives it, as `--set` would spell them.
struct GridAxis {
    std::string name;
    std::vector<std::string> values;
};

/// The number of grid points: the product of the axes' sizes (1 without axes).
std::size_t grid_points(const std::vector<GridAxis>& axes);

/// The assignments ("name=value") of grid point `point` (from 0): `fixed`, then each axis's value,
/// the first axis varying slowest.
std::vector<std::string> grid_assignments(const std::vector<GridAxis>& axes, const std::vector<std::string>& fixed,
                                          std::size_t point);

/// A request for each grid point whose index is `shard` modulo `shards`, run ids "1".."G" by point
/// (so that the shards of a sweep merge into the whole sweep): `base`'s workload, policies and ground
/// truth with the point's parameters. Every point is checked (schema and Workload::check), also those
/// of other shards, so that all shards fail alike; first the points this shard keeps are checked
/// against the memory limit. Throws floatscope::Error for an axis without
/// values, one named twice, or one that is also a fixed parameter.
std::vector<RunRequest> grid_requests(const RunRequest& base, const std::vector<std::string>& fixed,
                                      const std::vector<GridAxis>& axes, std::size_t shard = 0, std::size_t shards = 1);

}  // namespace floatscope::emu
