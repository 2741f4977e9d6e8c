// A sweep's grid points as run requests, checked before any of them runs.
#include "emulation/simulation/sweep_grid.hpp"

#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"

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

/// About what one grid point's RunRequest holds before it runs: its policies (their structures and
/// text), its parameters and the vectors around them, doubled for the heap blocks their formats'
/// names and tables take (sum with one policy: 2.9 KB a point measured, 3.3 KB estimated).
double request_bytes(const RunRequest& base, const std::vector<GridAxis>& axes) {
    double bytes = sizeof(RunRequest) + 32;
    for (const PrecisionPolicy& policy : base.policies)
        bytes += sizeof(PrecisionPolicy) + 2 * static_cast<double>(policy.describe().size());
    const double parameter = sizeof(std::pair<std::string, std::string>) + 32;  // names and values mostly in place
    bytes += parameter * static_cast<double>(base.workload->parameters().size() + axes.size());
    return 2 * bytes;
}

/// Checks the requests of this shard's points against the memory limit before any is built
/// (9*10^8 points had ended in bad_alloc); the point count in a double, which cannot wrap.
void require_grid_memory(const RunRequest& base, const std::vector<GridAxis>& axes, std::size_t shards) {
    double points = 1;
    for (const GridAxis& axis : axes) points *= static_cast<double>(axis.values.size());
    const double held = std::ceil(points / static_cast<double>(shards));
    const double each = request_bytes(base, axes);
    core::require_memory(
        fmt::format("a sweep of {:.0f} grid points{} ({} each)", points,
                    shards > 1 ? fmt::format(", {:.0f} in this shard", held) : "", core::format_memory_size(each)),
        held * each);
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
    require_grid_memory(base, axes, shards);
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
