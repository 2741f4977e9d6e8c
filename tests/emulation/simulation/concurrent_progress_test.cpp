// ConcurrentProgress: jobs' own fractions summed by their shares, never going back.
#include <catch2/catch.hpp>

#include <vector>

#include "emulation/simulation/concurrent_progress.hpp"

using floatscope::emu::ConcurrentProgress;
using floatscope::emu::RunControl;

TEST_CASE("ConcurrentProgress: the weighted sum of the jobs' fractions, which a job reporting less does not lower") {
    std::vector<double> seen;
    RunControl parent([&](double fraction, const std::string&) { seen.push_back(fraction); });
    ConcurrentProgress progress(parent, {1, 3});  // shares 1/4 and 3/4
    progress.report(1, 0.5, "b");
    progress.report(0, 1, "a");
    progress.report(1, 0.2, "b");  // behind what it said: the job's own fraction stays 0.5
    progress.report(1, 2, "b");  // past its end: clamped to 1
    CHECK(seen == std::vector<double>{0.375, 0.625, 0.625, 1});
    parent.request_cancel();
    CHECK_THROWS_AS(progress.report(0, 1, "a"), floatscope::emu::Cancelled);
}
