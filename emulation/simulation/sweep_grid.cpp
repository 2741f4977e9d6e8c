// A sweep's grid points as run requests, checked before any of them runs.
#include "emulation/simulation/sweep_grid.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::emu {

namespace {

std::string assigned_name(const std::string& assignment) { return assignment.substr(0, assignment.find('=')); }

void check_axes(const std::vector<GridAxis>& axes, const std::vector<std::string>& fixed) {
    for (auto axis = axes.begin(); axis != axes.end(); ++axis) {
        if (axis->values.empty()) throw Error(fmt::format("the grid gives '{}' no values", axis->name));
        for (auto other = axes.begin(); other != axis; ++other)
            if (other->name == axis->name)
                throw Error(fmt::format("the grid gives '{}' twice; list its values once", axis->name));
        for (const std::string& assignment : fixed)
            if (assigned_name(assignment) == axis->name)
                throw Error(fmt::format("'{}' is both a fixed parameter and a grid axis; keep one", axis->name));
    }
}

}  // namespace

std::size_t grid_points(const std::vector<GridAxis>& axes) {
    std::size_t points = 1;
    for (const GridAxis& axis : axes) points *= axis.values.size();
    return points;
}

std::vector<std::string> grid_assignments(const std::vector<GridAxis>& axes, const std::vector<std::string>& fixed,
                                          std::size_t point) {
    std::vector<std::string> assignments = fixed;
    std::vector<std::string> point_values(axes.size());
    std::size_t rest = point;  // the first axis varies slowest
    for (std::size_t a = axes.size(); a-- > 0;) {
        point_values[a] = axes[a].name + "=" + axes[a].values[rest % axes[a].values.size()];
        rest /= axes[a].values.size();
    }
    assignments.insert(assignments.end(), point_values.begin(), point_values.end());
    return assignments;
}

std::vector<RunRequest> grid_requests(const RunRequest& base, const std::vector<std::string>& fixed,
                                      const std::vector<GridAxis>& axes, std::size_t shard, std::size_t shards) {
    check_axes(axes, fixed);
    const Workload& workload = *base.workload;
    const std::size_t points = grid_points(axes);
    std::vector<RunRequest> requests;
    for (std::size_t point = 0; point < points; ++point) {
        RunRequest request = base;
        request.parameters = Parameters::parse(workload.parameters(), grid_assignments(axes, fixed, point));
        workload.check(request.parameters);
        if (point % shards != shard) continue;
        request.run_id = std::to_string(point + 1);
        requests.push_back(std::move(request));
    }
    return requests;
}

}  // namespace floatscope::emu
