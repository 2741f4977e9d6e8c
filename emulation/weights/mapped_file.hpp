// A read-only memory mapping of one file: the readers see checkpoints through it, never as a copy.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace floatscope::emu {

/// Maps `path` read-only for as long as it lives (the pages are the file's, shared with the page
/// cache: a 100 GB checkpoint costs address space, not memory). An empty file maps to an empty span.
class MappedFile {
public:
    /// Throws floatscope::Error naming the path and the system's reason when it cannot be opened,
    /// is not a regular file, or cannot be mapped.
    explicit MappedFile(std::string path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const std::string& path() const { return path_; }
    std::span<const std::byte> bytes() const { return {data_, size_}; }
    std::size_t size() const { return size_; }

private:
    std::string path_;
    const std::byte* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace floatscope::emu
