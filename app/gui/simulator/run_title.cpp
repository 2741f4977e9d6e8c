// The title of a finished run: its number, workload, non-default parameters and policies.
#include "app/gui/simulator/run_title.hpp"

#include <filesystem>

#include "core/error.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::gui {
namespace {

/// The defaults of the workload's parameters; none for a workload this build does not have (a
/// session from another version), whose parameters are then all listed.
std::map<std::string, std::string> defaults_of(const std::string& workload) {
    std::map<std::string, std::string> defaults;
    try {
        for (const emu::ParameterSpec& spec : emu::find_workload(workload).parameters())
            defaults.emplace(spec.name, spec.default_value);
    } catch (const Error&) {
    }
    return defaults;
}

/// A path by its file name: the folder is rarely what tells two runs apart, and would fill the line.
std::string shown_value(const std::string& value) {
    if (value.find('/') == std::string::npos) return value;
    const std::string name = std::filesystem::path(value).filename().string();
    return name.empty() ? value : name;
}

}  // namespace

std::string run_title(const RunSetup& setup, int number, const std::string& time) {
    const std::map<std::string, std::string> defaults = defaults_of(setup.workload);
    std::vector<std::pair<std::string, std::string>> changed;
    for (const auto& [name, value] : setup.parameters) {
        const auto found = defaults.find(name);
        if (found == defaults.end() || found->second != value) changed.emplace_back(name, shown_value(value));
    }
    std::string title = "#" + std::to_string(number) + "  " + setup.workload;
    if (!changed.empty()) title += " (" + describe_assignments(changed) + ")";
    std::string policies;
    for (const PolicyEntry& entry : setup.policies) {
        std::string name;
        try {
            name = emu::parse_policy(entry.text).name;
        } catch (const Error&) {
            name = entry.text;  // a session's policy this build cannot read: as it was typed
        }
        if (!entry.parameters.empty()) name += " (" + describe_assignments(entry.parameters) + ")";
        policies += (policies.empty() ? "" : ", ") + name;
    }
    if (!policies.empty()) title += ": " + policies;
    return time.empty() ? title : title + "  " + time;
}

}  // namespace floatscope::gui
