// `list [WORKLOAD]`: the built-in workloads with their parameters, and the accumulation presets.
#include <memory>

#include <fmt/format.h>

#include "app/cli/commands.hpp"
#include "app/cli/table.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::cli {

namespace {

/// What values a parameter accepts, as the user would type them.
std::string accepted_values(const emu::ParameterSpec& p) {
    switch (p.type) {
        case emu::ParameterType::Integer:
            return fmt::format("{}..{}", static_cast<long long>(p.min), static_cast<long long>(p.max));
        case emu::ParameterType::Real: return fmt::format("{}..{}", p.min, p.max);
        case emu::ParameterType::Boolean: return "true|false";
        case emu::ParameterType::Choice: {
            std::string choices;
            for (const std::string& c : p.choices) choices += (choices.empty() ? "" : "|") + c;
            return choices;
        }
        case emu::ParameterType::Text: return "text";
    }
    return "-";
}

void print_workload(std::ostream& out, const emu::Workload& w, bool detailed) {
    out << w.name() << ": " << (detailed ? w.help() : w.summary()) << '\n';
    if (w.parameters().empty()) {
        out << "  (no parameters)\n";
        return;
    }
    TextTable table({"  parameter", "type", "default", "values", "help"});
    for (const emu::ParameterSpec& p : w.parameters())
        table.add_row({"  " + p.name, emu::to_string(p.type), p.default_value.empty() ? "\"\"" : p.default_value,
                       accepted_values(p), p.help});
    table.print(out);
}

int list(std::ostream& out, const std::string& name) {
    if (!name.empty()) {
        print_workload(out, emu::find_workload(name), true);
        return 0;
    }
    out << "Workloads (floatscope-cli run WORKLOAD --set name=value ...; list WORKLOAD says more):\n\n";
    for (const emu::Workload* w : emu::builtin_workloads()) {
        print_workload(out, *w, false);
        out << '\n';
    }
    out << "Accumulation presets (a policy clause 'matmul = NAME', e.g. --policy 'bf16; matmul = bf16_fp32'):\n\n";
    TextTable presets({"  preset", "kind", "evidence", "summary"});
    for (const emu::AccumulationPreset& p : emu::accumulation_presets())
        presets.add_row({"  " + p.name, emu::to_string(p.kind),
                         p.kind == emu::PresetKind::Hardware ? emu::to_string(p.evidence) : "", p.summary});
    presets.print(out);
    return 0;
}

}  // namespace

Command add_list_command(CLI::App& parent) {
    auto name = std::make_shared<std::string>();
    CLI::App* command = parent.add_subcommand(
        "list",
        "the built-in workloads with their parameters (type, default, values, help) and the accumulation "
        "presets a policy's matmul clause takes");
    command->add_option("WORKLOAD", *name, "show this workload's full description");
    return {command, [name](std::ostream& out) { return list(out, *name); }};
}

}  // namespace floatscope::cli
