// What the application tests share: reading a file whole, and running floatscope-cli as a process
// as scripts run it (arguments quoted for the shell, stdin from a string, stdout and stderr captured).
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/temp_dir.hpp"

namespace floatscope::test {

inline std::string read_file(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The parts of `text` between separators; a trailing separator makes no empty last part (as getline).
inline std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, separator)) parts.push_back(part);
    return parts;
}

/// Single quotes for the shell, with embedded quotes closed, escaped and reopened.
inline std::string shell_quote(const std::string& word) {
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

struct CliResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

/// Where and how long floatscope-cli runs.
struct CliPlace {
    std::filesystem::path work_dir;  ///< empty: the test's own working directory
    int timeout_seconds = 0;  ///< 0: none; a run past it ends with exit code 124
};

/// Runs floatscope-cli (FLOATSCOPE_CLI, set by floatscope_add_test) with these arguments and this
/// stdin, capturing stdout and stderr in a directory of its own.
inline CliResult run_cli(const std::vector<std::string>& arguments, const std::string& input = "",
                         const CliPlace& place = {}) {
    TempDir io;
    const std::filesystem::path in = io.write("stdin", input), out = io.path() / "stdout", err = io.path() / "stderr";
    // Appended piece by piece: `" " + string` trips GCC 12's false -Wrestrict.
    std::string command;
    if (!place.work_dir.empty()) command.append("cd ").append(shell_quote(place.work_dir.string())).append(" && ");
    if (place.timeout_seconds > 0) command.append("timeout ").append(std::to_string(place.timeout_seconds)).append(" ");
    command.append(shell_quote(FLOATSCOPE_CLI));
    for (const std::string& a : arguments) command.append(1, ' ').append(shell_quote(a));
    command.append(" <").append(shell_quote(in.string()));
    command.append(" >").append(shell_quote(out.string()));
    command.append(" 2>").append(shell_quote(err.string()));
    const int status = std::system(command.c_str());
    CliResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = read_file(out);
    result.err = read_file(err);
    return result;
}

}  // namespace floatscope::test
