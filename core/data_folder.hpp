// The folder whose files a model or an index may name (ONNX external data, safetensors shards),
// and the rule that keeps every such name inside it.
#pragma once

#include <filesystem>
#include <string_view>

namespace floatscope::core {

/// Names in a model file are relative to the model's folder. A name may not leave it: not as an
/// absolute path, not through '..', and not through a symbolic link (a `weights.bin ->
/// /etc/passwd` that an archive brought along), so that reading a model never reads, and never
/// writes back out, a file the model's author chose elsewhere on the system.
class DataFolder {
public:
    /// `folder` itself (the current directory when empty).
    DataFolder(std::filesystem::path folder = {});  // NOLINT: implicit, a folder is a DataFolder
    /// The folder of `anchor` (a model or an index file). Files may also lie in the folder that
    /// `anchor` itself leads to when it is a symbolic link: a Hugging Face cache's snapshot holds
    /// links into its blobs folder, the model's and its data's alike.
    static DataFolder of_file(const std::filesystem::path& anchor);

    const std::filesystem::path& named() const { return named_; }

    /// Where the file `name` (relative to the folder) is, every link followed. Throws
    /// floatscope::Error "`what` 'name' is not a path inside the model's folder" for an absolute
    /// name or one with '..', and "`what` 'name' leads outside the model's folder, to PATH" when
    /// the file it reaches lies elsewhere. A name that reaches nothing comes back as named, for
    /// the reader to say that it cannot open it.
    std::filesystem::path resolve(std::string_view name, std::string_view what) const;

private:
    std::filesystem::path named_;
    std::filesystem::path anchor_folder_;  ///< where the anchor leads; empty: only named_
};

}  // namespace floatscope::core
