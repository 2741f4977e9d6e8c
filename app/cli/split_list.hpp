// Comma lists on the command line ("x=1.5,y=2", "0.1,2,3"), split into trimmed items.
#pragma once

#include <string>
#include <vector>

namespace floatscope::cli {

/// The items between separators, each without surrounding spaces, tabs and carriage returns (an
/// empty item stays, empty; a separator at the end adds none).
std::vector<std::string> split_list(const std::string& text, char separator);

}  // namespace floatscope::cli
