// floatscope-cli: entry point. Parses the command line, runs one subcommand, maps errors to exit 2.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/commands.hpp"
#include "core/error.hpp"
#include "core/freed_memory.hpp"
#include "core/memory_budget.hpp"

namespace {

constexpr int usage_error_exit = 2;

/// A message longer than this is cut in its middle: whatever it quotes of a huge input (a message
/// that forgot core::input_excerpt), stderr gets a few kilobytes, not the input.
constexpr std::size_t longest_message = 4096;

int report_error(const std::string& message) {
    if (message.size() <= longest_message) {
        std::cerr << "floatscope-cli: error: " << message << '\n';
    } else {
        const std::size_t tail = longest_message / 4, head = longest_message - tail;
        std::cerr << "floatscope-cli: error: " << std::string_view(message).substr(0, head) << " ... ("
                  << message.size() - head - tail << " characters left out) ... "
                  << std::string_view(message).substr(message.size() - tail) << '\n';
    }
    return usage_error_exit;
}

std::string subcommand_names(const CLI::App& app) {
    std::string names;
    for (const CLI::App* command : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + command->get_name();
    return names;
}

/// What went wrong before any subcommand was recognised: "floatscope-cli bogus", "floatscope-cli
/// --bogus" or nothing at all.
std::string missing_subcommand(const CLI::App& app) {
    const std::string help = " (floatscope-cli --help shows the usage)";
    const std::vector<std::string> remaining = app.remaining();
    if (remaining.empty()) return "no subcommand given; valid: " + subcommand_names(app) + help;
    const std::string& first = remaining.front();
    if (first.empty() || first[0] != '-')
        return "unknown subcommand '" + first + "'; valid: " + subcommand_names(app) + help;
    return "unknown option '" + first +
           "'; before the subcommand only --help and --version are valid, options go after "
           "it (floatscope-cli SUBCOMMAND --help lists them); subcommands: " +
           subcommand_names(app);
}

/// CLI11 reads "-inf" as options -i -n -f (negative numbers are fine); "--" must come first.
bool has_negative_special_value(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::string word = argv[i];
        std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return std::tolower(c); });
        if (word == "-inf" || word == "-infinity" || word == "-nan" || word == "-qnan" || word == "-snan") return true;
    }
    return false;
}

int run(int argc, char** argv) {
    using namespace floatscope::cli;
    CLI::App app("FloatScope: bit-exact number-format emulation against an MPFR ground truth", "floatscope-cli");
    app.set_version_flag("--version", "floatscope-cli 0.1.0");
    app.require_subcommand(1);
    const std::vector<Command> commands = {add_formats_command(app),
                                           add_show_command(app),
                                           add_encode_command(app),
                                           add_decode_command(app),
                                           add_convert_command(app),
                                           add_eval_command(app),
                                           add_dot_command(app),
                                           add_matmul_command(app),
                                           add_testfloat_command(app),
                                           add_fpcore_command(app),
                                           add_list_command(app),
                                           add_run_command(app),
                                           add_sweep_command(app),
                                           add_tune_command(app),
                                           add_merge_command(app),
                                           add_weights_info_command(app),
                                           add_onnx_info_command(app),
                                           add_onnx_conformance_command(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version arrive as "errors" with exit code 0; CLI11 prints them.
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
        if (app.get_subcommands().empty()) return report_error(missing_subcommand(app));
        if (has_negative_special_value(argc, argv))
            return report_error(std::string(e.what()) +
                                " (write -inf and -nan after `--`, before the other values: encode -f fp16 -- -inf 1)");
        // The subcommand's own help lists the options that were expected.
        return report_error(std::string(e.what()) + " (floatscope-cli " + app.get_subcommands().front()->get_name() +
                            " --help lists its options)");
    }
    floatscope::core::memory_limit();  // a bad FLOATSCOPE_MEMORY_LIMIT is refused before any work
    for (const Command& command : commands) {
        if (!command.app->parsed()) continue;
        // Output is collected first so that a failing command leaves nothing half-written on stdout.
        std::ostringstream out;
        const int code = command.run(out);
        // A full disk or a closed pipe must not pass for a complete report (`formats > /dev/full`).
        errno = 0;
        std::cout << out.str() << std::flush;
        if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout))
            return report_error(std::string("cannot write the output: ") +
                                (errno != 0 ? std::strerror(errno) : "the stream failed"));
        return code;
    }
    return report_error("no subcommand given (floatscope-cli --help lists them)");
}

}  // namespace

int main(int argc, char** argv) {
    floatscope::core::keep_freed_memory_for_reuse();
    try {
        return run(argc, argv);
    } catch (const floatscope::Error& e) {
        return report_error(e.what());
    } catch (const std::exception& e) {
        return report_error(std::string("unexpected failure: ") + e.what());
    }
}
