// `encode --format F VALUE...`: each value rounded once to F, as bits and flags (text or CSV).
#include <memory>

#include "app/cli/block_lab.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/format_name.hpp"
#include "app/cli/rounding_choice.hpp"
#include "app/cli/table.hpp"
#include "core/csv.hpp"
#include "emulation/arithmetic/bit_level_format.hpp"

namespace floatscope::cli {

namespace {

struct EncodeOptions {
    std::string format;
    RoundingChoice rounding;
    bool csv = false;
    std::vector<std::string> values;
};

struct Encoded {
    std::string input;
    emu::Produced rounded;
};

std::vector<Encoded> encode_values(const emu::BitLevelFormat& format, const std::vector<std::string>& values) {
    std::vector<Encoded> encoded;
    for (const std::string& text : values) encoded.push_back({text, format.round_text(text)});
    return encoded;
}

void print_text(std::ostream& out, const std::vector<Encoded>& encoded) {
    for (const Encoded& e : encoded) out << e.rounded.hex << ' ' << core::flags_hex(e.rounded.flags) << '\n';
}

void print_csv(std::ostream& out, const emu::BitLevelFormat& format, const std::vector<Encoded>& encoded) {
    out << core::csv_record({"format", "input", "bits", "value", "flags"});
    for (const Encoded& e : encoded)
        out << core::csv_record({format.spec().name, e.input, e.rounded.hex, format.exact_decimal(e.rounded.hex),
                                 core::flags_hex(e.rounded.flags)});
}

int run_encode(std::ostream& out, const EncodeOptions& options) {
    if (const auto block = block_format_named(options.format)) {
        print_encoded_blocks(out, *block, options.values, options.csv);
        return 0;
    }
    const core::FormatSpec spec = parse_scalar_format(options.format);
    const RoundingSetup rounding(options.rounding);
    const emu::BitLevelFormat format(spec, rounding.options());
    const std::vector<Encoded> encoded = encode_values(format, options.values);
    if (options.csv)
        print_csv(out, format, encoded);
    else
        print_text(out, encoded);
    return 0;
}

}  // namespace

Command add_encode_command(CLI::App& parent) {
    auto options = std::make_shared<EncodeOptions>();
    CLI::App* command = parent.add_subcommand(
        "encode",
        "round values once to a format: prints `BITS FLAGS` (flags: 1 inexact, 2 underflow, 4 overflow, "
        "8 divide-by-zero, 10 invalid)");
    command->add_option("--format,-f", options->format, "target format (floatscope-cli formats lists them)")
        ->required();
    add_rounding_options(*command, options->rounding, true);
    command->add_flag("--csv", options->csv, "CSV: format,input,bits,value,flags (value: exact decimal)");
    command
        ->add_option("VALUE", options->values,
                     "decimal (0.1, -2.5e-3), hex float (0x1.8p-3), inf or nan (-inf and -nan only after --); for a "
                     "block format (mxfp4, nvfp4, ...) each VALUE is one block, v1,v2,...")
        ->required();
    return {command, [options](std::ostream& out) { return run_encode(out, *options); }};
}

}  // namespace floatscope::cli
