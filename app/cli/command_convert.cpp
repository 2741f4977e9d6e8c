// `convert --from F --to G`: stdin bit patterns of F, one a line, rounded once to G: `RESULT FLAGS`.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "app/cli/commands.hpp"
#include "app/cli/line_input.hpp"
#include "app/cli/rounding_choice.hpp"
#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"

namespace floatscope::cli {

namespace {

struct ConvertOptions {
    std::string from;
    std::string to;
    RoundingChoice rounding;
};

int run_convert(std::istream& in, std::ostream& out, const ConvertOptions& options) {
    const core::FormatSpec from = core::parse_format(options.from);
    const core::FormatSpec to = core::parse_format(options.to);
    const RoundingSetup rounding(options.rounding);
    const core::Rounder round(to, rounding.options());
    for_each_input_line(in, fmt::format("a hex bit pattern of {}", from.name), [&](const std::string& text) {
        // Decoded::exact keeps a signaling NaN signaling, so that rounding raises invalid.
        const core::Rounded r = round(core::decode_bits(from, core::parse_bits(from, text)).exact());
        out << core::format_bits_hex(to, r.bits) << ' ' << core::flags_hex(r.flags) << '\n';
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
