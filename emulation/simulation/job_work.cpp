// The work a run's jobs declare: operations, else recorded values; the truth a multiple of its policies'.
#include "emulation/simulation/job_work.hpp"

#include <algorithm>

namespace floatscope::emu {

double policy_work(const RunRequest& request, const PrecisionPolicy& policy) {
    double work = 0;
    if (const std::optional<core::WorkloadCounts> counts = request.workload->work(request.parameters, policy))
        for (const auto& [format, operations] : counts->operations) work += operations;
    else
        work = request.workload->recorded_values(request.parameters);
    return std::max(work, 1.0);
}

double truth_work(const RunRequest& request, double truth_time_ratio) {
    double most = 1;
    for (const PrecisionPolicy& policy : request.policies) most = std::max(most, policy_work(request, policy));
    return most * truth_time_ratio;
}

}  // namespace floatscope::emu
