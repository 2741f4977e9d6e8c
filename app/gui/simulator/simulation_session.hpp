// The simulator session: the runner's setup and the finished runs, saved to and read from JSON.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/simulator/run_setup.hpp"
#include "emulation/simulation/report.hpp"

namespace floatscope::gui {

/// A finished run: what was asked for and the report the engine wrote.
struct FinishedRun {
    std::string title;  ///< "mlp-forward: fp32, bf16, ... (19:24:03)"
    RunSetup setup;
    emu::Report report;
    friend bool operator==(const FinishedRun&, const FinishedRun&) = default;
};

struct Session {
    RunSetup setup;  ///< what the runner shows
    std::vector<FinishedRun> runs;  ///< oldest first
    /// The format lab's state as a view link (app/gui/lab/view_link.hpp); empty in files from
    /// before sessions kept it, which load as they did.
    std::string lab;
    friend bool operator==(const Session&, const Session&) = default;
};

/// JSON: {"format": "floatscope-session", "version": 1, "setup": {...}, "runs": [{"title", "setup",
/// "report": <the report as emu::write_json writes it>}], "lab": "<view link>"}; "lab" is optional.
std::string session_json(const Session& session);
/// Reads what session_json writes; throws floatscope::Error saying what is wrong (not JSON, not a
/// session, a missing or mistyped field, a bad report).
Session parse_session(std::string_view json);

/// session_json written all at once (core/atomic_file.hpp); throws floatscope::Error.
void save_session(const Session& session, const std::filesystem::path& path);
/// Throws floatscope::Error naming the file when it cannot be read or is not a session.
Session load_session(const std::filesystem::path& path);

}  // namespace floatscope::gui
