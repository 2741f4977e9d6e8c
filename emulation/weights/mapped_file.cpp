// MappedFile through POSIX open, fstat and mmap.
#include "emulation/weights/mapped_file.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.hpp"

namespace floatscope::emu {

MappedFile::MappedFile(std::string path) : path_(std::move(path)) {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(fmt::format("cannot open '{}': {}", path_, std::strerror(errno)));
    struct stat status {};
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        ::close(fd);
        throw Error(fmt::format("'{}' is not a regular file", path_));
    }
    size_ = static_cast<std::size_t>(status.st_size);
    if (size_ > 0) {
        void* mapping = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        const int reason = errno;
        ::close(fd);
        if (mapping == MAP_FAILED) throw Error(fmt::format("cannot map '{}': {}", path_, std::strerror(reason)));
        data_ = static_cast<const std::byte*>(mapping);
        // Tensors are read front to back: let the kernel read ahead and drop pages behind.
        ::madvise(mapping, size_, MADV_SEQUENTIAL);
    } else {
        ::close(fd);
    }
}

MappedFile::~MappedFile() {
    if (data_ != nullptr) ::munmap(const_cast<std::byte*>(data_), size_);
}

}  // namespace floatscope::emu
