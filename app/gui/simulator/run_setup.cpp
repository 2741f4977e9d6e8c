// From the runner's settings to engine requests, checked before anything runs.
#include "app/gui/simulator/run_setup.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::gui {

namespace {

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_assignments(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> assignments;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = trimmed(text.substr(start, comma - start));
        start = comma + 1;
        if (item.empty()) continue;
        const auto equals = item.find('=');
        if (equals == std::string::npos || equals == 0)
            throw Error("parameter override '" + item + "' is not name=value (e.g. loss-scaling=false)");
        assignments.emplace_back(trimmed(item.substr(0, equals)), trimmed(item.substr(equals + 1)));
    }
    return assignments;
}

std::string describe_assignments(const std::vector<std::pair<std::string, std::string>>& assignments) {
    std::string text;
    for (const auto& [name, value] : assignments) text += (text.empty() ? "" : ", ") + name + "=" + value;
    return text;
}

std::optional<std::string> policy_refusal(const std::string& workload, const PolicyEntry& entry) {
    const emu::Workload& chosen = emu::find_workload(workload);
    try {
        return emu::policy_refusal(chosen, emu::parse_policy(entry.text));
    } catch (const Error&) {
        return std::nullopt;
    }
}

std::vector<emu::RunRequest> build_requests(const RunSetup& setup, int threads, std::vector<std::string>* left_out) {
    const emu::Workload& workload = emu::find_workload(setup.workload);
    if (setup.policies.empty()) throw Error("no policy to run; add one (or a preset) to the list");
    std::vector<emu::RunRequest> requests;
    std::vector<std::vector<std::pair<std::string, std::string>>> overrides_of_request;
    std::vector<std::string> refused;
    for (const PolicyEntry& entry : setup.policies) {
        emu::PrecisionPolicy policy;
        try {
            policy = emu::parse_policy(entry.text);
        } catch (const Error& e) {
            throw Error("policy '" + entry.text + "': " + e.what());
        }
        if (const std::optional<std::string> refusal = emu::policy_refusal(workload, policy)) {
            refused.push_back(policy.name + ": " + *refusal);
            continue;
        }
        const auto found = std::find(overrides_of_request.begin(), overrides_of_request.end(), entry.parameters);
        if (found != overrides_of_request.end()) {
            requests[static_cast<std::size_t>(found - overrides_of_request.begin())].policies.push_back(
                std::move(policy));
            continue;
        }
        std::map<std::string, std::string> values = setup.parameters;
        for (const auto& [name, value] : entry.parameters) values[name] = value;
        emu::RunRequest request;
        request.workload = &workload;
        try {
            request.parameters = emu::Parameters::from_map(workload.parameters(), values);
            workload.check(request.parameters);
        } catch (const Error& e) {
            if (entry.parameters.empty()) throw;
            throw Error("policy '" + entry.text + "' with " + describe_assignments(entry.parameters) + ": " + e.what());
        }
        request.policies.push_back(std::move(policy));
        request.threads = threads;
        request.run_id = std::to_string(requests.size() + 1);
        requests.push_back(std::move(request));
        overrides_of_request.push_back(entry.parameters);
    }
    if (requests.empty()) throw Error("no policy applies to " + setup.workload + ": " + refused.front());
    if (left_out != nullptr) *left_out = std::move(refused);
    return requests;
}

emu::Report execute(const std::vector<emu::RunRequest>& requests, int threads, emu::RunControl& control) {
    if (requests.size() == 1) return emu::run(requests.front(), control);
    return emu::run_all(requests, threads, control);
}

}  // namespace floatscope::gui
