// Reading a whole input file, with the reason when it cannot be read.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace floatscope::core {

/// The bytes of `path`. Throws floatscope::Error "cannot read `what` 'path': no such file" (or
/// "it is a directory", or the system's reason, e.g. "Permission denied") when it cannot, and
/// before allocating when a regular file exceeds the memory limit (core/memory_budget.hpp). A
/// device (/dev/zero) is refused; a pipe is read up to that limit and refused beyond it.
std::string read_input_file(const std::filesystem::path& path, std::string_view what);

}  // namespace floatscope::core
