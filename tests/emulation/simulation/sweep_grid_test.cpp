// Tests of emulation/simulation/sweep_grid: point order and run ids, shards, and the checks every point gets.
#include <catch2/catch.hpp>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/simulation/sweep_grid.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

RunRequest sum_request() {
    RunRequest base;
    base.workload = &find_workload("sum");
    base.policies = {uniform_policy(core::parse_format("fp16"))};
    return base;
}

std::string text(const RunRequest& r, const std::string& name) { return r.parameters.text(name); }

}  // namespace

TEST_CASE("grid points: the first axis varies slowest, run ids 1..G in order, fixed parameters in every point") {
    const std::vector<GridAxis> axes = {{"n", {"10", "20", "30"}}, {"method", {"naive", "kahan"}}};
    CHECK(grid_points(axes) == 6);
    CHECK(grid_points({}) == 1);
    CHECK(grid_assignments(axes, {"seed=4"}, 3) == std::vector<std::string>{"seed=4", "n=20", "method=kahan"});
    const std::vector<RunRequest> requests = grid_requests(sum_request(), {"seed=4"}, axes);
    REQUIRE(requests.size() == 6);
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"10", "naive"}, {"10", "kahan"}, {"20", "naive"}, {"20", "kahan"}, {"30", "naive"}, {"30", "kahan"}};
    for (std::size_t p = 0; p < requests.size(); ++p) {
        CHECK(requests[p].run_id == std::to_string(p + 1));
        CHECK(text(requests[p], "n") == expected[p].first);
        CHECK(text(requests[p], "method") == expected[p].second);
        CHECK(text(requests[p], "seed") == "4");
        CHECK(requests[p].policies.size() == 1);
    }
}

TEST_CASE("grid shards: point i goes to shard i mod N, keeping its run id, and together they are the grid") {
    const std::vector<GridAxis> axes = {{"n", {"1", "2", "3", "4", "5"}}};
    std::vector<std::string> ids;
    for (std::size_t shard = 0; shard < 2; ++shard)
        for (const RunRequest& r : grid_requests(sum_request(), {}, axes, shard, 2)) ids.push_back(r.run_id);
    CHECK(ids == std::vector<std::string>{"1", "3", "5", "2", "4"});
}

TEST_CASE("grid checks: empty, repeated or fixed axes, and every point's parameters, in all shards") {
    CHECK_THROWS_WITH(grid_requests(sum_request(), {}, {{"n", {}}}), Catch::Contains("'n' no values"));
    CHECK_THROWS_WITH(grid_requests(sum_request(), {}, {{"n", {"1"}}, {"n", {"2"}}}), Catch::Contains("twice"));
    CHECK_THROWS_WITH(grid_requests(sum_request(), {"n=5"}, {{"n", {"1"}}}),
                      Catch::Contains("'n' is both a fixed parameter and a grid axis"));
    // Point 1 is bad and belongs to shard 1: shard 0 refuses it too.
    CHECK_THROWS_WITH(grid_requests(sum_request(), {}, {{"n", {"10", "0"}}}, 0, 2), Catch::Contains("n"));
}
