// The options `run` and `sweep` share, and what they turn into: policies, report files, progress lines.
#include "app/cli/simulation_options.hpp"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "app/cli/format_name.hpp"
#include "app/cli/number_option.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/input_file.hpp"

namespace floatscope::cli {

void add_simulation_options(CLI::App& command, SimulationOptions& options) {
    command.add_option("WORKLOAD", options.workload, "a built-in workload (floatscope-cli list shows them)")
        ->required();
    command
        .add_option("--formats", options.formats,
                    "formats a,b,...: one policy each, every role in that format (F@R picks the rounding)")
        ->delimiter(',');
    command.add_option("--policy", options.policies,
                       "a precision policy, repeatable: 'fp16; accumulate=fp32', 'fp8_e4m3; layers 0,-1 = bf16', "
                       "'bf16; matmul = bf16_fp32' (default with neither: fp32, bf16, fp16, fp8_e4m3)");
    command.add_option("--set", options.assignments, "a workload parameter name=value, repeatable");
    command.add_option("--mpfr-precision", options.mpfr_precision, "bits of the MPFR ground truth (default: 256, or 2p + 30 for the widest format's p when more; "
                       "less than that is refused)")
        ->check(
            whole_number_in(53, 65536));  // the engine's range (emulation/simulation/engine.cpp), checked here as text
    command.add_flag("--no-ground-truth", options.no_ground_truth, "skip the MPFR run: no error rows, value rows only");
    command.add_option("--threads", options.threads, "threads for the runs (default: every core)")
        ->check(whole_number_in(1, max_threads));
    add_memory_limit_option(command);
    command.add_option("--csv", options.csv, "write the report as CSV to this file ('-': stdout)");
    command.add_option("--json", options.json, "write the report as JSON to this file ('-': stdout)");
    command.add_flag("--progress", options.progress, "progress lines on stderr even when it is not a terminal");
}

std::vector<emu::PrecisionPolicy> chosen_policies(const SimulationOptions& options, const emu::Workload& workload) {
    std::vector<emu::PrecisionPolicy> policies;
    for (const std::string& entry : options.formats) {
        const auto at = entry.rfind('@');
        const core::RoundingMode mode =
            at == std::string::npos ? core::RoundingMode::NearestEven : core::parse_rounding_mode(entry.substr(at + 1));
        policies.push_back(emu::uniform_policy(parse_scalar_format(entry.substr(0, at)), mode));
    }
    for (const std::string& text : options.policies) policies.push_back(emu::parse_policy(text));
    if (policies.empty() && !workload.uses_policy())
        policies.push_back(emu::uniform_policy(parse_scalar_format("fp32")));
    if (policies.empty())
        for (const char* name : {"fp32", "bf16", "fp16", "fp8_e4m3"})
            policies.push_back(emu::uniform_policy(parse_scalar_format(name)));
    return policies;
}

int thread_count(const SimulationOptions& options) {
    if (options.threads != 0) return options.threads;
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void check_outputs(const std::string& csv, const std::string& json) {
    if (csv == "-" && json == "-") throw Error("--csv - and --json - both ask for stdout; write one of them to a file");
}

emu::Report read_report_file(const std::string& path) {
    const std::string content = core::read_input_file(path, "report");
    std::istringstream text(content);
    const auto first = content.find_first_not_of(" \t\r\n");
    try {
        if (first != std::string::npos && content[first] == '{') return emu::read_json(text);
        return emu::read_csv(text);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

ReportOutputs::ReportOutputs(const std::string& csv, const std::string& json, std::ostream& out) : out_(out) {
    for (const auto& [target, form] :
         {std::pair{csv, emu::ReportWriter::Form::Csv}, std::pair{json, emu::ReportWriter::Form::Json}}) {
        if (target.empty()) continue;
        outputs_.push_back({form, target == "-" ? nullptr : std::make_unique<core::AtomicFile>(target), {}});
    }
}

void ReportOutputs::begin(const emu::Report& metadata) {
    for (Output& o : outputs_) {
        core::AtomicFile* file = o.file.get();
        o.writer.emplace(o.form, metadata, [this, file](std::string_view text) {
            if (file != nullptr)
                file->write(text);
            else
                out_.write(text.data(), static_cast<std::streamsize>(text.size()));
        });
    }
}

void ReportOutputs::write(const std::vector<emu::ReportRow>& rows) {
    for (Output& o : outputs_)
        for (const emu::ReportRow& row : rows) o.writer->write(row);
}

bool ReportOutputs::commit() {
    bool to_stdout = false;
    for (Output& o : outputs_) {
        o.writer->finish();
        if (o.file)
            o.file->commit();
        else
            to_stdout = true;
    }
    return to_stdout;
}

bool write_report_files(const emu::Report& report, const std::string& csv, const std::string& json, std::ostream& out) {
    ReportOutputs outputs(csv, json, out);
    outputs.begin(report);
    outputs.write(report.rows);
    return outputs.commit();
}

emu::RunControl::ProgressCallback progress_printer(bool forced) {
    if (!forced && isatty(STDERR_FILENO) == 0) return {};
    struct State {
        std::mutex mutex;
        std::chrono::steady_clock::time_point last{};
    };
    auto state = std::make_shared<State>();
    return [state](double fraction, const std::string& message) {
        // A line every quarter second at most: enough to see it move, not enough to flood a log.
        constexpr auto interval = std::chrono::milliseconds(250);
        const std::lock_guard<std::mutex> lock(state->mutex);
        const auto now = std::chrono::steady_clock::now();
        if (now - state->last < interval) return;
        state->last = now;
        std::cerr << fmt::format("[{:3.0f}%] {}\n", 100 * fraction, message) << std::flush;
    };
}

}  // namespace floatscope::cli
