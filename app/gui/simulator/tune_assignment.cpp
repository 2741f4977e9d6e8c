// The recommended policy resolved per unit, as the workload's own policy units select them.
#include "app/gui/simulator/tune_assignment.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::gui {

namespace {

/// The kind of policy unit whose names are the sensitivity table's (a report does not name it).
std::vector<emu::PolicyUnit> units_named(const emu::Workload& workload, const emu::Parameters& parameters,
                                         const std::vector<std::string>& names) {
    for (const std::string& kind : workload.policy_unit_kinds()) {
        std::vector<emu::PolicyUnit> units = workload.policy_units(parameters, kind);
        const bool all = std::all_of(names.begin(), names.end(), [&](const std::string& name) {
            return name == "matmul" || name == "weights" ||
                   std::any_of(units.begin(), units.end(), [&](const emu::PolicyUnit& u) { return u.name == name; });
        });
        if (all) return units;
    }
    return {};
}

std::string setting_of(const emu::PrecisionPolicy& policy, const emu::PolicyUnit& unit, int unit_count) {
    const core::FormatRounding& whole = policy.at(emu::Role::Output);
    if (unit.clause == "layers") return policy.at(emu::Role::Output, std::stoi(unit.entry), unit_count).format.name;
    if (unit.clause == "ops") return policy.at(emu::Role::Output, emu::GraphNode{unit.entry, ""}, whole).format.name;
    if (unit.clause == "nodes") return policy.at(emu::Role::Output, emu::GraphNode{"", unit.entry}, whole).format.name;
    throw Error("unit '" + unit.name + "' is selected by clause '" + unit.clause +
                "', which the assignment strip cannot read");
}

}  // namespace

std::vector<UnitSetting> recommended_assignment(const plots::TuneOutcome& outcome) {
    const plots::TunedConfiguration* recommended = outcome.recommended();
    if (!recommended) return {};
    const emu::Workload& workload = emu::find_workload(outcome.workload);
    std::vector<std::string> assignments;
    for (const auto& [name, value] : outcome.parameters) assignments.push_back(name + "=" + value);
    const emu::Parameters parameters = emu::Parameters::parse(workload.parameters(), assignments);
    const emu::PrecisionPolicy policy = emu::parse_policy(recommended->policy);

    std::vector<std::string> names = outcome.units();
    if (names.empty()) names.push_back("the run");  // nothing cheaper was tried: the reference alone
    const std::vector<emu::PolicyUnit> units = units_named(workload, parameters, names);
    std::vector<UnitSetting> settings;
    for (const std::string& name : names) {
        if (name == "matmul")
            settings.push_back({name, policy.matmul_preset.empty() ? "own formats" : policy.matmul_preset});
        else if (name == "weights")
            settings.push_back({name, policy.weight_quantization.empty() ? "none" : policy.weight_quantization});
        else if (const auto unit =
                     std::find_if(units.begin(), units.end(), [&](const emu::PolicyUnit& u) { return u.name == name; });
                 unit != units.end())
            settings.push_back({name, setting_of(policy, *unit, static_cast<int>(units.size()))});
        else  // the run as one unit (gemm, sum): the format it writes
            settings.push_back({name, policy.at(emu::Role::Output).format.name});
    }
    return settings;
}

}  // namespace floatscope::gui
