// Several finished runs as one report: rows renamed to the runs' numbers in the session.
#include "app/gui/simulator/run_overlay.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace floatscope::gui {

emu::Report overlay_runs(const std::vector<std::pair<int, const emu::Report*>>& runs) {
    emu::Report overlay;
    for (const auto& [number, report] : runs) {
        if (overlay.floatscope_version.empty()) {
            overlay.floatscope_version = report->floatscope_version;
            overlay.created = report->created;
        }
        // The report's own run ids, in order of first appearance, each to its new name.
        std::map<std::string, std::string> renamed;
        std::vector<std::string> ids;
        for (const emu::RunInfo& info : report->runs) ids.push_back(info.run);
        for (const emu::ReportRow& row : report->rows)
            if (std::find(ids.begin(), ids.end(), row.run) == ids.end()) ids.push_back(row.run);
        for (std::size_t i = 0; i < ids.size(); ++i)
            renamed[ids[i]] = std::to_string(number) + (ids.size() > 1 ? "." + std::to_string(i + 1) : "");
        for (emu::RunInfo info : report->runs) {
            info.run = renamed.at(info.run);
            overlay.runs.push_back(std::move(info));
        }
        for (emu::ReportRow row : report->rows) {
            row.run = renamed.at(row.run);
            overlay.rows.push_back(std::move(row));
        }
    }
    return overlay;
}

}  // namespace floatscope::gui
