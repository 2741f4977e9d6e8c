#include "core/atomic_file.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.hpp"
#include "core/temporary_files.hpp"

namespace floatscope::core {
namespace {

std::string failure(const std::filesystem::path& path, const char* what, int error) {
    return "cannot write " + path.string() + ": " + what + ": " + std::strerror(error);
}

/// N when `path` names this process's descriptor N (/dev/stdout, /dev/fd/N, /proc/self/fd/N, or
/// /proc/PID/fd/N with our PID). Those are links the kernel resolves to the open file itself (a
/// pipe, a terminal, a file at the shell's offset): only the descriptor writes where they lead.
std::optional<int> own_descriptor(const std::filesystem::path& path) {
    const std::string text = path.lexically_normal().string();
    if (text == "/dev/stdout") return 1;
    if (text == "/dev/stderr") return 2;
    for (const std::string& prefix :
         {std::string("/dev/fd/"), std::string("/proc/self/fd/"), "/proc/" + std::to_string(::getpid()) + "/fd/"}) {
        if (!text.starts_with(prefix)) continue;
        int fd = -1;
        const char* first = text.data() + prefix.size();
        const char* last = text.data() + text.size();
        const auto [end, error] = std::from_chars(first, last, fd);
        if (error == std::errc() && end == last && first != last) return fd;
    }
    return std::nullopt;
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
    if (path_.empty()) throw Error("cannot write a file with an empty name");
    // Follow symbolic links one at a time (as the kernel would, at most 40), so that the file they
    // lead to is replaced in its own folder and the links stay links.
    std::filesystem::path target = path_;
    for (int links = 0;; ++links) {
        if (const std::optional<int> fd = own_descriptor(target)) {
            fd_ = ::fcntl(*fd, F_DUPFD_CLOEXEC, 3);
            if (fd_ < 0) throw Error(failure(path_, "cannot use that descriptor", errno));
            follows_stdio_ = *fd == STDOUT_FILENO || *fd == STDERR_FILENO;
            return;
        }
        struct stat status {};
        if (::lstat(target.c_str(), &status) != 0) {
            if (errno != ENOENT) throw Error(failure(path_, "cannot look at it", errno));
            open_temporary(target);  // a new file (also where a dangling link leads)
            return;
        }
        if (S_ISREG(status.st_mode)) {
            open_temporary(target);
            return;
        }
        if (S_ISDIR(status.st_mode)) throw Error(failure(path_, "it is a folder", EISDIR));
        if (!S_ISLNK(status.st_mode)) {
            open_direct(target);
            return;
        }
        if (links == 40) throw Error(failure(path_, "cannot follow its links", ELOOP));
        std::string link(static_cast<std::size_t>(status.st_size > 0 ? status.st_size : 4096) + 1, '\0');
        const ssize_t length = ::readlink(target.c_str(), link.data(), link.size());
        if (length < 0) throw Error(failure(path_, "cannot read its link", errno));
        link.resize(static_cast<std::size_t>(length));
        const std::filesystem::path next(link);
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
}

void AtomicFile::open_direct(const std::filesystem::path& target) {
    // A device or a FIFO is written as `>` writes it: opened for writing (a FIFO waits for its
    // reader), never truncated, created or replaced.
    fd_ = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) throw Error(failure(path_, "cannot open it", errno));
}

void AtomicFile::open_temporary(const std::filesystem::path& target) {
    target_ = target;
    const std::filesystem::path directory =
        target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    // The temporary lives in the target's folder, so that rename() replaces the file in one step;
    // one that a killed writer of the same target left there goes first.
    remove_stale_temporaries(directory, target);
    temporary_ = temporary_name(directory, target);
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error(failure(path_, "cannot create a temporary file", errno));
    remove_on_signal(temporary_);
    // A replaced file keeps its permissions (a report kept private stays private).
    struct stat existing {};
    if (::stat(target.c_str(), &existing) == 0 && S_ISREG(existing.st_mode))
        (void)::fchmod(fd_, existing.st_mode & 07777);
}

AtomicFile::~AtomicFile() {
    if (fd_ < 0) return;  // committed, or given up
    ::close(fd_);
    if (!target_.empty()) remove_temporary();
}

void AtomicFile::remove_temporary() {
    ::unlink(temporary_.c_str());
    keep_on_signal(temporary_);
}

void AtomicFile::give_up(const char* what) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (!target_.empty()) remove_temporary();
    throw Error(failure(path_, what, error));
}

void AtomicFile::write(std::string_view text) {
    if (fd_ < 0) throw Error("cannot write " + path_.string() + ": the file is closed");
    if (follows_stdio_) {
        // What the program printed before comes first.
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
    }
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
    if (target_.empty()) {
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) throw Error(failure(path_, "close failed", errno));
        return;
    }
    if (::fsync(fd_) != 0) give_up("flush failed");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
        const int error = errno;
        remove_temporary();
        throw Error(failure(path_, "close failed", error));
    }
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
        const int error = errno;
        remove_temporary();
        throw Error(failure(path_, "rename failed", error));
    }
    keep_on_signal(temporary_);
}

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
    AtomicFile file(path);
    file.write(content);
    file.commit();
}

}  // namespace floatscope::core
