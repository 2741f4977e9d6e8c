// The options `run` and `sweep` share: policies, parameters, ground truth, threads, report files, progress.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/atomic_file.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/simulation/report.hpp"
#include "emulation/simulation/run_control.hpp"
#include "emulation/simulation/workload.hpp"

namespace floatscope::cli {

/// The options as typed; they are checked when used, so that the library's errors (with the valid
/// choices) reach the user.
struct SimulationOptions {
    std::string workload;
    std::vector<std::string> formats;  ///< --formats a,b: one uniform policy each
    std::vector<std::string> policies;  ///< --policy TEXT, repeatable: parse_policy
    std::vector<std::string> assignments;  ///< --set name=value, repeatable
    int mpfr_precision = 0;  ///< 0: chosen (emu::chosen_truth_precision)
    bool no_ground_truth = false;
    int threads = 0;  ///< 0: every core
    std::string csv;  ///< file, "-" for stdout, empty for none
    std::string json;
    bool progress = false;
};

void add_simulation_options(CLI::App& command, SimulationOptions& options);

/// The --formats and --policy policies in that order; when none is given, fp32, bf16, fp16, fp8_e4m3,
/// or fp32 alone for a workload whose results do not depend on the policy (Workload::uses_policy).
std::vector<emu::PrecisionPolicy> chosen_policies(const SimulationOptions& options, const emu::Workload& workload);

/// --threads, or every core the machine reports.
int thread_count(const SimulationOptions& options);

/// Throws floatscope::Error when --csv and --json both ask for stdout.
void check_outputs(const std::string& csv, const std::string& json);

/// The --csv and --json outputs written as the rows come (emu::ReportWriter), so that a sweep
/// need not hold its rows: a file appears whole at commit() or not at all (destroyed uncommitted,
/// an existing file stays as it was); "-" writes to `out` as it goes.
class ReportOutputs {
public:
    ReportOutputs(const std::string& csv, const std::string& json, std::ostream& out);
    bool empty() const { return outputs_.empty(); }  ///< neither was given
    void begin(const emu::Report& metadata);
    void write(const std::vector<emu::ReportRow>& rows);
    /// Ends the documents and puts the files in place; returns whether a report went to `out`.
    bool commit();

private:
    struct Output {
        emu::ReportWriter::Form form;
        std::unique_ptr<core::AtomicFile> file;  ///< null: to `out`
        std::optional<emu::ReportWriter> writer;
    };
    std::ostream& out_;
    std::vector<Output> outputs_;
};

/// Writes the report to the --csv and --json files (each all at once, or not at all) or to `out`
/// for "-"; returns whether a report went to `out` (then no summary table follows it).
bool write_report_files(const emu::Report& report, const std::string& csv, const std::string& json, std::ostream& out);

/// A report file as floatscope-cli writes it: JSON when it starts with '{', CSV otherwise; errors
/// name the file.
emu::Report read_report_file(const std::string& path);

/// A progress callback printing "[ 42%] bf16: layer 3 of 16" lines on stderr, at most a few a
/// second, when stderr is a terminal or `forced`; thread-safe. Empty when nothing is to be shown.
emu::RunControl::ProgressCallback progress_printer(bool forced);

}  // namespace floatscope::cli
