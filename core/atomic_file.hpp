// Writing a file all at once or not at all: reports, exports and sessions never end half-written,
// and never replace what is not a file of ours (a device, a FIFO, the file behind a symbolic link).
#pragma once

#include <filesystem>
#include <string_view>

namespace floatscope::core {

/// A file written piece by piece that appears at `path` only when commit() succeeds: until then
/// the pieces go to a temporary file (removed when the AtomicFile is destroyed uncommitted), and an
/// existing file stays as it was.
///
/// What `path` names decides how it is written:
/// - a regular file, or nothing: the temporary beside it is renamed over it (keeping an existing
///   file's permissions). The temporary is removed if SIGINT, SIGTERM or SIGHUP ends the process,
///   and by the next AtomicFile of the same target if SIGKILL did (core/temporary_files.hpp);
/// - a symbolic link: the file it leads to, after every link, is replaced in the same way in that
///   file's folder, and the link stays a link;
/// - a character or block device, a FIFO or a socket (/dev/null, a named pipe): written directly,
///   as a shell's `>` would, and never replaced;
/// - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: written straight to that descriptor of
///   this process, after what the C and C++ streams hold.
/// Errors are floatscope::Error saying what failed ("cannot write report.csv: write failed: No
/// space left on device").
class AtomicFile {
public:
    explicit AtomicFile(std::filesystem::path path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(std::string_view text);
    /// Flushes the temporary to disk and renames it over the target (a direct target: closes it).
    void commit();

private:
    [[noreturn]] void give_up(const char* what);
    void open_direct(const std::filesystem::path& target);
    void open_temporary(const std::filesystem::path& target);
    void remove_temporary();

    std::filesystem::path path_;  ///< as named, for messages
    std::filesystem::path target_;  ///< the file replaced on commit (empty: written directly)
    std::filesystem::path temporary_;  ///< beside target_
    int fd_ = -1;
    bool follows_stdio_ = false;  ///< fd_ duplicates stdout or stderr: flush the streams before writing
};

/// `content` as one AtomicFile.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace floatscope::core
