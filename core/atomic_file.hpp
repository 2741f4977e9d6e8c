// Writing a file all at once or not at all: reports, exports and sessions never end half-written.
#pragma once

#include <filesystem>
#include <string_view>

namespace floatscope::core {

/// A file written piece by piece that appears at `path` only when commit() succeeds: until then
/// the pieces go to a temporary file beside `path` (removed when the AtomicFile is destroyed
/// uncommitted), and an existing `path` stays as it was. Errors are floatscope::Error saying what
/// failed ("cannot write report.csv: write failed: No space left on device").
class AtomicFile {
public:
    explicit AtomicFile(std::filesystem::path path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(std::string_view text);
    /// Flushes the temporary to disk and renames it over `path`.
    void commit();

private:
    [[noreturn]] void give_up(const char* what);

    std::filesystem::path path_;
    std::filesystem::path temporary_;
    int fd_ = -1;
};

/// `content` as one AtomicFile.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace floatscope::core
