// `sweep WORKLOAD`: a workload over a grid of parameter values x policies, on every core, as one report;
// `--shard i/N` keeps one deterministic slice of the grid so that a cluster can share it out.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "app/cli/commands.hpp"
#include "app/cli/report_checkpoint.hpp"
#include "app/cli/report_summary.hpp"
#include "app/cli/simulation_options.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/sweep_grid.hpp"
#include "emulation/simulation/truth_precision.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::cli {

namespace {

struct SweepOptions {
    SimulationOptions simulation;
    std::vector<std::string> grid;  ///< name=v1,v2,...
    std::string shard;  ///< i/N, empty for the whole grid
    std::string resume;  ///< the report file the sweep checkpoints into and continues from
};

/// The --grid texts name=v1,v2,... as axes (emu::grid_requests checks them against each other and --set).
std::vector<emu::GridAxis> parse_grid(const std::vector<std::string>& grid) {
    std::vector<emu::GridAxis> axes;
    for (const std::string& text : grid) {
        const auto equals = text.find('=');
        if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
            throw Error("--grid '" + text + "': write name=value1,value2,...");
        emu::GridAxis axis{text.substr(0, equals), {}};
        std::string_view rest = std::string_view(text).substr(equals + 1);
        while (true) {
            const auto comma = rest.find(',');
            axis.values.emplace_back(rest.substr(0, comma));
            if (comma == std::string_view::npos) break;
            rest = rest.substr(comma + 1);
        }
        axes.push_back(std::move(axis));
    }
    return axes;
}

/// What makes shards parts of one sweep, for merge to compare: the workload, the fixed parameters,
/// the grid's axes, the policies, the precision of the truth and the number of points.
std::string sweep_identity(const SimulationOptions& simulation, const std::vector<emu::GridAxis>& axes,
                           const std::vector<emu::PrecisionPolicy>& policies, std::size_t points) {
    std::string text = simulation.workload;
    for (const std::string& assignment : simulation.assignments) text.append(" ").append(assignment);
    for (const emu::GridAxis& axis : axes) text.append(fmt::format(" {}={}", axis.name, fmt::join(axis.values, ",")));
    text.append(" | policies");
    for (const emu::PrecisionPolicy& policy : policies) text.append(" [").append(policy.describe()).append("]");
    text.append(simulation.no_ground_truth
                    ? " | no truth"
                    : fmt::format(" | mpfr {} bits", emu::chosen_truth_precision(simulation.mpfr_precision, policies)));
    return text.append(fmt::format(" | {} points", points));
}

/// "i/N" with 0 <= i < N; {0, 1} for the whole grid.
std::pair<std::size_t, std::size_t> shard_option(const std::string& text) {
    if (text.empty()) return {0, 1};
    try {
        return emu::parse_shard(text);
    } catch (const Error&) {
        throw Error("--shard '" + text + "': write i/N with 0 <= i < N, e.g. --shard 0/4 ... --shard 3/4");
    }
}

/// Throws unless the report `done`, which `--resume path` continues, is of this sweep and shard.
void check_resumed(const emu::Report& done, const std::string& path, const std::string& shard,
                   const std::string& identity) {
    if (done.shard != shard)
        throw Error(fmt::format("--resume {}: the report is {}, this sweep {}; resume it with the same --shard", path,
                                done.shard.empty() ? "a whole sweep" : "shard " + done.shard,
                                shard.empty() ? "the whole grid" : "shard " + shard));
    if (!done.sweep.empty() && done.sweep != identity)
        throw Error(
            fmt::format("--resume {}: the report is of the sweep '{}', this one is '{}'; resume it with "
                        "the same workload, grid and policies",
                        path, done.sweep, identity));
}

/// Takes out of `requests` the grid points that `done` holds already, whose metadata must be theirs.
void drop_done(std::vector<emu::RunRequest>& requests, const emu::Report& done, const std::string& path) {
    std::erase_if(requests, [&](const emu::RunRequest& r) {
        const auto held = std::find_if(done.runs.begin(), done.runs.end(),
                                       [&](const emu::RunInfo& info) { return info.run == r.run_id; });
        if (held == done.runs.end()) return false;
        if (!(*held == emu::run_info(r)))
            throw Error(
                fmt::format("--resume {}: its run {} is not this sweep's grid point {} (other workload, "
                            "parameters, policies or MPFR precision); resume with the same sweep",
                            path, r.run_id, r.run_id));
        return true;
    });
}

/// The sweep of `requests` checkpointed in the report file `path`: grid points whose run the file
/// holds already are skipped (their metadata must be this sweep's), the rest run `threads` at a
/// time, so that a killed sweep loses at most one batch and `--resume` continues from the file.
/// A CSV report grows by each batch (report_checkpoint), so that the sweep writes each row once
/// and holds none until the end; a JSON report is rewritten atomically after every batch.
emu::Report resumed_sweep(const std::string& path, const std::string& shard, const std::string& identity,
                          std::vector<emu::RunRequest> requests, int threads, emu::RunControl& control) {
    emu::Report metadata = emu::run_all({}, threads, control);
    metadata.shard = shard;
    metadata.sweep = identity;
    const auto batch = static_cast<std::size_t>(std::max(1, threads));
    auto batches = [&](auto&& finish) {
        for (std::size_t first = 0; first < requests.size(); first += batch) {
            const std::vector<emu::RunRequest> part(
                requests.begin() + static_cast<std::ptrdiff_t>(first),
                requests.begin() + static_cast<std::ptrdiff_t>(std::min(first + batch, requests.size())));
            finish(emu::run_all(part, threads, control));
        }
    };
    if (!path.ends_with(".json")) {
        emu::Report done = open_csv_checkpoint(
            path, metadata, [&](const emu::Report& held) { check_resumed(held, path, shard, identity); });
        drop_done(requests, done, path);
        std::size_t rows = done.rows.size();
        done = {};  // the file holds them
        batches([&](const emu::Report& finished) {
            append_csv_checkpoint(path, finished, rows);
            rows += finished.rows.size();
        });
        return read_report_file(path);
    }
    const bool resuming = std::filesystem::exists(path);
    emu::Report done = resuming ? read_report_file(path) : metadata;
    if (resuming) check_resumed(done, path, shard, identity);
    drop_done(requests, done, path);
    auto save = [&](emu::Report report) {
        report.shard = shard;
        report.sweep = identity;
        std::ostringstream text;
        emu::write_json(report, text);
        core::write_file_atomically(path, text.str());
    };
    batches([&](emu::Report&& finished) {
        done.shard.clear();  // both halves are this shard: merged as runs, not as shards
        done = done.runs.empty() ? std::move(finished) : emu::merge_reports({std::move(done), std::move(finished)});
        save(done);
    });
    if (requests.empty() && !resuming) save(done);  // a shard beyond the grid's end: a valid, empty report
    return done;
}

int run_sweep(std::ostream& out, const SweepOptions& options) {
    const SimulationOptions& simulation = options.simulation;
    const emu::Workload& workload = emu::find_workload(simulation.workload);
    const std::vector<emu::GridAxis> axes = parse_grid(options.grid);
    const auto [shard, shards] = shard_option(options.shard);
    const std::vector<emu::PrecisionPolicy> policies = chosen_policies(simulation, workload);
    check_outputs(simulation.csv, simulation.json);

    emu::RunRequest base;
    base.workload = &workload;
    base.policies = policies;
    base.ground_truth = !simulation.no_ground_truth;
    base.mpfr_precision = simulation.mpfr_precision;
    const std::vector<emu::RunRequest> requests = emu::grid_requests(base, simulation.assignments, axes, shard, shards);
    const std::size_t points = emu::grid_points(axes);

    emu::RunControl control(progress_printer(simulation.progress));
    // The shard says which it is, so that merge can tell a missing or repeated shard.
    const std::string shard_text = options.shard.empty() ? "" : std::to_string(shard) + "/" + std::to_string(shards);
    const std::string identity = sweep_identity(simulation, axes, policies, points);
    // A shard beyond the grid's end has no runs: its report is valid and empty.
    ReportOutputs outputs(simulation.csv, simulation.json, out);
    if (options.resume.empty() && !outputs.empty()) {
        // Each run's rows go to the files as it finishes: memory stays flat over a long sweep.
        const emu::ReportStream stream{[&](const emu::Report& metadata) {
                                           emu::Report shard_metadata = metadata;
                                           shard_metadata.shard = shard_text;
                                           shard_metadata.sweep = identity;
                                           outputs.begin(shard_metadata);
                                       },
                                       [&](std::vector<emu::ReportRow>&& rows) { outputs.write(rows); }};
        emu::run_all(requests, thread_count(simulation), control, &stream);
        outputs.commit();
        return 0;
    }
    emu::Report report = options.resume.empty() ? emu::run_all(requests, thread_count(simulation), control)
                                                : resumed_sweep(options.resume, shard_text, identity, requests,
                                                                thread_count(simulation), control);
    report.shard = shard_text;
    report.sweep = identity;
    outputs.begin(report);
    outputs.write(report.rows);
    if (!outputs.commit()) print_report_summary(report, out);
    return 0;
}

}  // namespace

Command add_sweep_command(CLI::App& parent) {
    auto options = std::make_shared<SweepOptions>();
    CLI::App* command = parent.add_subcommand(
        "sweep",
        "run a workload over a grid of parameter values (--grid) under each policy, on every core, as one "
        "report; --shard i/N runs one slice of the grid (floatscope-cli merge joins the slices)");
    add_simulation_options(*command, options->simulation);
    command->add_option("--grid", options->grid,
                        "a parameter and its values name=v1,v2,..., repeatable: the grid is "
                        "their Cartesian product, run ids 1..G in order (first --grid slowest)");
    command->add_option("--shard", options->shard, "i/N: only the grid points whose index (from 0) is i modulo N");
    command->add_option("--resume", options->resume,
                        "a report file to checkpoint into and to continue from: grid points it holds already are "
                        "not run again; a CSV report grows by every few grid points (a kill's half-written tail is "
                        "cut back on resuming), a JSON report is rewritten atomically");
    return {command, [options](std::ostream& out) { return run_sweep(out, *options); }};
}

}  // namespace floatscope::cli
