#include "core/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::core {

std::string read_input_file(const std::filesystem::path& path, std::string_view what) {
    auto refuse = [&](const std::string& why) {
        return Error(fmt::format("cannot read {} '{}': {}", what, path.string(), why));
    };
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);
    if (status.type() == std::filesystem::file_type::not_found) throw refuse("no such file");
    // An ifstream opens a directory without complaint and then reads nothing.
    if (status.type() == std::filesystem::file_type::directory) throw refuse("it is a directory, not a file");
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw refuse(errno != 0 ? std::strerror(errno) : "cannot open it");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw refuse(errno != 0 ? std::strerror(errno) : "read error");
    return text.str();
}

}  // namespace floatscope::core
