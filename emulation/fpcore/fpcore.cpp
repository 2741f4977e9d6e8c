// Parsing FPCore forms out of data, and printing them back (FPCore 2.0 grammar: "FPCore").
#include "emulation/fpcore/fpcore.hpp"

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "emulation/fpcore/program.hpp"

namespace floatscope::emu::fpcore {

namespace {

/// Reads `:key value` pairs from items[begin, end); returns the index after the last pair.
std::size_t read_properties(const std::vector<Datum>& items, std::size_t begin, std::size_t end,
                            std::vector<Property>& out) {
    std::size_t i = begin;
    while (i + 1 < end && items[i].kind == Datum::Kind::Symbol && items[i].text.size() > 1 && items[i].text[0] == ':') {
        out.push_back({items[i].text.substr(1), items[i + 1]});
        i += 2;
    }
    return i;
}

Argument read_argument(const Datum& datum) {
    Argument argument;
    argument.location = datum.location;
    if (datum.kind == Datum::Kind::Symbol) {
        argument.name = datum.text;
        return argument;
    }
    if (datum.kind != Datum::Kind::List || datum.items.empty())
        fail_at(datum.location, "an argument is a symbol, (! props... symbol dims...) or (symbol dims...)");
    const auto& items = datum.items;
    std::size_t i = 0;
    if (items[0].is_symbol("!")) {
        i = read_properties(items, 1, items.size(), argument.properties);
    }
    if (i >= items.size() || items[i].kind != Datum::Kind::Symbol)
        fail_at(datum.location, "this argument has no name (expected a symbol after its properties)");
    argument.name = items[i].text;
    for (++i; i < items.size(); ++i) {
        if (items[i].kind != Datum::Kind::Symbol && items[i].kind != Datum::Kind::Number)
            fail_at(items[i].location, "a dimension of argument '" + argument.name + "' must be a number or a symbol");
        argument.dimensions.push_back(items[i]);
    }
    return argument;
}

std::string print_argument(const Argument& argument) {
    if (argument.properties.empty() && argument.dimensions.empty()) return argument.name;
    std::string out = "(";
    if (!argument.properties.empty()) {
        out += "!";
        for (const Property& p : argument.properties)
            out.append(" :").append(p.name).append(" ").append(print_datum(p.value));
        out += " ";
    }
    out += argument.name;
    for (const Datum& d : argument.dimensions) out.append(" ").append(print_datum(d));
    return out + ")";
}

}  // namespace

std::string FPCore::display_name() const {
    const Datum* name = property("name");
    if (name != nullptr && name->kind == Datum::Kind::String) return name->text;
    if (!identifier.empty()) return identifier;
    return "FPCore at " + location.describe();
}

const Datum* FPCore::property(std::string_view name) const {
    const Datum* found = nullptr;
    for (const Property& p : properties)
        if (p.name == name) found = &p.value;
    return found;
}

FPCore fpcore_from_datum(const Datum& datum) {
    if (datum.kind != Datum::Kind::List || datum.items.empty() || !datum.items[0].is_symbol("FPCore"))
        fail_at(datum.location, "expected (FPCore (arguments...) properties... body)");
    FPCore core;
    core.location = datum.location;
    const auto& items = datum.items;
    std::size_t i = 1;
    if (i < items.size() && items[i].kind == Datum::Kind::Symbol) core.identifier = items[i++].text;
    if (i >= items.size() || items[i].kind != Datum::Kind::List)
        fail_at(datum.location, "FPCore needs a list of arguments, e.g. (FPCore (x y) ...)");
    for (const Datum& argument : items[i].items) core.arguments.push_back(read_argument(argument));
    ++i;
    // Properties, then exactly one body expression.
    const std::size_t after = read_properties(items, i, items.size(), core.properties);
    if (after >= items.size()) fail_at(datum.location, "FPCore has no body expression");
    if (after + 1 != items.size())
        fail_at(items[after + 1].location, "FPCore has more than one body expression (a property without a value?)");
    core.body = items[after];
    return core;
}

std::vector<FPCore> parse_fpcores(std::string_view text, const std::string& source) {
    std::vector<FPCore> cores;
    for (const Datum& datum : read_data(text, source)) cores.push_back(fpcore_from_datum(datum));
    // Every FPCore must compile; calls may refer to any identifier of the file.
    for (const FPCore& core : cores) check_fpcore(core, cores);
    return cores;
}

std::vector<FPCore> read_fpcore_file(const std::string& path) {
    return parse_fpcores(core::read_input_file(path, "FPCore file"), path);
}

std::string print_fpcore(const FPCore& core) {
    std::string out = "(FPCore ";
    if (!core.identifier.empty()) out += core.identifier + " ";
    out += "(";
    for (std::size_t i = 0; i < core.arguments.size(); ++i)
        out.append(i == 0 ? "" : " ").append(print_argument(core.arguments[i]));
    out += ")";
    for (const Property& p : core.properties)
        out.append("\n :").append(p.name).append(" ").append(print_datum(p.value));
    return out.append("\n ").append(print_datum(core.body)).append(")\n");
}

}  // namespace floatscope::emu::fpcore
