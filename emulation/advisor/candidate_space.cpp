// CandidateSpace: parsing the candidates text, ordering the settings by cost, and writing them as
// policy clauses.
#include "emulation/advisor/candidate_space.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/cost_model.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/quantize/quantization_scheme.hpp"

namespace floatscope::emu {

namespace {

constexpr const char* candidate_forms =
    "FORMAT,FORMAT,... (each unit's formats), ROLE=FORMAT,... (roles: storage, compute, accumulate, output), "
    "matmul=PRESET,... and weights=SCHEME,..., clauses separated by ';'";

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    return std::string(text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1));
}

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const auto end = text.find(separator, start);
        parts.push_back(trimmed(text.substr(start, end == std::string_view::npos ? end : end - start)));
        if (end == std::string_view::npos) return parts;
        start = end + 1;
    }
}

/// FORMAT[@ROUND] as a policy reads it, named as a candidate in errors.
core::FormatRounding parse_choice(const std::string& word) {
    try {
        return parse_format_rounding(word);
    } catch (const Error& e) {
        throw Error(fmt::format("tune: the candidate '{}': {}", word, e.what()));
    }
}

std::string choice_text(const core::FormatRounding& r) {
    return uniform_policy(r.format, r.mode).describe();
}

double bits_of(const core::FormatRounding& r) { return 8 * core::bytes_per_value(r.format); }

/// The list of `clause` (after its '=' when it has one), each entry non-empty and listed once.
std::vector<std::string> entries(const std::string& list, const std::string& clause) {
    std::vector<std::string> words = split(list, ',');
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (words[i].empty()) throw Error(fmt::format("tune: the candidates clause '{}' has an empty entry", clause));
        if (std::find(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(i), words[i]) !=
            words.begin() + static_cast<std::ptrdiff_t>(i))
            throw Error(fmt::format("tune: the candidates clause '{}' lists '{}' twice", clause, words[i]));
    }
    return words;
}

}  // namespace

CandidateSpace parse_candidate_space(std::string_view text) {
    CandidateSpace space;
    std::vector<core::FormatRounding> formats;
    std::vector<std::pair<Role, std::vector<core::FormatRounding>>> role_lists;
    for (const std::string& clause : split(text, ';')) {
        if (clause.empty()) continue;
        const auto equals = clause.find('=');
        if (equals == std::string::npos) {
            if (!formats.empty()) throw Error(fmt::format("tune: the candidates give two format lists; {}", candidate_forms));
            for (const std::string& word : entries(clause, clause)) formats.push_back(parse_choice(word));
            continue;
        }
        const std::string key = trimmed(clause.substr(0, equals));
        const std::vector<std::string> list = entries(clause.substr(equals + 1), clause);
        if (key == "matmul") {
            space.matmul.push_back("");
            for (const std::string& name : list)
                if (name != "none") space.matmul.push_back(find_accumulation_preset(name).name);
        } else if (key == "weights") {
            std::vector<std::pair<double, std::string>> schemes;
            for (const std::string& name : list) {
                if (name == "none") continue;
                const QuantizationScheme scheme = parse_quantization_scheme(name);
                // Bits per value of a 4096 x 4096 weight, scales included: the order of their cost.
                constexpr std::size_t side = 4096;
                schemes.push_back({static_cast<double>(scheme_storage_bits(scheme, side, side)) / (side * side), name});
            }
            std::stable_sort(schemes.begin(), schemes.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
            space.weights = {""};
            space.weight_bits = {0};
            for (const auto& [bits, name] : schemes) space.weights.push_back(name), space.weight_bits.push_back(bits);
        } else {
            Role role;
            try {
                role = parse_role(key);
            } catch (const Error&) {
                throw Error(fmt::format("tune: '{}' in the candidates clause '{}' is not a role, matmul or weights; {}", key,
                                        clause, candidate_forms));
            }
            std::vector<core::FormatRounding> choices;
            for (const std::string& word : list) choices.push_back(parse_choice(word));
            if (choices.size() == 1)
                space.fixed_roles.push_back({role, choices[0]});
            else
                role_lists.push_back({role, std::move(choices)});
        }
    }
    if (formats.empty()) throw Error(fmt::format("tune: the candidates have no format list; {}", candidate_forms));

    // Every combination of a format with one entry of each role list.
    std::vector<UnitCandidate> settings;
    for (const core::FormatRounding& format : formats) settings.push_back({format, {}, choice_text(format), 0});
    for (const auto& [role, choices] : role_lists) {
        std::vector<UnitCandidate> grown;
        for (const UnitCandidate& setting : settings)
            for (const core::FormatRounding& choice : choices) {
                UnitCandidate more = setting;
                more.roles.push_back({role, choice});
                more.label += fmt::format(", {}={}", to_string(role), choice_text(choice));
                grown.push_back(std::move(more));
            }
        settings = std::move(grown);
    }
    // What a setting costs in bits: its output role's format, then the sum of its roles' widths.
    const auto role_format = [&](const UnitCandidate& c, Role role) {
        core::FormatRounding r = c.format;
        for (const auto& [fixed, format] : space.fixed_roles)
            if (fixed == role) r = format;
        for (const auto& [own, format] : c.roles)
            if (own == role) r = format;
        return r;
    };
    const auto role_bits = [&](const UnitCandidate& c) {
        double bits = 0;
        for (Role role : all_roles) bits += bits_of(role_format(c, role));
        return bits;
    };
    for (UnitCandidate& c : settings) c.output_bits = bits_of(role_format(c, Role::Output));
    std::stable_sort(settings.begin(), settings.end(), [&](const UnitCandidate& a, const UnitCandidate& b) {
        if (a.output_bits != b.output_bits) return a.output_bits > b.output_bits;
        return role_bits(a) > role_bits(b);
    });
    space.unit = std::move(settings);
    if (space.matmul.empty()) space.matmul = {""};
    if (space.weights.empty()) space.weights = {""}, space.weight_bits = {0};
    return space;
}

std::string candidate_clauses(const CandidateSpace& space, const UnitCandidate& candidate, const std::string& selector) {
    const std::string prefix = selector.empty() ? "" : selector + " ";
    std::string text = selector.empty() ? choice_text(candidate.format) : prefix + "= " + choice_text(candidate.format);
    for (const auto& [role, format] : space.fixed_roles)
        text += fmt::format("; {}{} = {}", prefix, to_string(role), choice_text(format));
    for (const auto& [role, format] : candidate.roles)
        text += fmt::format("; {}{} = {}", prefix, to_string(role), choice_text(format));
    return text;
}

}  // namespace floatscope::emu
