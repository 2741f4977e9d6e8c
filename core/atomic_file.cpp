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

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
    if (path_.empty()) throw Error("cannot write a file with an empty name");
    const std::filesystem::path directory = path_.has_parent_path() ? path_.parent_path() : std::filesystem::path(".");
    // The temporary lives in the same directory, so that rename() replaces the file in one step.
    std::random_device entropy;
    std::string temporary_name = path_.filename().string();
    temporary_name.insert(0, 1, '.');
    temporary_name += ".tmp-" + std::to_string(entropy());
    temporary_ = directory / temporary_name;
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error(failure(path_, "cannot create a temporary file", errno));
}

AtomicFile::~AtomicFile() {
    if (fd_ < 0) return;  // committed, or given up
    ::close(fd_);
    ::unlink(temporary_.c_str());
}

void AtomicFile::give_up(const char* what) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    ::unlink(temporary_.c_str());
    throw Error(failure(path_, what, error));
}

void AtomicFile::write(std::string_view text) {
    if (fd_ < 0) throw Error("cannot write " + path_.string() + ": the file is closed");
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd_, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            give_up("write failed");
        }
        written += static_cast<std::size_t>(n);
    }
}

void AtomicFile::commit() {
    if (fd_ < 0) throw Error("cannot write " + path_.string() + ": the file is closed");
    if (::fsync(fd_) != 0) give_up("flush failed");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(temporary_.c_str());
        throw Error(failure(path_, "close failed", error));
    }
    if (::rename(temporary_.c_str(), path_.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary_.c_str());
        throw Error(failure(path_, "rename failed", error));
    }
}

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
    AtomicFile file(path);
    file.write(content);
    file.commit();
}

}  // namespace floatscope::core
