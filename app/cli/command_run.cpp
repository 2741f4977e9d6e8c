// `run WORKLOAD`: one workload under several precision policies against its MPFR ground truth.
#include <memory>

#include "app/cli/commands.hpp"
#include "app/cli/report_summary.hpp"
#include "app/cli/simulation_options.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::cli {

namespace {

int run_workload(std::ostream& out, const SimulationOptions& options) {
    // Everything the user typed is checked before the first run starts.
    emu::RunRequest request;
    request.workload = &emu::find_workload(options.workload);
    request.parameters = emu::Parameters::parse(request.workload->parameters(), options.assignments);
    request.policies = chosen_policies(options, *request.workload);
    request.ground_truth = !options.no_ground_truth;
    request.mpfr_precision = options.mpfr_precision;
    request.threads = thread_count(options);
    check_outputs(options.csv, options.json);

    emu::RunControl control(progress_printer(options.progress));
    const emu::Report report = emu::run(request, control);
    if (!write_report_files(report, options.csv, options.json, out)) print_report_summary(report, out);
    return 0;
}

}  // namespace

Command add_run_command(CLI::App& parent) {
    auto options = std::make_shared<SimulationOptions>();
    CLI::App* command = parent.add_subcommand(
        "run",
        "run a workload under precision policies against its MPFR ground truth; a summary on stdout, "
        "the full report with --csv/--json");
    add_simulation_options(*command, *options);
    return {command, [options](std::ostream& out) { return run_workload(out, *options); }};
}

}  // namespace floatscope::cli
