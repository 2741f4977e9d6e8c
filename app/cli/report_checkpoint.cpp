// The CSV report that `sweep --resume` grows a batch at a time: appended in place of its
// end_of_report row, so that a long sweep writes each row once, and cut back to its last
// checkpoint row when a kill left half a batch.
#include "app/cli/report_checkpoint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string_view>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/input_file.hpp"

namespace floatscope::cli {

namespace {

constexpr std::size_t none = std::string::npos;

/// Where the last whole checkpoint row of `text` ends, and the rows it counts; {none, 0} when there is none.
std::pair<std::size_t, std::size_t> last_checkpoint(std::string_view text) {
    std::string start = "\n" + emu::csv_checkpoint(0);
    start.resize(start.size() - 2);  // the row up to its count
    for (auto at = text.rfind(start); at != none; at = at == 0 ? none : text.rfind(start, at - 1)) {
        const std::size_t digits = at + start.size();
        const std::size_t line_end = text.find('\n', digits);
        if (line_end == none) continue;  // cut inside the row
        std::size_t rows = 0;
        const auto [last, error] = std::from_chars(text.data() + digits, text.data() + line_end, rows);
        if (error == std::errc() && last == text.data() + line_end && line_end > digits) return {line_end + 1, rows};
    }
    return {none, 0};
}

emu::Report parse_report(const std::string& path, const std::string& text) {
    std::istringstream in(text);
    try {
        return emu::read_csv(in);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

/// write_csv's text of `report` with a checkpoint row before its end_of_report row.
std::string checkpointed_csv(const emu::Report& report) {
    std::ostringstream out;
    emu::write_csv(report, out);
    std::string text = out.str();
    const std::size_t rows = report.rows.size();
    text.resize(text.size() - emu::csv_end_of_report(rows).size());
    return text + emu::csv_checkpoint(rows) + emu::csv_end_of_report(rows);
}

[[noreturn]] void fail(const std::string& path, const char* what, int error) {
    throw Error(std::string("cannot append to ") + path + ": " + what + " (" + std::strerror(error) + ")");
}

/// Writes `text` at `offset` of the file and ends the file there, flushed to the disk.
void write_tail(const std::string& path, std::size_t offset, std::string_view text,
                std::string_view expected_before = {}) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) fail(path, "open failed", errno);
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    if (!expected_before.empty()) {
        // The end_of_report row that the batch replaces: another writer would have moved it.
        std::string found(expected_before.size(), '\0');
        if (::pread(fd, found.data(), found.size(), static_cast<off_t>(offset)) != static_cast<ssize_t>(found.size()) ||
            found != expected_before)
            throw Error("cannot append to " + path + ": it changed since the sweep opened it (another sweep?)");
    }
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n =
            ::pwrite(fd, text.data() + written, text.size() - written, static_cast<off_t>(offset + written));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(path, "write failed", errno);
        written += static_cast<std::size_t>(n);
    }
    if (::ftruncate(fd, static_cast<off_t>(offset + text.size())) != 0) fail(path, "truncate failed", errno);
    if (::fsync(fd) != 0) fail(path, "flush failed", errno);
}

}  // namespace

emu::Report open_csv_checkpoint(const std::string& path, const emu::Report& metadata,
                                const std::function<void(const emu::Report&)>& check) {
    std::error_code error;
    if (!std::filesystem::exists(path, error)) {
        emu::Report empty = metadata;
        empty.runs.clear();
        empty.rows.clear();
        check(empty);
        core::write_file_atomically(path, checkpointed_csv(empty));
        return empty;
    }
    if (!std::filesystem::is_regular_file(path, error))
        throw Error("--resume " + path + ": not a regular file; give the report file the sweep checkpoints into");
    std::string text = core::read_input_file(path, "report");
    const auto [end, rows] = last_checkpoint(text);
    const std::string end_row = emu::csv_end_of_report(rows);
    const bool whole = end != none && text.size() == end + end_row.size() && text.compare(end, none, end_row) == 0;
    if (end != none && !whole) {
        text.resize(end);  // half a batch, or none: the report as its last checkpoint left it
        text += end_row;
    }
    emu::Report report = parse_report(path, text);
    check(report);
    if (end == none) {
        // A report written whole: once rewritten ending in a checkpoint, so that a kill during the
        // first append can be cut back too.
        core::write_file_atomically(path, checkpointed_csv(report));
    } else if (!whole) {
        write_tail(path, end, end_row);
    }
    return report;
}

void append_csv_checkpoint(const std::string& path, const emu::Report& batch, std::size_t rows_before) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) fail(path, "stat failed", errno);
    const std::string end_row = emu::csv_end_of_report(rows_before);
    const auto size = static_cast<std::size_t>(status.st_size);
    if (size < end_row.size())
        throw Error("cannot append to " + path + ": it changed since the sweep opened it (another sweep?)");
    write_tail(path, size - end_row.size(),
               emu::csv_batch(batch, rows_before) + emu::csv_end_of_report(rows_before + batch.rows.size()), end_row);
}

}  // namespace floatscope::cli
