// Splitting comma lists of command-line arguments.
#include "app/cli/split_list.hpp"

#include <sstream>

namespace floatscope::cli {

std::vector<std::string> split_list(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, separator)) {
        const auto first = part.find_first_not_of(" \t\r"), last = part.find_last_not_of(" \t\r");
        parts.push_back(first == std::string::npos ? "" : part.substr(first, last - first + 1));
    }
    return parts;
}

}  // namespace floatscope::cli
