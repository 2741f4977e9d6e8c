// `testfloat FILE`: checks a Berkeley TestFloat vector file; `N passed, N failed` on stdout.
#include <iostream>
#include <memory>

#include "app/cli/commands.hpp"
#include "core/rounding_mode.hpp"
#include "emulation/conformance/testfloat_runner.hpp"

namespace floatscope::cli {

namespace {

struct TestFloatCommandOptions {
    std::string file;
    std::string operation;
    std::string mode;
};

constexpr std::size_t shown_failures = 10;

int run_testfloat(std::ostream& out, const TestFloatCommandOptions& options) {
    emu::TestFloatOptions runner_options;
    runner_options.operation = options.operation;
    if (!options.mode.empty()) runner_options.mode = core::parse_rounding_mode(options.mode);
    runner_options.max_failure_descriptions = shown_failures;
    const emu::TestFloatSummary summary = emu::run_testfloat_file(options.file, runner_options);

    for (const std::string& failure : summary.failures) std::cerr << "FAIL " << failure << '\n';
    if (summary.failed > summary.failures.size())
        std::cerr << "... and " << summary.failed - summary.failures.size() << " more failures\n";
    out << summary.passed << " passed, " << summary.failed << " failed\n";
    return summary.failed == 0 ? 0 : 1;
}

}  // namespace

Command add_testfloat_command(CLI::App& parent) {
    auto options = std::make_shared<TestFloatCommandOptions>();
    CLI::App* command = parent.add_subcommand(
        "testfloat", "run a TestFloat vector file <function>.<mode>.tv[.gz]; exit 0 when every case passes, 1 if not");
    command->add_option("FILE", options->file, "vector file, plain text or gzip")->required();
    command->add_option("--op", options->operation, "TestFloat function (default: from the file name)");
    command->add_option("--round,-r", options->mode,
                        "rounding mode rne rtz rdn rup rna rto (default: from the file name)");
    return {command, [options](std::ostream& out) { return run_testfloat(out, *options); }};
}

}  // namespace floatscope::cli
