// `decode --format F BITS...`: bit patterns of F as exact values and their class (text or CSV).
#include <memory>

#include "app/cli/block_lab.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/format_name.hpp"
#include "app/cli/table.hpp"
#include "core/csv.hpp"
#include "emulation/arithmetic/bit_level_format.hpp"

namespace floatscope::cli {

namespace {

struct DecodeOptions {
    std::string format;
    bool csv = false;
    std::vector<std::string> patterns;
};

struct DecodedPattern {
    std::string input;
    std::string hex;
    std::string value;
    std::string value_class;
};

std::vector<DecodedPattern> decode_patterns(const emu::BitLevelFormat& format,
                                            const std::vector<std::string>& patterns) {
    std::vector<DecodedPattern> decoded;
    for (const std::string& text : patterns) {
        const std::string hex = format.canonical_hex(text);
        decoded.push_back({text, hex, format.exact_decimal(hex), format.value_class(hex)});
    }
    return decoded;
}

void print_text(std::ostream& out, const std::vector<DecodedPattern>& decoded) {
    for (const DecodedPattern& d : decoded) out << d.hex << ' ' << d.value << ' ' << d.value_class << '\n';
}

void print_csv(std::ostream& out, const core::FormatSpec& spec, const std::vector<DecodedPattern>& decoded) {
    out << core::csv_record({"format", "input", "bits", "value", "class"});
    for (const DecodedPattern& d : decoded)
        out << core::csv_record({spec.name, d.input, d.hex, d.value, d.value_class});
}

int run_decode(std::ostream& out, const DecodeOptions& options) {
    if (const auto block = block_format_named(options.format)) {
        print_decoded_blocks(out, *block, options.patterns, options.csv);
        return 0;
    }
    const core::FormatSpec spec = parse_scalar_format(options.format);
    // Decoding rounds nothing: the default options only set the format's machinery up.
    const emu::BitLevelFormat format(spec, {});
    const std::vector<DecodedPattern> decoded = decode_patterns(format, options.patterns);
    if (options.csv)
        print_csv(out, spec, decoded);
    else
        print_text(out, decoded);
    return 0;
}

}  // namespace

Command add_decode_command(CLI::App& parent) {
    auto options = std::make_shared<DecodeOptions>();
    CLI::App* command = parent.add_subcommand("decode", "bit patterns to exact values: prints `BITS VALUE CLASS`");
    command->add_option("--format,-f", options->format, "format of the patterns (floatscope-cli formats lists them)")
        ->required();
    command->add_flag("--csv", options->csv, "CSV: format,input,bits,value,class (value: exact decimal)");
    command
        ->add_option("BITS", options->patterns,
                     "bit patterns in hex (3C00 or 0x3c00); for MX and NVFP4 each is one block, SCALE:CODE,CODE,...")
        ->required();
    return {command, [options](std::ostream& out) { return run_decode(out, *options); }};
}

}  // namespace floatscope::cli
