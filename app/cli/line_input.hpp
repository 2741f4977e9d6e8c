// Batch input on stdin: one request a line, errors named by line number.
#pragma once

#include <functional>
#include <istream>
#include <string>

namespace floatscope::cli {

/// Calls `handle` with each line of `in`, trimmed of surrounding blanks; an empty line or a
/// floatscope::Error from `handle` becomes an Error "stdin line N: ..." (`expected` says what a
/// line should hold).
void for_each_input_line(std::istream& in, const std::string& expected,
                         const std::function<void(const std::string& line)>& handle);

}  // namespace floatscope::cli
