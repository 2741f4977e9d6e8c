// Filling Learn-page placeholders: every number on a page comes from core::format_properties.
#include "app/gui/lab/learn_template.hpp"

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/decimal.hpp"
#include "core/error.hpp"
#include "core/format_properties.hpp"

namespace floatscope::gui {

namespace {

constexpr const char* properties_list =
    "bits, E, M, bias, precision, emax, emin, max, max.exact, lowest, min_normal, min_subnormal, epsilon, "
    "unit_roundoff, "
    "digits, decades, values, bytes, codes";

/// A double as the shortest text that reads back to it (the {} format of fmt is shortest round-trip).
std::string shortest(double x) { return fmt::format("{}", x); }

/// The most negative finite value: -max for sign-magnitude formats, the bottom of the range for
/// integers and tables, 0 (or the smallest value) for unsigned ones.
double lowest_value(const core::FormatSpec& f, const core::FormatProperties& p) {
    switch (f.kind) {
        case core::FormatKind::Integer: return static_cast<double>(core::integer_range(f).min);
        case core::FormatKind::Lookup: return f.code_values.front();
        case core::FormatKind::ExponentScale: return p.min_subnormal;
        case core::FormatKind::Binary:
        case core::FormatKind::Posit:
        case core::FormatKind::Takum:
        case core::FormatKind::HiFloat8: break;
    }
    return f.has_sign ? -p.max_finite : 0.0;
}

std::string property(const std::string& placeholder) {
    // The format name may itself hold a dot-free name; the property is what follows the first dot.
    const std::size_t dot = placeholder.find('.');
    if (dot == std::string::npos)
        throw Error(fmt::format("learn placeholder '{{{{{}}}}}' needs FORMAT.PROPERTY; properties: {}", placeholder,
                                properties_list));
    const core::FormatSpec f = core::parse_format(placeholder.substr(0, dot));
    const std::string key = placeholder.substr(dot + 1);
    const core::FormatProperties p = core::format_properties(f);
    const core::BinaryGeometry g = f.kind == core::FormatKind::Binary || f.kind == core::FormatKind::ExponentScale
                                       ? core::binary_geometry(f)
                                       : core::BinaryGeometry{};
    if (key == "bits") return std::to_string(p.total_bits);
    if (key == "E") return std::to_string(p.exponent_bits);
    if (key == "M") return std::to_string(p.mantissa_bits);
    if (key == "bias") return std::to_string(p.bias);
    if (key == "precision") return std::to_string(p.mantissa_bits + 1);
    if (key == "emax") return std::to_string(g.emax);
    if (key == "emin") return std::to_string(g.emin);
    if (key == "max") return shortest(p.max_finite);
    if (key == "max.exact") return core::exact_decimal(p.max_finite);
    if (key == "lowest") return shortest(lowest_value(f, p));
    if (key == "min_normal") return shortest(p.min_normal);
    if (key == "min_subnormal") return shortest(p.min_subnormal);
    if (key == "epsilon") return shortest(p.epsilon);
    if (key == "unit_roundoff") return shortest(p.unit_roundoff);
    if (key == "digits") return fmt::format("{:.2f}", p.decimal_digits);
    if (key == "decades") return fmt::format("{:.1f}", p.dynamic_range_decades);
    if (key == "values") return std::to_string(p.finite_values);
    if (key == "bytes") return shortest(p.bytes_per_value);
    if (key == "codes" && f.kind == core::FormatKind::Lookup) {
        std::string codes;
        for (double v : f.code_values) codes += (codes.empty() ? "" : ", ") + shortest(v);
        return codes;
    }
    throw Error(fmt::format("learn placeholder '{{{{{}}}}}': unknown property '{}'; properties: {}", placeholder, key,
                            properties_list));
}

}  // namespace

std::string fill_learn_template(std::string_view text) {
    std::string out;
    std::size_t at = 0;
    while (true) {
        const std::size_t open = text.find("{{", at);
        if (open == std::string_view::npos) break;
        const std::size_t close = text.find("}}", open + 2);
        if (close == std::string_view::npos) throw Error("learn page: '{{' without '}}'");
        out.append(text.substr(at, open - at));
        out += property(std::string(text.substr(open + 2, close - open - 2)));
        at = close + 2;
    }
    out.append(text.substr(at));
    return out;
}

}  // namespace floatscope::gui
