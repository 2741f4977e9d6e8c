#include "core/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <random>
#include <string>

#include <fcntl.h>
#include <unistd.h>

#include "core/error.hpp"

namespace floatscope::core {
namespace {

std::string failure(const std::filesystem::path& path, const char* what, int error) {
    return "cannot write " + path.string() + ": " + what + ": " + std::strerror(error);
}

/// A file descriptor closed on every path out of the writer.
class OpenFile {
public:
    explicit OpenFile(int fd) : fd_(fd) {}
    OpenFile(const OpenFile&) = delete;
    OpenFile& operator=(const OpenFile&) = delete;
    ~OpenFile() { close(); }
    int fd() const { return fd_; }
    int close() {
        const int result = fd_ >= 0 ? ::close(fd_) : 0;
        fd_ = -1;
        return result;
    }

private:
    int fd_;
};

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
    if (path.empty()) throw Error("cannot write a file with an empty name");
    const std::filesystem::path directory = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    // The temporary lives in the same directory, so that rename() replaces the file in one step.
    std::random_device entropy;
    std::string temporary_name = path.filename().string();
    temporary_name.insert(0, 1, '.');
    temporary_name += ".tmp-" + std::to_string(entropy());
    const std::filesystem::path temporary = directory / temporary_name;
    OpenFile file(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
    if (file.fd() < 0) throw Error(failure(path, "cannot create a temporary file", errno));
    const auto give_up = [&](const char* what) {
        const int error = errno;
        file.close();
        ::unlink(temporary.c_str());
        throw Error(failure(path, what, error));
    };
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(file.fd(), content.data() + written, content.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            give_up("write failed");
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(file.fd()) != 0) give_up("flush failed");
    if (file.close() != 0) give_up("close failed");
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw Error(failure(path, "rename failed", error));
    }
}

}  // namespace floatscope::core
