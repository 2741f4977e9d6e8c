// Test helper: one emulated run of a registered workload under a policy, its trace returned.
#pragma once

#include <string>
#include <vector>

#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::test {

inline emu::Trace run_workload(const std::string& workload_name, const std::string& policy,
                               const std::vector<std::string>& assignments) {
    const emu::Workload& workload = emu::find_workload(workload_name);
    emu::Trace trace;
    emu::RunControl control;
    workload.run(emu::Parameters::parse(workload.parameters(), assignments), emu::parse_policy(policy), trace, control);
    return trace;
}

}  // namespace floatscope::test
