// A run's memory as its workload states it: the checks' requests and the values its regions keep.
#include "emulation/simulation/memory_estimate.hpp"

#include <algorithm>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/format_width.hpp"
#include "core/memory_budget.hpp"
#include "emulation/simulation/truth_precision.hpp"
#include "emulation/simulation/workload.hpp"

namespace floatscope::emu {

namespace {

/// Checks what the regions of `r` keep (Workload::recorded_values) at `bytes_each` a value.
void require_recorded(const RunRequest& r, double bytes_each, std::string_view whose) {
    const double values = r.workload->recorded_values(r.parameters);
    if (values > 0)
        core::require_memory(
            fmt::format("the {:.0f} values {} keeps of {}'s regions", values, whose, r.workload->name()),
            values * bytes_each);
}

/// The bytes a policy's trace keeps per recorded value: its double and, where a policy names a
/// format wider than binary64, the value's exact MPFR copy (TraceRegion::wide_values) at the widest
/// such format's precision (an upper bound: only a wide format's regions keep copies).
struct PolicyValue {
    double bytes = sizeof(double);
    std::string wide_format;  ///< the widest format wider than binary64; empty without one
};
PolicyValue policy_value(const std::vector<PrecisionPolicy>& policies) {
    int widest = 0;
    PolicyValue value;
    auto consider = [&](const core::FormatSpec& f) {
        if (!core::is_wider_than_binary64(f) || f.mantissa_bits + 1 <= widest) return;
        widest = f.mantissa_bits + 1;
        value.wide_format = f.name;
    };
    for (const PrecisionPolicy& policy : policies) {
        for (const core::FormatRounding& role : policy.roles) consider(role.format);
        for (const PrecisionPolicy::Override& o : policy.overrides) consider(o.rounding.format);
        if (policy.autocast) consider(policy.autocast->format);
    }
    if (widest > 0) value.bytes += core::mpfr_number_bytes(widest);
    return value;
}

/// What one region's report rows hold: about 64 rows of about 640 bytes (the row and its strings,
/// and the CLI summary's and the writers' copies), as measured on overflow-demo and
/// iterative-refinement, whose regions hold few values.
constexpr double region_row_bytes = 64 * 640;

/// Checks the report rows of the regions of `r` (Workload::recorded_regions).
void require_region_rows(const RunRequest& r) {
    const double regions = r.workload->recorded_regions(r.parameters);
    if (regions > 0)
        core::require_memory(fmt::format("the report rows of the {:.0f} regions of {}", regions, r.workload->name()),
                             regions * region_row_bytes);
}

/// The bytes that `check` allows (core::MemoryTally).
template <typename Check>
double stated_bytes(const Check& check) {
    const core::MemoryTally tally;
    check();
    return std::min(tally.bytes(), 0x1p63);
}

}  // namespace

MemoryEstimate memory_estimate(const RunRequest& r) {
    MemoryEstimate estimate;
    estimate.policy = stated_bytes([&] {
        r.workload->check(r.parameters);
        // Policies run one at a time: what the most demanding one adds.
        double most = 0;
        for (const PrecisionPolicy& policy : r.policies)
            most = std::max(most, stated_bytes([&] { r.workload->check_policy(r.parameters, policy); }));
        if (most > 0) core::require_memory(fmt::format("the numbers of {}'s widest policy", r.workload->name()), most);
        const PolicyValue value = policy_value(r.policies);
        require_recorded(r, value.bytes,
                         value.wide_format.empty()
                             ? std::string("a policy's trace")
                             : "a policy's trace (as doubles and as exact " + value.wide_format + " values)");
        require_region_rows(r);
    });
    if (r.ground_truth && r.workload->has_ground_truth())
        estimate.truth = stated_bytes([&] {
            const int bits = chosen_truth_precision(r.mpfr_precision, r.policies);
            r.workload->check_ground_truth(r.parameters, bits);
            // An upper bound: the truth measures and drops each region as it makes it (engine.cpp),
            // but a workload declares only the values of all its regions together.
            require_recorded(r, core::mpfr_number_bytes(bits), "the ground truth");
        });
    return estimate;
}

}  // namespace floatscope::emu
