// `eval --format F`: stdin `OP A [B [C]]` (hex bit patterns), stdout `RESULT FLAGS` per line.
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "app/cli/commands.hpp"
#include "app/cli/format_name.hpp"
#include "app/cli/line_input.hpp"
#include "app/cli/rounding_choice.hpp"
#include "core/error.hpp"
#include "emulation/arithmetic/bit_level_format.hpp"

namespace floatscope::cli {

namespace {

struct EvalOptions {
    std::string format;
    RoundingChoice rounding;
};

int run_eval(std::istream& in, std::ostream& out, const EvalOptions& options) {
    const core::FormatSpec spec = parse_scalar_format(options.format);
    const RoundingSetup rounding(options.rounding);
    const emu::BitLevelFormat format(spec, rounding.options());
    const std::string expected = fmt::format(
        "`OP A [B [C]]` with OP in add sub mul div sqrt fma and hex bit "
        "patterns of {}",
        format.spec().name);
    for_each_input_line(in, expected, [&](const std::string& text) {
        std::istringstream words(text);
        std::string op_name;
        words >> op_name;
        const emu::Operation op = emu::parse_operation(op_name);
        std::vector<std::string> operands;
        for (std::string word; words >> word;) operands.push_back(format.canonical_hex(word));
        const auto needed = static_cast<std::size_t>(emu::operand_count(op));
        if (operands.size() != needed)
            throw Error(
                fmt::format("{} takes {} operand{}, got {}", op_name, needed, needed == 1 ? "" : "s", operands.size()));
        const emu::Produced r = format.evaluate(op, operands);
        out << r.hex << ' ' << core::flags_hex(r.flags) << '\n';
    });
    return 0;
}

}  // namespace

Command add_eval_command(CLI::App& parent) {
    auto options = std::make_shared<EvalOptions>();
    CLI::App* command = parent.add_subcommand(
        "eval",
        "stdin: `OP A [B [C]]` a line (OP: add sub mul div sqrt fma; operands: hex bit patterns of "
        "--format); stdout: `RESULT FLAGS` (flags: 1 inexact, 2 underflow, 4 overflow, 8 divide by "
        "zero, 10 invalid)");
    command->add_option("--format,-f", options->format, "format of operands and results")->required();
    add_rounding_options(*command, options->rounding, true);
    return {command, [options](std::ostream& out) { return run_eval(std::cin, out, *options); }};
}

}  // namespace floatscope::cli
