// Writing a file all at once or not at all: reports, exports and sessions never end half-written.
#pragma once

#include <filesystem>
#include <string_view>

namespace floatscope::core {

/// Writes `content` to a temporary file beside `path`, flushes it to disk and renames it over
/// `path`. On any failure the temporary file is removed, an existing `path` is left as it was,
/// and floatscope::Error says what failed ("cannot write report.csv: No space left on device").
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace floatscope::core
