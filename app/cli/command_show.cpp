// `show VALUE`: one value in several formats - bit fields, exact stored value, error, neighbours.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <unistd.h>

#include "app/cli/block_lab.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/format_name.hpp"
#include "app/cli/rounding_choice.hpp"
#include "core/codec.hpp"
#include "core/exact_value.hpp"
#include "core/rounding_error.hpp"
#include "emulation/arithmetic/bit_level_format.hpp"

namespace floatscope::cli {

namespace {

const std::vector<std::string> default_formats = {"fp64",     "fp32",     "tf32",     "bf16", "fp16",
                                                  "fp8_e4m3", "fp8_e5m2", "fp4_e2m1", "nf4",  "int8"};

struct ShowOptions {
    std::string value;
    std::vector<std::string> formats;
    RoundingChoice rounding;
};

/// Everything shown for one format, as text; computed apart from the layout that prints it.
struct FormatView {
    core::FormatSpec spec;
    emu::Produced rounded;
    std::string fields;
    std::string value_class;
    std::string value;
    std::string shortest;
    std::string absolute_error;
    std::string relative_error;
    std::string next_down;
    std::string next_up;
};

std::string neighbour(const emu::BitLevelFormat& format, const std::string& hex, const std::string& next) {
    if (format.value_class(hex) == core::to_string(core::ValueClass::NaN)) return "n/a";
    if (next == hex) return "none";
    return format.exact_decimal(next);
}

FormatView view_in(const core::FormatSpec& spec, const std::string& text, const core::ExactValue& x,
                   const core::RoundingOptions& rounding) {
    const emu::BitLevelFormat format(spec, rounding);
    FormatView v;
    v.spec = spec;
    v.rounded = format.round_text(text);
    const std::string& hex = v.rounded.hex;
    v.fields = format.fields(hex);
    v.value_class = format.value_class(hex);
    v.value = format.exact_decimal(hex);
    v.shortest = format.shortest_decimal(hex);
    const core::RoundingErrorText error =
        core::measure_rounding_error(text, x, format.value_of(hex), format.quantum_exponent_at(x.exponent), NAN, 4);
    v.absolute_error = error.absolute;
    v.relative_error = error.relative;
    v.next_down = neighbour(format, hex, format.next_down(hex));
    v.next_up = neighbour(format, hex, format.next_up(hex));
    return v;
}

/// Sign, exponent and mantissa fields in red, green and blue (terminals only).
std::string coloured_fields(const core::FormatSpec& spec, const std::string& plain, bool colour) {
    if (!colour || spec.kind != core::FormatKind::Binary) return plain;
    std::vector<const char*> colours;
    if (spec.has_sign) colours.push_back("\033[31m");
    colours.push_back("\033[32m");
    if (spec.mantissa_bits > 0) colours.push_back("\033[34m");
    std::string out;
    std::size_t start = 0;
    for (std::size_t field = 0; field < colours.size(); ++field) {
        const std::size_t end = std::min(plain.find('|', start), plain.size());
        if (field > 0) out += '|';
        out += colours[field] + plain.substr(start, end - start) + "\033[0m";
        start = end + 1;
    }
    return out;
}

bool stdout_wants_colour() { return isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr; }

void print_view(std::ostream& out, const FormatView& v, bool colour) {
    auto line = [&](const char* label, const std::string& text) { out << fmt::format("  {:<10} {}\n", label, text); };
    out << v.spec.name << '\n';
    line("bits", coloured_fields(v.spec, v.fields, colour));
    line("hex", v.rounded.hex);
    line("class", v.value_class);
    line("value", v.value);
    line("shortest", v.shortest);
    line("abs error", v.absolute_error);
    line("rel error", v.relative_error);
    line("flags", core::flags_hex(v.rounded.flags) + " " + core::flags_names(v.rounded.flags));
    line("next down", v.next_down);
    line("next up", v.next_up);
}

/// A --format: a scalar format, or a block format whose block VALUE is (v1,v2,...).
struct Shown {
    std::optional<emu::BlockFormat> block;
    core::FormatSpec spec;
};

int run_show(std::ostream& out, const ShowOptions& options) {
    const std::vector<std::string>& names = options.formats.empty() ? default_formats : options.formats;
    std::vector<Shown> shown;
    for (const std::string& name : names) {
        if (auto block = block_format_named(name))
            shown.push_back({std::move(block), {}});
        else
            shown.push_back({std::nullopt, parse_scalar_format(name)});
    }
    const RoundingSetup rounding(options.rounding);

    const bool colour = stdout_wants_colour();
    out << "input " << options.value << " (rounding " << options.rounding.mode << ")\n";
    for (const Shown& f : shown) {
        out << '\n';
        if (f.block) {
            out << f.block->name << ": " << f.block->description << '\n';
            print_encoded_blocks(out, *f.block, {options.value}, false);
            continue;
        }
        const core::ExactValue x = core::parse_exact_value(options.value);
        print_view(out, view_in(f.spec, options.value, x, rounding.options()), colour);
    }
    return 0;
}

}  // namespace

Command add_show_command(CLI::App& parent) {
    auto options = std::make_shared<ShowOptions>();
    CLI::App* command =
        parent.add_subcommand("show", "a value in several formats: bits, exact value, error, neighbours");
    command
        ->add_option("VALUE", options->value,
                     "decimal (0.1), hex float (0x1.8p-3), inf or nan (-inf and -nan only after --); a block "
                     "v1,v2,... for block formats (mxfp4, nvfp4, ...)")
        ->required();
    command
        ->add_option("--format,-f", options->formats,
                     "format to show (repeatable; default: fp64 fp32 tf32 bf16 fp16 fp8_e4m3 fp8_e5m2 fp4_e2m1 nf4 "
                     "int8)")
        ->allow_extra_args(false);  // one name per --format, so that `-f fp16 -- -inf` reads -inf as the value
    add_rounding_options(*command, options->rounding, false);
    return {command, [options](std::ostream& out) { return run_show(out, *options); }};
}

}  // namespace floatscope::cli
