// Workload parameters: checking `name=value` assignments against a schema, and reading them back.
#include "emulation/simulation/parameters.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::emu {

namespace {

std::string lowered(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t");
    return std::string(text.substr(first, last - first + 1));
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

std::string schema_names(const std::vector<ParameterSpec>& schema) {
    std::vector<std::string> names;
    for (const ParameterSpec& p : schema) names.push_back(p.name);
    return joined(names);
}

/// "[1, 64]" for integers, "[1e-06, 10]" for reals: the bounds as the user would type them.
std::string range_text(const ParameterSpec& spec) {
    if (spec.type == ParameterType::Integer)
        return fmt::format("[{}, {}]", static_cast<long long>(spec.min), static_cast<long long>(spec.max));
    return fmt::format("[{}, {}]", spec.min, spec.max);
}

[[noreturn]] void invalid(const ParameterSpec& spec, std::string_view value, const std::string& valid) {
    throw Error(fmt::format("parameter '{}': '{}' is not valid; expected {}", spec.name, value, valid));
}

/// The canonical text of `value` under `spec` (integers without leading zeros, reals in their
/// shortest round-trip form, booleans as true/false); throws for values the schema rejects.
std::string normalise(const ParameterSpec& spec, std::string_view raw) {
    const std::string value = trimmed(raw);
    switch (spec.type) {
        case ParameterType::Integer: {
            const std::string expected = "an integer in " + range_text(spec);
            long long parsed = 0;
            const char* begin = value.data();
            const char* end = begin + value.size();
            if (begin != end && *begin == '+') ++begin;
            const auto [ptr, ec] = std::from_chars(begin, end, parsed);
            if (value.empty() || ec != std::errc() || ptr != end) invalid(spec, value, expected);
            if (static_cast<double>(parsed) < spec.min || static_cast<double>(parsed) > spec.max)
                invalid(spec, value, expected);
            return std::to_string(parsed);
        }
        case ParameterType::Real: {
            const std::string expected = "a number in " + range_text(spec);
            char* end = nullptr;
            const double parsed = value.empty() ? NAN : std::strtod(value.c_str(), &end);
            if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(parsed))
                invalid(spec, value, expected);
            if (parsed < spec.min || parsed > spec.max) invalid(spec, value, expected);
            return fmt::format("{}", parsed);
        }
        case ParameterType::Boolean: {
            const std::string word = lowered(value);
            if (word == "true" || word == "1" || word == "yes" || word == "on") return "true";
            if (word == "false" || word == "0" || word == "no" || word == "off") return "false";
            invalid(spec, value, "true or false (also 1/0, yes/no, on/off)");
        }
        case ParameterType::Choice:
            if (std::find(spec.choices.begin(), spec.choices.end(), value) == spec.choices.end())
                invalid(spec, value, "one of " + joined(spec.choices));
            return value;
        case ParameterType::Text: return value;
    }
    throw Error("parameter '" + spec.name + "' has an unknown type");
}

}  // namespace

const char* to_string(ParameterType type) {
    switch (type) {
        case ParameterType::Integer: return "integer";
        case ParameterType::Real: return "real";
        case ParameterType::Boolean: return "boolean";
        case ParameterType::Choice: return "choice";
        case ParameterType::Text: return "text";
    }
    return "?";
}

Parameters Parameters::parse(const std::vector<ParameterSpec>& schema, const std::vector<std::string>& assignments) {
    std::map<std::string, std::string> values;
    for (const std::string& assignment : assignments) {
        const auto equals = assignment.find('=');
        if (equals == std::string::npos)
            throw Error(fmt::format("parameter assignment '{}' has no '='; write name=value (names: {})", assignment,
                                    schema_names(schema)));
        // A later assignment of the same name wins, as a later --set overrides an earlier one.
        values[trimmed(std::string_view(assignment).substr(0, equals))] = assignment.substr(equals + 1);
    }
    return from_map(schema, values);
}

Parameters Parameters::from_map(const std::vector<ParameterSpec>& schema,
                                const std::map<std::string, std::string>& values) {
    for (const auto& [name, value] : values) {
        const bool known = std::any_of(schema.begin(), schema.end(),
                                       [&name = name](const ParameterSpec& p) { return p.name == name; });
        if (!known) {
            if (schema.empty()) throw Error(fmt::format("unknown parameter '{}'; this workload takes none", name));
            throw Error(fmt::format("unknown parameter '{}'; valid: {}", name, schema_names(schema)));
        }
    }
    Parameters result;
    for (const ParameterSpec& spec : schema) {
        const auto given = values.find(spec.name);
        result.values_.emplace_back(spec.name,
                                    normalise(spec, given != values.end() ? given->second : spec.default_value));
        result.types_.push_back(spec.type);
    }
    return result;
}

const std::pair<std::string, std::string>& Parameters::find(std::string_view name) const {
    for (const auto& entry : values_)
        if (entry.first == name) return entry;
    std::string names;
    for (const auto& entry : values_) names += (names.empty() ? "" : ", ") + entry.first;
    throw Error(fmt::format("no parameter '{}'; this run has: {}", name, names.empty() ? "none" : names));
}

long long Parameters::integer(std::string_view name) const {
    const auto& entry = find(name);
    if (types_[static_cast<std::size_t>(&entry - values_.data())] != ParameterType::Integer)
        throw Error(fmt::format("parameter '{}' is not an integer", name));
    return std::stoll(entry.second);
}

double Parameters::real(std::string_view name) const {
    const auto& entry = find(name);
    const ParameterType type = types_[static_cast<std::size_t>(&entry - values_.data())];
    if (type != ParameterType::Real && type != ParameterType::Integer)
        throw Error(fmt::format("parameter '{}' is not a number", name));
    return std::strtod(entry.second.c_str(), nullptr);
}

bool Parameters::boolean(std::string_view name) const {
    const auto& entry = find(name);
    if (types_[static_cast<std::size_t>(&entry - values_.data())] != ParameterType::Boolean)
        throw Error(fmt::format("parameter '{}' is not a boolean", name));
    return entry.second == "true";
}

const std::string& Parameters::text(std::string_view name) const { return find(name).second; }

}  // namespace floatscope::emu
