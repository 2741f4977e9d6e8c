// `merge SHARD...`: the reports of a sharded sweep (CSV or JSON) as one report.
#include <memory>
#include <sstream>

#include "app/cli/commands.hpp"
#include "app/cli/simulation_options.hpp"
#include "core/error.hpp"
#include "emulation/simulation/report.hpp"

namespace floatscope::cli {

namespace {

struct MergeOptions {
    std::vector<std::string> shards;
    std::string csv;
    std::string json;
    bool allow_missing = false;
};

int merge(std::ostream& out, const MergeOptions& options) {
    check_outputs(options.csv, options.json);
    std::vector<emu::Report> shards;
    for (const std::string& path : options.shards) shards.push_back(read_report_file(path));
    const emu::Report merged = emu::merge_reports(shards, options.allow_missing);
    const bool to_file = !options.csv.empty() || !options.json.empty();
    write_report_files(merged, to_file ? options.csv : "-", options.json, out);
    return 0;
}

}  // namespace

Command add_merge_command(CLI::App& parent) {
    auto options = std::make_shared<MergeOptions>();
    CLI::App* command = parent.add_subcommand(
        "merge",
        "merge the reports of a sharded sweep (CSV or JSON, as run and sweep write them) into one; CSV on "
        "stdout unless --csv/--json say otherwise");
    command->add_option("SHARD", options->shards, "report files, CSV or JSON")->required();
    command->add_option("--csv", options->csv, "write the merged report as CSV to this file ('-': stdout)");
    command->add_option("--json", options->json, "write the merged report as JSON to this file ('-': stdout)");
    command->add_flag("--allow-missing", options->allow_missing,
                      "merge the shards there are when some of the sweep's are missing; the report's metadata "
                      "(missing_shards) lists them");
    return {command, [options](std::ostream& out) { return merge(out, *options); }};
}

}  // namespace floatscope::cli
