// Fuzz target: workload parameters as `--set k=v` gives them (emu::Parameters::parse), one
// assignment a line, against a schema with one parameter of each type. Property: the normalised
// values parse again to the same values.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/simulation/parameters.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace floatscope;
    using emu::ParameterType;
    static const std::vector<emu::ParameterSpec> schema = {
        {"size", ParameterType::Integer, "16", 1, 4096, {}, "vector length"},
        {"init-scale", ParameterType::Real, "1.0", -1e6, 1e6, {}, "scale of the initial values"},
        {"compensated", ParameterType::Boolean, "false", 0, 0, {}, "use Kahan summation"},
        {"order", ParameterType::Choice, "sequential", 0, 0, {"sequential", "pairwise", "blocked"}, "summation order"},
        {"dataset", ParameterType::Text, "", 0, 0, {}, "path of the dataset"},
    };
    std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<std::string> assignments;
    for (std::string line; std::getline(lines, line);) assignments.push_back(line);
    emu::Parameters parameters;
    try {
        parameters = emu::Parameters::parse(schema, assignments);
    } catch (const Error&) {
        return 0;
    }
    std::vector<std::string> normalised;
    for (const auto& [name, value] : parameters.values()) normalised.push_back(name + "=" + value);
    emu::Parameters again;
    try {
        again = emu::Parameters::parse(schema, normalised);
    } catch (const Error& e) {
        fuzz::property_failed("normalised parameters parse", e.what());
    }
    if (again.values() != parameters.values())
        fuzz::property_failed("normalised parameters parse to themselves",
                              fmt::format("{}", fmt::join(normalised, " ")));
    parameters.integer("size");
    parameters.real("init-scale");
    parameters.boolean("compensated");
    return 0;
}
