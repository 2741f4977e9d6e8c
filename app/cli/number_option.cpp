#include "app/cli/number_option.hpp"

#include <charconv>
#include <string>

#include <fmt/format.h>

#include "core/input_excerpt.hpp"
#include "core/memory_budget.hpp"

namespace floatscope::cli {
namespace {

/// The whole text as a T, or false.
template <class T>
bool parse_all(const std::string& text, T& value) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

}  // namespace

CLI::Validator whole_number_in(std::int64_t low, std::uint64_t high) {
    const std::string range = fmt::format("{}..{}", low, high);
    return CLI::Validator(
        [low, high, range](std::string& text) -> std::string {
            bool ok = false;
            if (!text.empty() && text[0] == '-') {
                std::int64_t value = 0;
                ok = parse_all(text, value) && value >= low;
            } else {
                std::uint64_t value = 0;
                ok = parse_all(text, value) && value <= high && (low <= 0 || value >= static_cast<std::uint64_t>(low));
            }
            return ok ? std::string()
                      : fmt::format("'{}' is not a whole number in {}", core::input_excerpt(text), range);
        },
        "INT in " + range);
}

CLI::Validator number_in(double low, double high) {
    const std::string range = fmt::format("[{}, {}]", low, high);
    return CLI::Validator(
        [low, high, range](std::string& text) -> std::string {
            double value = 0;
            const bool ok = parse_all(text, value) && value >= low && value <= high;
            return ok ? std::string() : fmt::format("'{}' is not a number in {}", core::input_excerpt(text), range);
        },
        "NUMBER in " + range);
}

void add_memory_limit_option(CLI::App& command) {
    command.add_option_function<std::string>(
        "--memory-limit",
        [](const std::string& text) { core::set_memory_limit(core::parse_memory_size(text, "--memory-limit")); },
        "memory one run may ask for, e.g. 512M or 16G (default: FLOATSCOPE_MEMORY_LIMIT, else half the physical "
        "memory); larger requests are refused before anything is allocated");
}

}  // namespace floatscope::cli
