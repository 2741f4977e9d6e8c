// Temporary files that this process removes when a signal ends it (SIGINT, SIGTERM, SIGHUP), and
// the stale ones that a killed process left, found by its process ID.
#pragma once

#include <filesystem>

namespace floatscope::core {

/// Marks `path` for removal should SIGINT, SIGTERM or SIGHUP end the process (the first call
/// installs the handler, for each signal still at its default action; the handler removes the
/// marked files, then ends the process by the same signal). Up to 64 files at once; beyond that
/// a file is simply not marked.
void remove_on_signal(const std::filesystem::path& path);
/// Takes the mark off (the file was renamed into place or removed).
void keep_on_signal(const std::filesystem::path& path);

/// The temporary name for `target` in `folder`: ".NAME.tmp-PID-RANDOM", so that a later run can
/// tell a live writer's temporary from a dead one's.
std::filesystem::path temporary_name(const std::filesystem::path& folder, const std::filesystem::path& target);
/// Removes the temporaries of `target` in `folder` whose process no longer runs (SIGKILL, a power
/// cut): what a killed sweep left beside its report.
void remove_stale_temporaries(const std::filesystem::path& folder, const std::filesystem::path& target);

}  // namespace floatscope::core
