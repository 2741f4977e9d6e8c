// `fpcore FILE...`: FPCore benchmarks under formats against the MPFR ground truth; a table of
// errors per benchmark and format, the tidy report as CSV or JSON.
#include <climits>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "app/cli/commands.hpp"
#include "app/cli/format_name.hpp"
#include "app/cli/number_option.hpp"
#include "app/cli/split_list.hpp"
#include "app/cli/table.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/input_file.hpp"
#include "emulation/fpcore/runner.hpp"
#include "emulation/fpcore/truth_domain.hpp"

namespace floatscope::cli {

namespace {

struct FPCoreCommandOptions {
    std::vector<std::string> files;
    std::string formats = "fp64,fp32,bf16,fp16";
    int samples = 256;
    std::uint64_t seed = 1;
    int mpfr_precision = 0;  ///< 0: automatic (emu::fpcore::RunOptions)
    std::vector<std::string> inputs;
    std::string inputs_csv;
    std::string override_mode = "all";
    long long max_iterations = emu::fpcore::EvaluationLimits{}.max_iterations;
    long long endless_loop_iterations = emu::fpcore::EvaluationLimits{}.endless_loop_iterations;
    double time_limit = 60;
    int threads = 0;
    std::string csv;
    std::string json;
    double check_coverage = -1;
};

/// "x=1.5,y=2" as one input point.
emu::fpcore::InputPoint parse_input(const std::string& text) {
    emu::fpcore::InputPoint point;
    for (const std::string& assignment : split_list(text, ',')) {
        const auto equals = assignment.find('=');
        if (equals == std::string::npos || equals == 0 || equals + 1 == assignment.size())
            throw Error("--input '" + text +
                        "': expected name=value pairs separated by commas, e.g. --input x=1.5,y=2");
        point.emplace_back(assignment.substr(0, equals), assignment.substr(equals + 1));
    }
    return point;
}

/// A CSV of points: a header of argument names, then one row of values per point.
std::vector<emu::fpcore::InputPoint> read_inputs_csv(const std::string& path) {
    std::istringstream in(core::read_input_file(path, "--inputs-csv file"));
    std::string line;
    std::vector<std::string> header;
    std::vector<emu::fpcore::InputPoint> points;
    int line_number = 0;
    while (std::getline(in, line)) {
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::vector<std::string> fields = split_list(line, ',');
        if (header.empty()) {
            header = fields;
            continue;
        }
        if (fields.size() != header.size())
            throw Error(fmt::format("{}:{}: {} values for {} columns ({})", path, line_number, fields.size(),
                                    header.size(), fmt::join(header, ",")));
        emu::fpcore::InputPoint point;
        for (std::size_t i = 0; i < fields.size(); ++i) point.emplace_back(header[i], fields[i]);
        points.push_back(std::move(point));
    }
    if (points.empty()) throw Error("--inputs-csv file '" + path + "' has no rows of values below its header");
    return points;
}

std::string number(double x, int decimals) { return std::isnan(x) ? "-" : fmt::format("{:.{}f}", x, decimals); }

int run_fpcore(std::ostream& out, const FPCoreCommandOptions& options) {
    emu::fpcore::RunOptions run;
    for (const std::string& name : split_list(options.formats, ',')) run.formats.push_back(parse_scalar_format(name));
    run.samples = options.samples;
    run.seed = options.seed;
    run.mpfr_precision = options.mpfr_precision;
    run.override_mode = emu::fpcore::parse_override_mode(options.override_mode);
    run.limits.max_iterations = options.max_iterations;
    run.limits.endless_loop_iterations = options.endless_loop_iterations;
    run.limits.max_seconds = options.time_limit;
    run.seconds_per_benchmark = options.time_limit;
    for (const std::string& input : options.inputs) run.inputs.push_back(parse_input(input));
    if (!options.inputs_csv.empty()) {
        const auto points = read_inputs_csv(options.inputs_csv);
        run.inputs.insert(run.inputs.end(), points.begin(), points.end());
    }
    run.threads =
        options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

    // A file that cannot be read or parsed is reported in its row (its error names line and column)
    // and the others run; only when none can be read is there nothing to run.
    std::vector<std::vector<emu::fpcore::FPCore>> files;
    std::vector<emu::fpcore::Outcome> unreadable;
    for (const std::string& file : options.files) {
        try {
            files.push_back(emu::fpcore::read_fpcore_file(file));
        } catch (const Error& e) {
            if (options.files.size() == 1) throw;
            unreadable.push_back(emu::fpcore::unreadable_file(file, e.what(), run));
            std::cerr << "floatscope-cli: " << e.what() << " (file skipped)" << std::endl;
        }
    }
    if (files.empty()) throw Error(unreadable.front().error);
    const std::vector<emu::fpcore::Benchmark> benchmarks = emu::fpcore::list_benchmarks(files);
    std::vector<emu::fpcore::Outcome> outcomes = emu::fpcore::run_benchmarks(benchmarks, run);
    TextTable table({"benchmark", "format", "samples", "bits_avg", "bits_max", "nan", "inf", "status"});
    std::vector<bool> evaluated(benchmarks.size(), true);
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const emu::fpcore::Outcome& o = outcomes[i];
        const bool ok = o.error.empty();
        if (!ok) evaluated[i / run.formats.size()] = false;
        std::string status = ok ? std::string("ok") : std::string("error: ").append(o.error);
        if (ok && o.budget_exceeded > 0)
            status = fmt::format("ok ({} points did not end within the iteration budget)", o.budget_exceeded);
        if (ok && o.truth_unsettled > 0)
            status += fmt::format(" (the ground truth did not settle at {} point{}, at {} bits)", o.truth_unsettled,
                                  o.truth_unsettled == 1 ? "" : "s", o.truth_precision_max);
        if (ok && o.spread == emu::fpcore::Spread::Value)
            status += " (uniform in value: :pre rejects float-uniform draws)";
        table.add_row({o.workload, o.format, ok ? std::to_string(o.samples) : "-",
                       ok ? number(o.bits_error_avg, 2) : "-", ok ? number(o.bits_error_max, 2) : "-",
                       ok ? std::to_string(o.nan) : "-", ok ? std::to_string(o.inf) : "-", status});
    }
    for (const emu::fpcore::Outcome& o : unreadable)
        table.add_row({o.workload, o.format, "-", "-", "-", "-", "-", "error: " + o.error});
    table.print(out);
    // An unreadable file counts as one FPCore that did not evaluate (its count is unknown).
    const auto count = static_cast<std::size_t>(std::count(evaluated.begin(), evaluated.end(), true));
    const std::size_t total = benchmarks.size() + unreadable.size();
    const double coverage = total == 0 ? 1.0 : static_cast<double>(count) / static_cast<double>(total);
    out << fmt::format("{} of {} FPCores evaluated under every format ({:.1f}%)", count, total, 100 * coverage);
    if (!unreadable.empty()) out << fmt::format("; {} file(s) could not be read", unreadable.size());
    out << "\n";
    outcomes.insert(outcomes.end(), unreadable.begin(), unreadable.end());

