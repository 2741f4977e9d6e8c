// `convert --from F --to G`: stdin bit patterns of F, one a line, rounded once to G: `RESULT FLAGS`.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "app/cli/commands.hpp"
#include "app/cli/format_name.hpp"
#include "app/cli/line_input.hpp"
#include "app/cli/rounding_choice.hpp"
#include "core/error.hpp"
#include "emulation/arithmetic/bit_level_format.hpp"

namespace floatscope::cli {

namespace {

struct ConvertOptions {
    std::string from;
    std::string to;
    RoundingChoice rounding;
};

int run_convert(std::istream& in, std::ostream& out, const ConvertOptions& options) {
    const core::FormatSpec from_spec = parse_scalar_format(options.from);
    const core::FormatSpec to_spec = parse_scalar_format(options.to);
    const RoundingSetup rounding(options.rounding);
    // The exact value crosses from one format to the other, narrow or wide, unrounded.
    const emu::BitLevelFormat from(from_spec, {});
    const emu::BitLevelFormat to(to_spec, rounding.options());
    for_each_input_line(in, fmt::format("a hex bit pattern of {}", from.spec().name), [&](const std::string& text) {
        const emu::Produced r = to.round(from.value_of(text));
        out << r.hex << ' ' << core::flags_hex(r.flags) << '\n';
    });
    return 0;
}

}  // namespace

Command add_convert_command(CLI::App& parent) {
    auto options = std::make_shared<ConvertOptions>();
    CLI::App* command = parent.add_subcommand(
        "convert", "stdin: hex bit patterns of --from, one a line; stdout: `RESULT FLAGS` in --to");
    command->add_option("--from", options->from, "format of the input patterns")->required();
    command->add_option("--to", options->to, "format to round to")->required();
    add_rounding_options(*command, options->rounding, true);
    return {command, [options](std::ostream& out) { return run_convert(std::cin, out, *options); }};
}

}  // namespace floatscope::cli
