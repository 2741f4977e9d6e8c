// Reading batch requests line by line.
#include "app/cli/line_input.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::cli {

namespace {

std::string trimmed(const std::string& line) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) return {};
    return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

void for_each_input_line(std::istream& in, const std::string& expected,
                         const std::function<void(const std::string& line)>& handle) {
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
        const std::string text = trimmed(line);
        try {
            if (text.empty()) throw Error(fmt::format("empty line; expected {}", expected));
            handle(text);
        } catch (const Error& e) {
            throw Error(fmt::format("stdin line {}: {}", number, e.what()));
        }
    }
}

}  // namespace floatscope::cli