    const emu::Report report = emu::fpcore::make_report(outcomes, run, options.files);
    if (!options.csv.empty()) {
        std::ostringstream text;
        emu::write_csv(report, text);
        core::write_file_atomically(options.csv, text.str());
    }
    if (!options.json.empty()) {
        std::ostringstream text;
        emu::write_json(report, text);
        core::write_file_atomically(options.json, text.str());
    }
    if (options.check_coverage >= 0) {
        if (coverage >= options.check_coverage) return 0;
        std::cerr << fmt::format("floatscope-cli: coverage {:.3f} is below --check-coverage {:.3f}\n", coverage,
                                 options.check_coverage);
        return 1;
    }
    // Without a coverage to meet, the exit status says whether anything failed.
    return count == total ? 0 : 1;
}

}  // namespace

Command add_fpcore_command(CLI::App& parent) {
    auto options = std::make_shared<FPCoreCommandOptions>();
    CLI::App* command = parent.add_subcommand("fpcore",
                                              "run FPCore 2.0 benchmarks under formats against the MPFR ground truth "
                                              "(bits of error as Herbie measures them)");
    command->add_option("FILE", options->files, "FPCore files (.fpcore)")->required();
    command->add_option("--formats", options->formats, "comma-separated binary formats, one policy each")
        ->capture_default_str();
    // Samples are streamed into statistics, so their count costs time (bounded by --time-limit), not memory.
    command->add_option("--samples", options->samples, "sampled input points per benchmark and format")
        ->capture_default_str()
        ->check(whole_number_in(1, INT_MAX));
    command->add_option("--seed", options->seed, "seed of the input sampling")
        ->capture_default_str()
        ->check(whole_number_in(0, UINT64_MAX));
    command
        ->add_option("--mpfr-precision", options->mpfr_precision,
                     "bits the MPFR ground truth starts with (default: 2p + 30 of the widest format, 256 at least; "
                     "doubled per point until its result settles)")
        ->check(whole_number_in(64, emu::fpcore::Real::max_precision));
    command->add_option("--input", options->inputs, "an input point instead of sampling, e.g. x=1.5,y=2 (repeatable)");
    command->add_option("--inputs-csv", options->inputs_csv,
                        "CSV of input points: header of argument names, one row per point");
    command
        ->add_option(
            "--override", options->override_mode,
            "which precisions of the program the format replaces: all, top (the program's :precision), bang (! blocks)")
        ->capture_default_str();
    command->add_option("--max-iterations", options->max_iterations, "loop iterations allowed per evaluation")
        ->capture_default_str()
        ->check(whole_number_in(1, LLONG_MAX));
    command
        ->add_option("--endless-loop-iterations", options->endless_loop_iterations,
                     "iterations of a (while TRUE ...) loop, whose result is taken there")
        ->capture_default_str()
        ->check(whole_number_in(1, LLONG_MAX));
    command->add_option("--time-limit", options->time_limit, "CPU seconds allowed per benchmark and format")
        ->capture_default_str()
        ->check(number_in(0.001, 1e9));
    command->add_option("--threads", options->threads, "benchmarks evaluated in parallel (default: all cores)")
        ->check(whole_number_in(1, max_threads));
    add_memory_limit_option(*command);
    command->add_option("--csv", options->csv, "write the tidy report as CSV (the same columns as run)");
    command->add_option("--json", options->json, "write the report as JSON");
    command
        ->add_option("--check-coverage", options->check_coverage,
                     "exit 1 when fewer than this fraction of the FPCores evaluate under every format (e.g. 0.95)")
        ->check(number_in(0, 1));
    return {command, [options](std::ostream& out) { return run_fpcore(out, *options); }};
}

}  // namespace floatscope::cli
