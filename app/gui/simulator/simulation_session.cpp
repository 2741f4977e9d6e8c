// Sessions as JSON with nlohmann-json; the reports inside use the engine's own JSON form.
#include "app/gui/simulator/simulation_session.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/json_input.hpp"

namespace floatscope::gui {

namespace {

using nlohmann::json;

constexpr const char* format_tag = "floatscope-session";
constexpr int format_version = 1;

json setup_json(const RunSetup& setup) {
    json policies = json::array();
    for (const PolicyEntry& entry : setup.policies) {
        json parameters = json::array();
        for (const auto& [name, value] : entry.parameters) parameters.push_back({name, value});
        policies.push_back({{"policy", entry.text}, {"parameters", parameters}});
    }
    return {{"workload", setup.workload}, {"parameters", setup.parameters}, {"policies", policies}};
}

RunSetup setup_from(const json& j) {
    RunSetup setup;
    setup.workload = j.at("workload").get<std::string>();
    setup.parameters = j.at("parameters").get<std::map<std::string, std::string>>();
    for (const json& entry : j.at("policies")) {
        PolicyEntry policy{entry.at("policy").get<std::string>(), {}};
        for (const json& pair : entry.at("parameters"))
            policy.parameters.emplace_back(pair.at(0).get<std::string>(), pair.at(1).get<std::string>());
        setup.policies.push_back(std::move(policy));
    }
    return setup;
}

}  // namespace

std::string session_json(const Session& session) {
    json runs = json::array();
    for (const FinishedRun& run : session.runs) {
        std::ostringstream report;
        emu::write_json(run.report, report);
        runs.push_back({{"title", run.title}, {"setup", setup_json(run.setup)}, {"report", json::parse(report.str())}});
    }
    json j = {
        {"format", format_tag}, {"version", format_version}, {"setup", setup_json(session.setup)}, {"runs", runs}};
    if (!session.lab.empty()) j["lab"] = session.lab;
    return j.dump(1) + "\n";
}

Session parse_session(std::string_view text) {
    json j;
    try {
        j = core::parse_bounded_json<json>(text, "session");
    } catch (const json::exception& e) {
        throw Error(std::string("not a session: not JSON (") + e.what() + ")");
    }
    // Compared as JSON: value("format", "") would throw a json exception for a non-string tag.
    if (!j.is_object() || !j.contains("format") || j.at("format") != format_tag)
        throw Error(std::string("not a session: no \"format\": \"") + format_tag + "\"");
    try {
        // Compared as JSON too: get<int>() of a number beyond int's range is undefined behaviour.
        if (j.at("version") != format_version)
            throw Error("session version " + j.at("version").dump() +
                        " is not supported; this FloatScope reads version " + std::to_string(format_version));
        Session session;
        session.setup = setup_from(j.at("setup"));
        for (const json& run : j.at("runs")) {
            std::istringstream report(run.at("report").dump());
            session.runs.push_back(
                {run.at("title").get<std::string>(), setup_from(run.at("setup")), emu::read_json(report)});
        }
        if (j.contains("lab")) session.lab = j.at("lab").get<std::string>();
        return session;
    } catch (const json::exception& e) {
        throw Error(std::string("bad session: ") + e.what());
    }
}

void save_session(const Session& session, const std::filesystem::path& path) {
    core::write_file_atomically(path, session_json(session));
}

Session load_session(const std::filesystem::path& path) {
    const std::string text = core::read_input_file(path, "session");
    try {
        return parse_session(text);
    } catch (const Error& e) {
        throw Error("'" + path.string() + "': " + e.what());
    }
}

}  // namespace floatscope::gui
