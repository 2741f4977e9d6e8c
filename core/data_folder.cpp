#include "core/data_folder.hpp"

#include <algorithm>
#include <system_error>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::core {
namespace {

namespace fs = std::filesystem;

/// Whether `path` is `folder` or lies below it; both canonical.
bool lies_in(const fs::path& path, const fs::path& folder) {
    auto p = path.begin();
    for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
        if (f->empty()) continue;  // a trailing separator
        if (p == path.end() || *p != *f) return false;
    }
    return true;
}

/// `folder`'s canonical form; empty when it does not exist.
fs::path canonical_or_empty(const fs::path& folder) {
    std::error_code error;
    fs::path resolved = fs::canonical(folder.empty() ? fs::path(".") : folder, error);
    return error ? fs::path() : resolved;
}

}  // namespace

DataFolder::DataFolder(fs::path folder) : named_(std::move(folder)) {}

DataFolder DataFolder::of_file(const fs::path& anchor) {
    DataFolder folder(anchor.parent_path());
    std::error_code error;
    if (fs::is_symlink(anchor, error)) {
        const fs::path resolved = fs::canonical(anchor, error);
        if (!error) folder.anchor_folder_ = resolved.parent_path();
    }
    return folder;
}

fs::path DataFolder::resolve(std::string_view name, std::string_view what) const {
    const fs::path relative(name);
    const bool escapes =
        relative.is_absolute() || relative.has_root_name() || relative.has_root_directory() ||
        std::any_of(relative.begin(), relative.end(), [](const fs::path& part) { return part == ".."; });
    if (escapes || name.empty())
        throw Error(fmt::format("{} '{}' is not a path inside the model's folder", what, name));
    const fs::path joined = named_ / relative;
    std::error_code error;
    const fs::path reached = fs::canonical(joined, error);
    if (error) return joined;  // nothing there: the reader says so
    const fs::path folder = canonical_or_empty(named_);
    if ((!folder.empty() && lies_in(reached, folder)) || (!anchor_folder_.empty() && lies_in(reached, anchor_folder_)))
        return reached;
    throw Error(fmt::format("{} '{}' leads outside the model's folder, to {}", what, name, reached.string()));
}

}  // namespace floatscope::core
