// `formats [--csv]`: the properties of every catalog format, and the storage of the block formats,
// as a text table or CSV.
#include <cmath>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/cli/commands.hpp"
#include "app/cli/table.hpp"
#include "core/catalog.hpp"
#include "core/csv.hpp"
#include "core/decimal.hpp"
#include "core/format_properties.hpp"
#include "emulation/quantize/block_format.hpp"
#include "emulation/quantize/packing.hpp"

namespace floatscope::cli {

namespace {

/// Text cells are compact; CSV cells carry exact values for programs.
enum class Style { Text, Csv };

/// What a cell is made from: one format, its properties and the output style.
struct Entry {
    const core::FormatSpec& spec;
    core::FormatProperties p;
    Style style;
};

struct Column {
    const char* text_header;
    const char* csv_header;
    std::string (*cell)(const Entry&);
};

std::string not_applicable(Style style) { return style == Style::Text ? "-" : ""; }

std::string real(const Entry& e, double x) {
    if (std::isnan(x)) return not_applicable(e.style);
    return e.style == Style::Text ? fmt::format("{:.6g}", x) : core::exact_decimal(x);
}

/// A derived, inexact quantity (log10 of something): rounded for people, shortest for programs.
std::string measure(const Entry& e, double x) {
    if (std::isnan(x)) return not_applicable(e.style);
    return e.style == Style::Text ? fmt::format("{:.2f}", x) : fmt::format("{}", x);
}

std::string yes_no(const Entry& e, bool b) {
    if (e.style == Style::Text) return b ? "yes" : "no";
    return b ? "true" : "false";
}

/// Bytes as stored; text says when that is a wider container than the bits (tf32 in fp32).
std::string bytes(const Entry& e) {
    const bool wider = e.p.storage_bits > e.p.total_bits;
    if (e.style == Style::Text && wider) return fmt::format("{} (in fp{})", e.p.bytes_per_value, e.p.storage_bits);
    return fmt::format("{}", e.p.bytes_per_value);
}

/// A field of the binary layout, or not applicable to integers and tables.
std::string layout_field(const Entry& e, int value) {
    const bool has_layout = e.spec.kind == core::FormatKind::Binary || e.spec.kind == core::FormatKind::ExponentScale;
    return has_layout ? std::to_string(value) : not_applicable(e.style);
}

/// E is a posit's es; M of a tapered format is its fraction bits at 1, where it has the most.
std::string exponent_field(const Entry& e) {
    if (e.spec.kind == core::FormatKind::Posit) return std::to_string(e.spec.exponent_bits);
    return layout_field(e, e.p.exponent_bits);
}
std::string mantissa_field(const Entry& e) {
    if (e.spec.is_tapered()) return std::to_string(e.p.mantissa_bits);
    return layout_field(e, e.p.mantissa_bits);
}

const std::vector<Column>& columns() {
    static const std::vector<Column> table = {
        {"format", "format", [](const Entry& e) { return e.spec.name; }},
        {"kind", "kind", [](const Entry& e) { return std::string(core::to_string(e.spec.kind)); }},
        {"bits", "bits", [](const Entry& e) { return std::to_string(e.p.total_bits); }},
        {"E", "exponent_bits", [](const Entry& e) { return exponent_field(e); }},
        {"M", "mantissa_bits", [](const Entry& e) { return mantissa_field(e); }},
        {"bias", "bias", [](const Entry& e) { return layout_field(e, e.p.bias); }},
        {"max", "max_finite", [](const Entry& e) { return real(e, e.p.max_finite); }},
        {"lowest", "lowest", [](const Entry& e) { return real(e, e.p.lowest); }},
        {"min_normal", "min_normal", [](const Entry& e) { return real(e, e.p.min_normal); }},
        {"min_subnormal", "min_subnormal", [](const Entry& e) { return real(e, e.p.min_subnormal); }},
        {"epsilon", "epsilon", [](const Entry& e) { return real(e, e.p.epsilon); }},
        {"u", "unit_roundoff", [](const Entry& e) { return real(e, e.p.unit_roundoff); }},
        {"digits", "decimal_digits", [](const Entry& e) { return measure(e, e.p.decimal_digits); }},
        {"decades", "dynamic_range_decades", [](const Entry& e) { return measure(e, e.p.dynamic_range_decades); }},
        {"values", "finite_values", [](const Entry& e) { return std::to_string(e.p.finite_values); }},
        {"bytes", "bytes_per_value", [](const Entry& e) { return bytes(e); }},
        {"GB/1e9", "gb_per_1e9_values", [](const Entry& e) { return fmt::format("{}", e.p.gb_per_billion); }},
        {"inf", "has_inf", [](const Entry& e) { return yes_no(e, e.p.has_infinity); }},
        {"nan", "has_nan", [](const Entry& e) { return yes_no(e, e.p.has_nan); }},
        {"-0", "has_negative_zero", [](const Entry& e) { return yes_no(e, e.p.has_negative_zero); }},
        {"subnormals", "has_subnormals", [](const Entry& e) { return yes_no(e, e.p.has_subnormals); }},
        {"aliases", "aliases",
         [](const Entry& e) { return fmt::format("{}", fmt::join(core::format_aliases(e.spec.name), " ")); }},
    };
    return table;
}

Row header(Style style) {
    Row row;
    for (const Column& c : columns()) row.emplace_back(style == Style::Text ? c.text_header : c.csv_header);
    return row;
}

Row format_row(const core::FormatSpec& spec, Style style) {
    const Entry entry{spec, core::format_properties(spec), style};
    Row row;
    for (const Column& c : columns()) row.push_back(c.cell(entry));
    return row;
}

/// nf4 names the 16-code scalar format and bitsandbytes' blockwise scheme alike.
bool shares_scalar_name(const std::string& name) {
    for (const core::FormatSpec& spec : core::catalog_formats())
        if (spec.name == name) return true;
    return false;
}

/// A block format's row: its name, "block", bits per value with the scales amortized, and its
/// storage; the element's range is its element format's row.
Row block_row(const emu::BlockFormat& format, Style style) {
    const double bits = emu::bits_per_value(format);
    Row row;
    for (const Column& c : columns()) {
        const std::string header = c.csv_header;
        if (header == "format")
            row.push_back(shares_scalar_name(format.name) ? format.name + " (blockwise)" : format.name);
        else if (header == "kind")
            row.emplace_back("block");
        else if (header == "bits")
            row.push_back(fmt::format("{}", bits));
        else if (header == "bytes_per_value" || header == "gb_per_1e9_values")
            row.push_back(fmt::format("{}", bits / 8));
        else
            row.push_back(not_applicable(style));
    }
    return row;
}

std::vector<emu::BlockFormat> block_formats() {
    std::vector<emu::BlockFormat> formats;
    for (const std::string& name : emu::block_format_names()) formats.push_back(emu::parse_block_format(name));
    return formats;
}

void print_formats(std::ostream& out, bool csv) {
    const Style style = csv ? Style::Csv : Style::Text;
    if (csv) {
        out << core::csv_record(header(style));
        for (const core::FormatSpec& spec : core::catalog_formats()) out << core::csv_record(format_row(spec, style));
        for (const emu::BlockFormat& format : block_formats()) out << core::csv_record(block_row(format, style));
        return;
    }
    TextTable table(header(style));
    for (const core::FormatSpec& spec : core::catalog_formats()) table.add_row(format_row(spec, style));
    for (const emu::BlockFormat& format : block_formats()) table.add_row(block_row(format, style));
    table.print(out);
    // The families below have thousands of members: named by their grammar, not listed.
    out << "\nAlso taken by name, not listed: eXmY (E exponent and Y mantissa bits, up to e30m1024; binary128 is "
           "e15m112, binary256 e19m236)\nand IEEE P3109's binaryKpP[s|u][e|f] for K = 3..16 and P = 1..K-1 "
           "(signed) or 1..K (unsigned), such as binary8p3se\nand binary16p1se; `floatscope-cli show 1 -f NAME` "
           "prints one's properties.\n";
}

}  // namespace

Command add_formats_command(CLI::App& parent) {
    CLI::App* command =
        parent.add_subcommand("formats", "properties of every catalog format, bits per value of the block formats");
    auto csv = std::make_shared<bool>(false);
    command->add_flag("--csv", *csv, "CSV with a header row (exact decimal values) instead of a text table");
    return {command, [csv](std::ostream& out) {
                print_formats(out, *csv);
                return 0;
            }};
}

}  // namespace floatscope::cli
