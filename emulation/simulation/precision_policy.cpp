// PrecisionPolicy: roles, layer overrides, the matrix-product model, and the policy text form.
#include "emulation/simulation/precision_policy.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/preset_chaining.hpp"

namespace floatscope::emu {

namespace {

constexpr const char* clause_forms =
    "FORMAT[@ROUND], ROLE=FORMAT[@ROUND] (roles: storage, compute, accumulate, output), "
    "layers LIST [ROLE] = FORMAT[@ROUND], matmul = PRESET, name = TEXT; in graph workloads also "
    "ops OP,OP [ROLE] = FORMAT[@ROUND], nodes PATTERN [ROLE] = FORMAT[@ROUND], autocast = FORMAT, weights = SCHEME";

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

std::string lowered(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

bool same(const core::FormatRounding& a, const core::FormatRounding& b) {
    return a.format == b.format && a.mode == b.mode;
}

/// "bf16", "fp16@rtz": the rounding is written only when it is not the default.
std::string format_text(const core::FormatRounding& r) {
    if (r.mode == core::RoundingMode::NearestEven) return r.format.name;
    return r.format.name + "@" + core::to_string(r.mode);
}

/// One layer index: digits with an optional leading '-'. Returns the characters used, 0 if none.
std::size_t parse_index(std::string_view text, int& value) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() ? static_cast<std::size_t>(end - text.data()) : 0;
}

/// "0-1,-1,3--2": indices and inclusive ranges, negative indices counting from the end.
LayerSelection parse_layer_selection(std::string_view text) {
    std::string compact;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    auto bad = [&](const std::string& why) {
        return Error(fmt::format("layer list '{}' {}; write indices and ranges such as 0-1,5,-1 (-1 is the last layer)",
                                 trimmed(text), why));
    };
    if (compact.empty()) throw bad("is empty");
    LayerSelection selection;
    std::string_view rest = compact;
    while (true) {
        const std::string_view item = rest.substr(0, rest.find(','));
        LayerSelection::Range range;
        std::size_t used = parse_index(item, range.first);
        if (used == 0) throw bad("has '" + std::string(item) + "', which is not an index or range");
        range.last = range.first;
        if (used < item.size()) {
            if (item[used] != '-') throw bad("has '" + std::string(item) + "', which is not an index or range");
            const std::size_t second = parse_index(item.substr(used + 1), range.last);
            if (second == 0 || used + 1 + second != item.size())
                throw bad("has '" + std::string(item) + "', which is not an index or range");
        }
        // Ranges whose ends have the same sign can be checked now; mixed ones depend on the layer count.
        if ((range.first >= 0) == (range.last >= 0) && range.first > range.last)
            throw bad("has the empty range '" + std::string(item) + "'");
        selection.ranges.push_back(range);
        if (rest.size() == item.size()) break;
        rest = rest.substr(item.size() + 1);
    }
    return selection;
}

std::string describe_selection(const LayerSelection& selection) {
    std::string out;
    for (const LayerSelection::Range& r : selection.ranges) {
        if (!out.empty()) out += ',';
        out += r.first == r.last ? std::to_string(r.first) : fmt::format("{}-{}", r.first, r.last);
    }
    return out;
}

/// Splits a trailing role word off a selection ("MatMul,Gemm compute" -> role compute).
std::optional<Role> take_role(std::string& selection) {
    const auto space = selection.find_last_of(" \t");
    if (space == std::string::npos || !std::isalpha(static_cast<unsigned char>(selection[space + 1])))
        return std::nullopt;
    const Role role = parse_role(selection.substr(space + 1));
    selection = trimmed(selection.substr(0, space));
    return role;
}

/// "ops MatMul,Gemm [ROLE]" or "nodes PATTERN [ROLE]" = FORMAT: op types and node names keep their case.
PrecisionPolicy::Override parse_node_override(std::string_view keyword, std::string selection, std::string_view value) {
    PrecisionPolicy::Override override;
    override.role = take_role(selection);
    if (selection.empty())
        throw Error(fmt::format(
            "'{}' needs {} before '='", keyword,
            keyword == "ops" ? "op types (ops MatMul,Gemm = fp8_e4m3)" : "a name pattern (nodes /encoder/* = bf16)"));
    if (keyword == "ops") {
        std::string_view rest = selection;
        while (!rest.empty()) {
            const std::string op = trimmed(rest.substr(0, rest.find(',')));
            if (op.empty()) throw Error(fmt::format("op list '{}' has an empty op type", selection));
            override.op_types.push_back(op);
            rest = rest.find(',') == std::string_view::npos ? std::string_view() : rest.substr(rest.find(',') + 1);
        }
    } else {
        override.node_pattern = selection;
    }
    override.rounding = parse_format_rounding(value);
    return override;
}

/// '*' matches any text, '?' one character (node names hold '/' and '.', which match themselves).
bool matches_pattern(std::string_view pattern, std::string_view text) {
    std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p, ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++, resume = t;
        } else if (star != std::string_view::npos) {
            p = star + 1, t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

/// Applies one clause of the text form to `policy`; `roles_set` tracks which roles have a format.
void apply_clause(const std::string& clause, PrecisionPolicy& policy, std::array<bool, 4>& roles_set) {
    const auto equals = clause.find('=');
    const std::string key = equals == std::string::npos ? std::string() : lowered(trimmed(clause.substr(0, equals)));
    for (std::string_view keyword : {"ops", "nodes"}) {
        if (key.rfind(keyword, 0) == 0 &&
            (key.size() == keyword.size() || std::isspace(static_cast<unsigned char>(key[keyword.size()])))) {
            const std::string original_key = trimmed(clause.substr(0, equals));
            policy.overrides.push_back(
                parse_node_override(keyword, trimmed(std::string_view(original_key).substr(keyword.size())),
                                    trimmed(clause.substr(equals + 1))));
            return;
        }
    }
    // Format modifiers (":bias=7") hold '=' only after a ':'; a key never holds one.
    if (equals == std::string::npos || key.find(':') != std::string::npos) {
        const core::FormatRounding r = parse_format_rounding(clause);
        policy.roles.fill(r);
        roles_set.fill(true);
        return;
    }
    const std::string value = trimmed(clause.substr(equals + 1));
    if (key == "name") {
        if (value.empty()) throw Error("the name is empty");
        policy.name = value;
        return;
    }
    if (key == "matmul") {
        policy.matmul_preset = find_accumulation_preset(value).name;
        return;
    }
    if (key == "autocast") {
        policy.autocast = parse_format_rounding(value);
        return;
    }
    if (key == "weights") {
        // A quantize scheme; the graph workload that reads it names the valid schemes if it is not one.
        if (value.empty()) throw Error("weights = needs a quantize scheme (nf4, int4, mxfp4, ...)");
        policy.weight_quantization = value;
        return;
    }
    for (Role role : all_roles) {
        if (key == to_string(role)) {
            policy.roles[static_cast<std::size_t>(role)] = parse_format_rounding(value);
            roles_set[static_cast<std::size_t>(role)] = true;
            return;
        }
    }
    const std::string_view keyword = key.rfind("layers", 0) == 0 ? "layers" : key.rfind("layer", 0) == 0 ? "layer" : "";
    if (!keyword.empty()) {
        std::string selection = trimmed(std::string_view(key).substr(keyword.size()));
        PrecisionPolicy::Override override;
        // A trailing word restricts the override to one role ("layers 3 compute = fp16").
        override.role = take_role(selection);
        override.layers = parse_layer_selection(selection);
        override.rounding = parse_format_rounding(value);
        policy.overrides.push_back(std::move(override));
        return;
    }
    throw Error(fmt::format("unknown key '{}'; valid clauses: {}", key, clause_forms));
}

}  // namespace

core::FormatRounding parse_format_rounding(std::string_view text) {
    const std::string word = trimmed(text);
    const auto at = word.rfind('@');
    core::FormatRounding r;
    r.format = core::parse_format(word.substr(0, at));
    if (at != std::string::npos) r.mode = core::parse_rounding_mode(lowered(trimmed(word.substr(at + 1))));
    return r;
}

const char* to_string(Role role) {
    switch (role) {
        case Role::Storage: return "storage";
        case Role::Compute: return "compute";
        case Role::Accumulate: return "accumulate";
        case Role::Output: return "output";
    }
    return "?";
}

Role parse_role(std::string_view name) {
    for (Role role : all_roles)
        if (lowered(name) == to_string(role)) return role;
    throw Error(fmt::format("unknown role '{}'; valid roles: storage, compute, accumulate, output", name));
}

bool LayerSelection::contains(int layer, int layer_count) const {
    return std::any_of(ranges.begin(), ranges.end(), [&](const Range& r) {
        const int first = r.first < 0 ? r.first + layer_count : r.first;
        const int last = r.last < 0 ? r.last + layer_count : r.last;
        return first <= layer && layer <= last;
    });
}

bool PrecisionPolicy::Override::selects(const GraphNode& node) const {
    if (!node_pattern.empty()) return matches_pattern(node_pattern, node.name);
    return std::find(op_types.begin(), op_types.end(), node.op_type) != op_types.end();
}

bool PrecisionPolicy::has_graph_clauses() const {
    return autocast || !weight_quantization.empty() ||
           std::any_of(overrides.begin(), overrides.end(), [](const Override& o) { return o.selects_nodes(); });
}

const core::FormatRounding& PrecisionPolicy::at(Role role, int layer, int layer_count) const {
    const core::FormatRounding* result = &roles[static_cast<std::size_t>(role)];
    for (const Override& o : overrides)
        if (!o.selects_nodes() && (!o.role || *o.role == role) && o.layers.contains(layer, layer_count))
            result = &o.rounding;
    return *result;
}

core::FormatRounding PrecisionPolicy::at(Role role, const GraphNode& node, const core::FormatRounding& base) const {
    const core::FormatRounding* result = &base;
    for (const Override& o : overrides)
        if (o.selects_nodes() && (!o.role || *o.role == role) && o.selects(node)) result = &o.rounding;
    return *result;
}

AccumulationModel PrecisionPolicy::matmul_model(int layer, int layer_count) const {
    return matmul_model(at(Role::Compute, layer, layer_count), at(Role::Accumulate, layer, layer_count),
                        at(Role::Output, layer, layer_count));
}

AccumulationModel PrecisionPolicy::matmul_model(const core::FormatRounding& compute,
                                                const core::FormatRounding& accumulate,
                                                const core::FormatRounding& output) const {
    if (!matmul_preset.empty()) return chained_gemm_model(find_accumulation_preset(matmul_preset), accumulate, output);
    AccumulationModel model;
    model.x.rounding = compute;
    model.y.rounding = compute;
    model.multiply_add = MultiplyAdd::Fused;
    model.accumulator = accumulate;
    model.order = AccumulationOrder::Sequential;
    model.output = output;
    return model;
}

std::string PrecisionPolicy::describe() const {
    // The bare format is the one most roles share (the first role's on a tie); the others follow.
    std::size_t base = 0;
    int best = 0;
    for (std::size_t i = 0; i < roles.size(); ++i) {
        const int count = static_cast<int>(std::count_if(
            roles.begin(), roles.end(), [&](const core::FormatRounding& r) { return same(r, roles[i]); }));
        if (count > best) best = count, base = i;
    }
    std::string text = format_text(roles[base]);
    for (Role role : all_roles) {
        const core::FormatRounding& r = roles[static_cast<std::size_t>(role)];
        if (!same(r, roles[base])) text += fmt::format("; {}={}", to_string(role), format_text(r));
    }
    for (const Override& o : overrides) {
        const std::string selection = !o.op_types.empty()       ? fmt::format("ops {}", fmt::join(o.op_types, ","))
                                      : !o.node_pattern.empty() ? "nodes " + o.node_pattern
                                                                : "layers " + describe_selection(o.layers);
        text += fmt::format("; {}{} = {}", selection, o.role ? std::string(" ") + to_string(*o.role) : std::string(),
                            format_text(o.rounding));
    }
    if (!matmul_preset.empty()) text += "; matmul = " + matmul_preset;
    if (autocast) text += "; autocast = " + format_text(*autocast);
    if (!weight_quantization.empty()) text += "; weights = " + weight_quantization;
    return text;
}

PrecisionPolicy uniform_policy(const core::FormatSpec& format, core::RoundingMode mode) {
    PrecisionPolicy policy;
    policy.roles.fill(core::FormatRounding{format, mode});
    policy.name = format_text(policy.roles[0]);
    return policy;
}

PrecisionPolicy parse_policy(std::string_view text) {
    const std::string whole = trimmed(text);
    PrecisionPolicy policy;
    std::array<bool, 4> roles_set{};
    std::string_view rest = whole;
    while (true) {
        const std::size_t end = rest.find(';');
        const std::string clause = trimmed(rest.substr(0, end));
        if (!clause.empty()) {
            try {
                apply_clause(clause, policy, roles_set);
            } catch (const Error& e) {
                throw Error(fmt::format("policy '{}', clause '{}': {}", whole, clause, e.what()));
            }
        }
        if (end == std::string_view::npos) break;
        rest = rest.substr(end + 1);
    }
    // Autocast runs everything outside its lists in fp32 unless the policy says otherwise.
    if (policy.autocast)
        for (Role role : all_roles)
            if (!roles_set[static_cast<std::size_t>(role)]) {
                policy.roles[static_cast<std::size_t>(role)] = {core::parse_format("fp32"),
                                                                core::RoundingMode::NearestEven};
                roles_set[static_cast<std::size_t>(role)] = true;
            }
    std::string missing;
    for (Role role : all_roles)
        if (!roles_set[static_cast<std::size_t>(role)])
            missing += (missing.empty() ? "" : ", ") + std::string(to_string(role));
    if (!missing.empty())
        throw Error(
            fmt::format("policy '{}' gives no format to {}; start it with a format for every role, as in "
                        "'fp32; compute=bf16' (clauses: {})",
                        whole, missing, clause_forms));
    if (policy.name.empty()) policy.name = whole;
    return policy;
}

}  // namespace floatscope::emu
