// `decode --format F BITS...`: bit patterns of F as exact values and their class (text or CSV).
#include <memory>

#include "app/cli/commands.hpp"
#include "app/cli/table.hpp"
#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/decimal.hpp"

namespace floatscope::cli {

namespace {

struct DecodeOptions {
    std::string format;
    bool csv = false;
    std::vector<std::string> patterns;
};

struct DecodedPattern {
    std::string input;
    std::uint64_t bits = 0;
    core::Decoded decoded;
};

std::vector<DecodedPattern> decode_patterns(const core::FormatSpec& spec, const std::vector<std::string>& patterns) {
    std::vector<DecodedPattern> decoded;
    for (const std::string& text : patterns) {
        const std::uint64_t bits = core::parse_bits(spec, text);
        decoded.push_back({text, bits, core::decode_bits(spec, bits)});
    }
    return decoded;
}

void print_text(std::ostream& out, const core::FormatSpec& spec, const std::vector<DecodedPattern>& decoded) {
    for (const DecodedPattern& d : decoded)
        out << core::format_bits_hex(spec, d.bits) << ' ' << core::exact_decimal(d.decoded.value) << ' '
            << core::to_string(d.decoded.value_class) << '\n';
}

void print_csv(std::ostream& out, const core::FormatSpec& spec, const std::vector<DecodedPattern>& decoded) {
    write_csv_row(out, {"format", "input", "bits", "value", "class"});
    for (const DecodedPattern& d : decoded)
        write_csv_row(out, {spec.name, d.input, core::format_bits_hex(spec, d.bits),
                            core::exact_decimal(d.decoded.value), core::to_string(d.decoded.value_class)});
}

int run_decode(std::ostream& out, const DecodeOptions& options) {
    const core::FormatSpec spec = core::parse_format(options.format);
    const std::vector<DecodedPattern> decoded = decode_patterns(spec, options.patterns);
    if (options.csv)
        print_csv(out, spec, decoded);
    else
        print_text(out, spec, decoded);
    return 0;
}

}  // namespace

Command add_decode_command(CLI::App& parent) {
    auto options = std::make_shared<DecodeOptions>();
    CLI::App* command =
        parent.add_subcommand("decode", "bit patterns to exact values: prints `BITS VALUE CLASS`");
    command->add_option("--format,-f", options->format, "format of the patterns (floatscope-cli formats lists them)")
        ->required();
    command->add_flag("--csv", options->csv, "CSV: format,input,bits,value,class (value: exact decimal)");
    command->add_option("BITS", options->patterns, "bit patterns in hex (3C00 or 0x3c00)")->required();
    return {command, [options](std::ostream& out) { return run_decode(out, *options); }};
}

}  // namespace floatscope::cli
