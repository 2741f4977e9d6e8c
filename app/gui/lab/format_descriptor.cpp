// Format descriptors: parse_format's grammar where it reaches, the fields spelled out beyond it.
#include "app/gui/lab/format_descriptor.hpp"

#include <charconv>
#include <map>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/format_width.hpp"
#include "core/p3109.hpp"
#include "core/wide_format.hpp"

namespace floatscope::gui {

namespace {

constexpr std::string_view fields_prefix = "fields:";

/// The spec without the parts a descriptor does not carry, for comparing spellings.
core::FormatSpec anonymous(core::FormatSpec spec) {
    spec.name.clear();
    spec.description.clear();
    return spec;
}

const char* overflow_modifier(core::OverflowPolicy overflow) {
    switch (overflow) {
        case core::OverflowPolicy::Ieee: return "";
        case core::OverflowPolicy::Saturate: return ":sat";
        case core::OverflowPolicy::SaturateFinite: return ":satfinite";
    }
    return "";
}

const char* overflow_key(core::OverflowPolicy overflow) {
    switch (overflow) {
        case core::OverflowPolicy::Ieee: return "ieee";
        case core::OverflowPolicy::Saturate: return "sat";
        case core::OverflowPolicy::SaturateFinite: return "satfinite";
    }
    return "ieee";
}

std::string grammar_name(const core::FormatSpec& spec) {
    const char* suffix = spec.nan_encoding == core::NanEncoding::AllOnes        ? "fn"
                         : spec.nan_encoding == core::NanEncoding::NegativeZero ? "fnuz"
                                                                                : "";
    std::string name = fmt::format("e{}m{}{}", spec.exponent_bits, spec.mantissa_bits, suffix);
    name += overflow_modifier(spec.overflow);
    if (spec.subnormals == core::SubnormalPolicy::Flush) name += ":ftz";
    name += fmt::format(":bias={}", spec.bias);
    return name;
}

const char* nan_key(core::NanEncoding encoding) {
    switch (encoding) {
        case core::NanEncoding::Ieee: return "ieee";
        case core::NanEncoding::AllOnes: return "fn";
        case core::NanEncoding::NegativeZero: return "fnuz";
        case core::NanEncoding::None: return "none";
    }
    return "ieee";
}

std::string fields_descriptor(const core::FormatSpec& spec) {
    return fmt::format(
        "{}sign={},e={},m={},bias={},nan={},negzero={},subnormals={},overflow={}", fields_prefix, spec.has_sign ? 1 : 0,
        spec.exponent_bits, spec.mantissa_bits, spec.bias, nan_key(spec.nan_encoding), spec.has_negative_zero ? 1 : 0,
        spec.subnormals == core::SubnormalPolicy::Flush ? "flush" : "gradual", overflow_key(spec.overflow));
}

[[noreturn]] void bad_fields(std::string_view descriptor, std::string_view why) {
    throw Error(
        fmt::format("format descriptor '{}': {}; expected fields:sign=0|1,e=N,m=N,bias=N,"
                    "nan=ieee|fn|fnuz|none,negzero=0|1,subnormals=gradual|flush,overflow=ieee|sat|satfinite",
                    descriptor, why));
}

core::FormatSpec parse_fields(std::string_view descriptor) {
    std::map<std::string, std::string, std::less<>> values;
    std::string_view rest = descriptor.substr(fields_prefix.size());
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        const std::size_t equals = item.find('=');
        if (equals == std::string_view::npos) bad_fields(descriptor, fmt::format("'{}' is not key=value", item));
        values[std::string(item.substr(0, equals))] = std::string(item.substr(equals + 1));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    auto take = [&](const char* key) {
        const auto it = values.find(key);
        if (it == values.end()) bad_fields(descriptor, fmt::format("missing '{}'", key));
        std::string value = it->second;
        values.erase(it);
        return value;
    };
    auto number = [&](const char* key) {
        const std::string text = take(key);
        int value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc() || end != text.data() + text.size())
            bad_fields(descriptor, fmt::format("'{}={}' is not an integer", key, text));
        return value;
    };
    auto choice = [&](const char* key, std::string_view a, std::string_view b) {
        const std::string text = take(key);
        if (text != a && text != b)
            bad_fields(descriptor, fmt::format("'{}={}' is neither {} nor {}", key, text, a, b));
        return text == b;
    };
    core::FormatSpec spec;
    spec.kind = core::FormatKind::Binary;
    spec.has_sign = choice("sign", "0", "1");
    spec.exponent_bits = number("e");
    spec.mantissa_bits = number("m");
    spec.bias = number("bias");
    const std::string nan = take("nan");
    if (nan == "ieee")
        spec.nan_encoding = core::NanEncoding::Ieee;
    else if (nan == "fn")
        spec.nan_encoding = core::NanEncoding::AllOnes;
    else if (nan == "fnuz")
        spec.nan_encoding = core::NanEncoding::NegativeZero;
    else if (nan == "none")
        spec.nan_encoding = core::NanEncoding::None;
    else
        bad_fields(descriptor, fmt::format("'nan={}' is unknown", nan));
    spec.has_infinity = spec.nan_encoding == core::NanEncoding::Ieee;
    spec.has_negative_zero = choice("negzero", "0", "1");
    spec.subnormals =
        choice("subnormals", "gradual", "flush") ? core::SubnormalPolicy::Flush : core::SubnormalPolicy::Gradual;
    const std::string overflow = take("overflow");
    bool known_overflow = false;
    for (core::OverflowPolicy policy :
         {core::OverflowPolicy::Ieee, core::OverflowPolicy::Saturate, core::OverflowPolicy::SaturateFinite})
        if (overflow == overflow_key(policy)) {
            spec.overflow = policy;
            known_overflow = true;
        }
    if (!known_overflow) bad_fields(descriptor, fmt::format("'overflow={}' is unknown", overflow));
    if (!values.empty()) bad_fields(descriptor, fmt::format("unknown key '{}'", values.begin()->first));
    return spec;
}

}  // namespace

std::string format_descriptor(const core::FormatSpec& spec) {
    if (spec.kind != core::FormatKind::Binary) return spec.name;
    // P3109 formats are their four parameters and a saturation mode.
    if (spec.is_p3109() && spec.subnormals == core::SubnormalPolicy::Gradual)
        return core::p3109_name(spec.p3109) + overflow_modifier(spec.overflow);
    // The grammar covers signed formats whose specials follow the eXmY/fn/fnuz conventions.
    try {
        const std::string name = grammar_name(spec);
        if (anonymous(core::parse_format(name)) == anonymous(spec)) return name;
    } catch (const Error&) {
        // not expressible in the grammar (an E or M beyond it, or a combination it rejects)
    }
    return fields_descriptor(spec);
}

core::FormatSpec parse_format_descriptor(std::string_view descriptor, const std::string& name) {
    core::FormatSpec spec = descriptor.substr(0, fields_prefix.size()) == fields_prefix
                                ? parse_fields(descriptor)
                                : core::parse_format(descriptor);
    spec.name = name;
    spec.description = "custom: " + std::string(descriptor);
    core::validate(spec);
    // Formats wider than binary64 are read through MPFR, which takes the IEEE and P3109 encodings only.
    if (core::is_wider_than_binary64(spec)) core::wide_geometry(spec);
    return spec;
}

}  // namespace floatscope::gui
