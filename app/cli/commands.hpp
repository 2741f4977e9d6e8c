// The subcommands of floatscope-cli: each file adds one to the application and says how to run it.
#pragma once

#include <functional>
#include <ostream>

#include <CLI/CLI.hpp>

namespace floatscope::cli {

/// A registered subcommand. `run` is called after the whole command line parsed; it writes its
/// result to `out` (stdout, written only when the command succeeds), diagnostics to std::cerr,
/// throws floatscope::Error for bad input and returns the exit code.
struct Command {
    CLI::App* app = nullptr;
    std::function<int(std::ostream& out)> run;
};

Command add_formats_command(CLI::App& parent);
Command add_show_command(CLI::App& parent);
Command add_encode_command(CLI::App& parent);
Command add_decode_command(CLI::App& parent);
Command add_convert_command(CLI::App& parent);
Command add_eval_command(CLI::App& parent);
Command add_dot_command(CLI::App& parent);
Command add_matmul_command(CLI::App& parent);
Command add_testfloat_command(CLI::App& parent);
Command add_list_command(CLI::App& parent);
Command add_run_command(CLI::App& parent);
Command add_sweep_command(CLI::App& parent);
Command add_tune_command(CLI::App& parent);
Command add_merge_command(CLI::App& parent);
Command add_fpcore_command(CLI::App& parent);
Command add_weights_info_command(CLI::App& parent);
Command add_onnx_conformance_command(CLI::App& parent);
Command add_onnx_info_command(CLI::App& parent);

}  // namespace floatscope::cli
