// What the summary and the plots of a report must say beside its numbers, so that no number points
// the wrong way in silence: measured errors above the deterministic bound drawn beside them, and
// where and why each iterative refinement ended, against its limiting accuracy.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emulation/simulation/report.hpp"

namespace floatscope::emu {

/// A region whose finite normwise error exceeds its error_bound_deterministic (a bound that does not
/// hold there: its assumptions failed, or the workload or the bound is wrong).
struct BoundExcess {
    const ReportRow* error = nullptr;  ///< the normwise_rel_error row
    double bound = 0;
};
std::vector<BoundExcess> deterministic_bound_excesses(const Report& report);

/// The last iteration of a refinement (the row of its stop_reason), with its forward error and
/// limiting accuracy where the report has them.
struct RefinementEnding {
    const ReportRow* stop = nullptr;
    std::optional<double> forward_error;
    std::optional<double> limiting_accuracy;
};
std::vector<RefinementEnding> refinement_endings(const Report& report);

/// "at x_5 (no progress): forward error 2.5e-07, 4.2x its limiting accuracy 6e-08 (an estimate)".
std::string describe(const RefinementEnding& ending);

}  // namespace floatscope::emu
