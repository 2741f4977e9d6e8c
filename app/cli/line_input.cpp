// Reading batch requests line by line.
#include "app/cli/line_input.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::cli {

namespace {

/// A request is a few numbers; a longer line (a file without newlines, /dev/zero) is no request.
constexpr std::size_t max_line_length = std::size_t{1} << 20;

/// The next line of `in` without its newline into `line`; false at the end of input. Throws an
/// Error past max_line_length characters instead of growing until memory runs out.
bool next_line(std::istream& in, std::string& line, std::size_t number) {
    line.clear();
    std::streambuf& buffer = *in.rdbuf();
    for (;;) {
        const int c = buffer.sbumpc();
        if (c == std::char_traits<char>::eof()) return !line.empty();
        if (c == '\n') return true;
        if (line.size() == max_line_length)
            throw Error(fmt::format("stdin line {}: longer than {} characters; a line holds one request", number,
                                    max_line_length));
        line.push_back(static_cast<char>(c));
    }
}

std::string trimmed(const std::string& line) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) return {};
    return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

void for_each_input_line(std::istream& in, const std::string& expected,
                         const std::function<void(const std::string& line)>& handle) {
    std::string line;
    for (std::size_t number = 1; next_line(in, line, number); ++number) {
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
