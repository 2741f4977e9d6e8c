// `weights-info FILE|DIR`: a checkpoint's tensors (dtype, shape, bytes, where they lie) and metadata.
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/cli/commands.hpp"
#include "app/cli/table.hpp"
#include "emulation/weights/checkpoint.hpp"

namespace floatscope::cli {

namespace {

/// Metadata values longer than this (a chat template, a vocabulary) are cut for the table.
constexpr std::size_t shown_value_chars = 120;

int weights_info(std::ostream& out, const std::string& path) {
    const emu::Checkpoint c = emu::open_checkpoint(path);
    std::uint64_t bytes = 0;
    for (const emu::WeightTensor& t : c.tensors) bytes += t.data.size();
    out << fmt::format("{} ({}, {} file{}): {} tensors, {} parameters, {} bytes of tensor data\n\n", c.path,
                       c.container, c.files.size(), c.files.size() == 1 ? "" : "s", c.tensors.size(),
                       c.parameter_count(), bytes);
    TextTable tensors({"tensor", "dtype", "shape", "parameters", "bytes", "offset", "file"});
    for (const emu::WeightTensor& t : c.tensors)
        tensors.add_row({t.name, t.dtype, fmt::format("[{}]", fmt::join(t.shape, ", ")), std::to_string(t.count),
                         std::to_string(t.data.size()), std::to_string(t.file_offset), t.file});
    tensors.print(out);
    if (c.metadata.empty()) return 0;
    out << '\n';
    TextTable metadata({"metadata", "value"});
    for (const auto& [key, value] : c.metadata) {
        std::string shown = value.size() > shown_value_chars ? value.substr(0, shown_value_chars) + "..." : value;
        for (char& ch : shown)
            if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
        metadata.add_row({key, shown});
    }
    metadata.print(out);
    return 0;
}

}  // namespace

Command add_weights_info_command(CLI::App& parent) {
    auto path = std::make_shared<std::string>();
    CLI::App* command = parent.add_subcommand(
        "weights-info",
        "a checkpoint's tensors (dtype, shape, parameters, bytes, offset, file) and metadata: a .safetensors or "
        ".gguf file, a model.safetensors.index.json or a directory of shards");
    command->add_option("FILE", *path, "the checkpoint")->required();
    return {command, [path](std::ostream& out) { return weights_info(out, *path); }};
}

}  // namespace floatscope::cli
