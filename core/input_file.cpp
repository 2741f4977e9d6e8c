#include "core/input_file.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"

namespace floatscope::core {
namespace {

/// Closes the descriptor on every way out.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

std::string read_input_file(const std::filesystem::path& path, std::string_view what) {
    auto refuse = [&](const std::string& why) {
        return Error(fmt::format("cannot read {} '{}': {}", what, path.string(), why));
    };
    const Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0) throw refuse(errno == ENOENT ? "no such file" : std::strerror(errno));
    struct stat status {};
    if (::fstat(file.fd, &status) != 0) throw refuse(std::strerror(errno));
    if (S_ISDIR(status.st_mode)) throw refuse("it is a directory, not a file");
    // A device (/dev/zero, /dev/urandom, a terminal) has no size and may never end.
    if (S_ISCHR(status.st_mode) || S_ISBLK(status.st_mode) || S_ISSOCK(status.st_mode))
        throw refuse("it is a device, not a file (a pipe works: < file or <(command))");
    // A regular file is sized before anything is allocated; a pipe is read in pieces up to the
    // memory limit.
    const bool sized = S_ISREG(status.st_mode);
    if (sized)
        require_memory(fmt::format("reading {} '{}' ({} bytes)", what, path.string(), status.st_size),
                       static_cast<double>(status.st_size));
    const std::uint64_t limit = memory_limit();
    std::string bytes;
    bytes.reserve(sized ? static_cast<std::size_t>(status.st_size) : 0);
    char piece[1 << 16];
    for (;;) {
        const ssize_t n = ::read(file.fd, piece, sizeof piece);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            throw refuse(std::strerror(errno));
        }
        if (bytes.size() + static_cast<std::size_t>(n) > limit)
            throw refuse(fmt::format("more than the memory limit ({}) without an end; an input must fit in it",
                                     format_memory_size(static_cast<double>(limit))));
        bytes.append(piece, static_cast<std::size_t>(n));
    }
    return bytes;
}

}  // namespace floatscope::core
