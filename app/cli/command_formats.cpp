// `formats [--csv]`: the properties of every catalog format, as a text table or CSV.
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "app/cli/commands.hpp"
#include "app/cli/table.hpp"
#include "core/catalog.hpp"
#include "core/csv.hpp"
#include "core/decimal.hpp"
#include "core/format_properties.hpp"

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

/// A field of the binary layout, or not applicable to integers and tables.
std::string layout_field(const Entry& e, int value) {
    const bool has_layout = e.spec.kind == core::FormatKind::Binary || e.spec.kind == core::FormatKind::ExponentScale;
    return has_layout ? std::to_string(value) : not_applicable(e.style);
}

const std::vector<Column>& columns() {
    static const std::vector<Column> table = {
        {"format", "format", [](const Entry& e) { return e.spec.name; }},
        {"kind", "kind", [](const Entry& e) { return std::string(core::to_string(e.spec.kind)); }},
        {"bits", "bits", [](const Entry& e) { return std::to_string(e.p.total_bits); }},
        {"E", "exponent_bits", [](const Entry& e) { return layout_field(e, e.p.exponent_bits); }},
        {"M", "mantissa_bits", [](const Entry& e) { return layout_field(e, e.p.mantissa_bits); }},
        {"bias", "bias", [](const Entry& e) { return layout_field(e, e.p.bias); }},
        {"max", "max_finite", [](const Entry& e) { return real(e, e.p.max_finite); }},
        {"min_normal", "min_normal", [](const Entry& e) { return real(e, e.p.min_normal); }},
        {"min_subnormal", "min_subnormal", [](const Entry& e) { return real(e, e.p.min_subnormal); }},
        {"epsilon", "epsilon", [](const Entry& e) { return real(e, e.p.epsilon); }},
        {"u", "unit_roundoff", [](const Entry& e) { return real(e, e.p.unit_roundoff); }},
        {"digits", "decimal_digits", [](const Entry& e) { return measure(e, e.p.decimal_digits); }},
        {"decades", "dynamic_range_decades", [](const Entry& e) { return measure(e, e.p.dynamic_range_decades); }},
        {"values", "finite_values", [](const Entry& e) { return std::to_string(e.p.finite_values); }},
        {"bytes", "bytes_per_value", [](const Entry& e) { return fmt::format("{}", e.p.bytes_per_value); }},
        {"GB/1e9", "gb_per_1e9_values", [](const Entry& e) { return fmt::format("{}", e.p.gb_per_billion); }},
        {"inf", "has_inf", [](const Entry& e) { return yes_no(e, e.p.has_infinity); }},
        {"nan", "has_nan", [](const Entry& e) { return yes_no(e, e.p.has_nan); }},
        {"-0", "has_negative_zero", [](const Entry& e) { return yes_no(e, e.p.has_negative_zero); }},
        {"subnormals", "has_subnormals", [](const Entry& e) { return yes_no(e, e.p.has_subnormals); }},
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

void print_formats(std::ostream& out, bool csv) {
    const Style style = csv ? Style::Csv : Style::Text;
    if (csv) {
        out << core::csv_record(header(style));
        for (const core::FormatSpec& spec : core::catalog_formats()) out << core::csv_record(format_row(spec, style));
        return;
    }
    TextTable table(header(style));
    for (const core::FormatSpec& spec : core::catalog_formats()) table.add_row(format_row(spec, style));
    table.print(out);
}

}  // namespace

Command add_formats_command(CLI::App& parent) {
    CLI::App* command = parent.add_subcommand("formats", "properties of every catalog format");
    auto csv = std::make_shared<bool>(false);
    command->add_flag("--csv", *csv, "CSV with a header row (exact decimal values) instead of a text table");
    return {command, [csv](std::ostream& out) {
                print_formats(out, *csv);
                return 0;
            }};
}

}  // namespace floatscope::cli
