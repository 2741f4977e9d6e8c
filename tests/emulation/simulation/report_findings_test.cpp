// report_findings: errors above the deterministic bound beside them, and refinements' endings
// against their limiting accuracy, on reports written out by hand.
#include <catch2/catch.hpp>

#include "emulation/simulation/report_findings.hpp"

namespace {

using floatscope::emu::Report;
using floatscope::emu::ReportRow;

ReportRow row(const std::string& policy, int index, const std::string& metric, double value) {
    return {"1", "w", policy, "terms", index, "n = " + std::to_string(index), metric, value};
}

}  // namespace

TEST_CASE("deterministic_bound_excesses: a finite error above the bound of its own region") {
    Report report;
    report.rows = {row("fp16", 0, "normwise_rel_error", 1e-3), row("fp16", 0, "error_bound_deterministic", 2e-3),
                   row("fp16", 1, "normwise_rel_error", 5e-3), row("fp16", 1, "error_bound_deterministic", 4e-3),
                   // another policy's bound is not fp16's
                   row("bf16", 2, "error_bound_deterministic", 1e-9), row("fp16", 2, "normwise_rel_error", 1e-3),
                   // an unbounded (NaN-output) error is a failure, said as such elsewhere; no bound, nothing
                   row("bf16", 1, "normwise_rel_error", INFINITY), row("bf16", 1, "error_bound_deterministic", 1),
                   row("bf16", 3, "normwise_rel_error", 1)};
    const auto excesses = floatscope::emu::deterministic_bound_excesses(report);
    REQUIRE(excesses.size() == 1);
    CHECK(excesses[0].error == &report.rows[2]);
    CHECK(excesses[0].bound == 4e-3);
}

TEST_CASE("refinement_endings: why it ended, and its forward error against the limiting accuracy") {
    Report report;
    report.rows = {row("fp16 LU", 4, "forward_error", 2.5e-7),
                   row("fp16 LU", 4, "error_bound_limiting_accuracy", 6e-8),
                   row("fp16 LU", 4, "stop_reason", 3),
                   row("bf16 LU", 2, "forward_error", 1e-8),
                   row("bf16 LU", 2, "error_bound_limiting_accuracy", 6e-8),
                   row("bf16 LU", 2, "stop_reason", 1),
                   row("fp32", 0, "stop_reason", 4),
                   row("tf32", 0, "stop_reason", 7)};
    const auto endings = floatscope::emu::refinement_endings(report);
    REQUIRE(endings.size() == 4);
    CHECK(describe(endings[0]) ==
          "at n = 4 (no progress): forward error 2.5e-07, 4.2x its limiting accuracy 6e-08 (an estimate)");
    CHECK(describe(endings[1]) ==
          "at n = 2 (the residual test): forward error 1e-08, within its limiting accuracy 6e-08 (an estimate)");
    CHECK(describe(endings[2]) == "at n = 0 (max-iterations)");
    CHECK(describe(endings[3]) == "at n = 0 (an unknown stop_reason)");
}
