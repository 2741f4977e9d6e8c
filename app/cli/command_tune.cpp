// `tune WORKLOAD`: the advisor. The cheapest configuration of the workload's units among the
// candidates that meets the target against the MPFR truth, found by runs (docs/advisor.md).
#include <memory>

#include "app/cli/commands.hpp"
#include "app/cli/number_option.hpp"
#include "app/cli/simulation_options.hpp"
#include "app/cli/tune_summary.hpp"
#include "emulation/advisor/advisor.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::cli {

namespace {

struct TuneOptions {
    std::string workload;
    std::vector<std::string> assignments;
    std::string target;
    std::string candidates;
    std::string unit;
    std::string cost = "bits";
    std::string hardware;
    int budget_runs = 400;
    std::string validate_seed;
    std::string validate_inputs;
    std::vector<std::string> validate_set;
    int mpfr_precision = 256;
    int threads = 0;
    std::string csv, json;
    bool progress = false;
};

int run_tune(std::ostream& out, const TuneOptions& options) {
    emu::TuneRequest request;
    request.workload = &emu::find_workload(options.workload);
    request.assignments = options.assignments;
    request.target = emu::parse_tuning_target(options.target);
    request.candidates = emu::parse_candidate_space(options.candidates);
    request.unit_kind = options.unit;
    request.cost = emu::parse_cost_kind(options.cost);
    request.hardware = options.hardware;
    request.budget_runs = options.budget_runs;
    if (!options.validate_seed.empty()) request.validation_assignments.push_back("seed=" + options.validate_seed);
    if (!options.validate_inputs.empty()) request.validation_assignments.push_back("inputs=" + options.validate_inputs);
    for (const std::string& assignment : options.validate_set) request.validation_assignments.push_back(assignment);
    request.mpfr_precision = options.mpfr_precision;
    SimulationOptions threads;
    threads.threads = options.threads;
    request.threads = thread_count(threads);
    check_outputs(options.csv, options.json);

    emu::RunControl control(progress_printer(options.progress));
    const emu::TuneResult result = emu::tune(request, control);
    const emu::Report report = emu::tune_report(request, result);
    if (!write_report_files(report, options.csv, options.json, out)) print_tune_summary(request, result, out);
    return result.recommended ? 0 : 1;
}

}  // namespace

Command add_tune_command(CLI::App& parent) {
    auto options = std::make_shared<TuneOptions>();
    CLI::App* command = parent.add_subcommand(
        "tune",
        "the advisor: the cheapest precision policy (per layer, node or op type) that meets an accuracy target "
        "against the MPFR truth, every configuration it proposes run; exit 1 when none meets it");
    command->add_option("WORKLOAD", options->workload, "a built-in workload (floatscope-cli list shows them)")
        ->required();
    command->add_option("--set", options->assignments, "a workload parameter name=value, repeatable");
    command
        ->add_option("--target", options->target,
                     "METRIC<=X or METRIC>=X on the outputs: normwise_rel_error<=1e-3, bits_correct>=10, "
                     "test_accuracy>=truth-0.005; always also no NaN or infinity where the truth is finite")
        ->required();
    command
        ->add_option("--candidates", options->candidates,
                     "'fp32,bf16,fp16,fp8_e4m3; accumulate=fp32; matmul=nvidia_h100_fp8_e4m3; weights=int8,nvfp4': "
                     "formats per unit, roles (one format: fixed), presets and weight schemes for the whole run")
        ->required();
    command->add_option("--unit", options->unit, "layer (mlp-forward), op or node (onnx); default: the workload's first");
    command->add_option("--cost", options->cost, "bits (default), bytes, time or energy (the last two with --hardware)");
    command->add_option("--hardware", options->hardware, "an accelerator of resources/hardware.json, for time and energy");
    command->add_option("--budget-runs", options->budget_runs, "configurations run at most (default 400)")
        ->check(whole_number_in(1, 1000000));
    command->add_option("--validate-seed", options->validate_seed, "re-run the recommendation with this seed");
    command->add_option("--validate-inputs", options->validate_inputs, "re-run the recommendation on these inputs (onnx)");
    command->add_option("--validate-set", options->validate_set,
                        "a parameter changed for the held-out re-run, name=value, repeatable");
    command->add_option("--mpfr-precision", options->mpfr_precision, "bits of the MPFR ground truth (default 256)")
        ->check(whole_number_in(53, 65536));
    command->add_option("--threads", options->threads, "threads for the runs (default: every core)")
        ->check(whole_number_in(1, max_threads));
    add_memory_limit_option(*command);
    command->add_option("--csv", options->csv, "write the report as CSV to this file ('-': stdout)");
    command->add_option("--json", options->json, "write the report as JSON to this file ('-': stdout)");
    command->add_flag("--progress", options->progress, "progress lines on stderr even when it is not a terminal");
    return {command, [options](std::ostream& out) { return run_tune(out, *options); }};
}

}  // namespace floatscope::cli
