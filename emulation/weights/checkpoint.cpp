// open_checkpoint: which reader a path needs, sharded safetensors through their index, and the
// overlap check both readers share.
#include "emulation/weights/checkpoint.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/data_folder.hpp"
#include "core/error.hpp"
#include "core/json_input.hpp"
#include "emulation/weights/gguf_reader.hpp"
#include "emulation/weights/safetensors_reader.hpp"

namespace floatscope::emu {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* index_name = "model.safetensors.index.json";

std::shared_ptr<const MappedFile> map(const std::string& path) { return std::make_shared<const MappedFile>(path); }

/// A model.safetensors.index.json: {"metadata": {...}, "weight_map": {tensor: shard file}}; the
/// tensors are those of the weight_map, each found in the shard it names.
void read_index(const std::string& index_path, Checkpoint& c) {
    const MappedFile index(index_path);
    const char* text = reinterpret_cast<const char*>(index.bytes().data());
    json root;
    try {
        root = core::parse_bounded_json<json>(std::string_view(text, index.size()), index_path);
    } catch (const json::exception& e) {
        throw Error(fmt::format("{}: not JSON: {}", index_path, e.what()));
    }
    if (!root.is_object() || !root.contains("weight_map") || !root["weight_map"].is_object())
        throw Error(fmt::format("{}: no 'weight_map' object", index_path));
    if (root.contains("metadata") && root["metadata"].is_object())
        for (const auto& [key, value] : root["metadata"].items())
            c.metadata.emplace_back(key, value.is_string() ? value.get<std::string>() : value.dump());
    // Shards lie beside the index: a name or a link leaving its folder could read any file.
    const core::DataFolder folder = core::DataFolder::of_file(index_path);
    std::map<std::string, std::vector<std::string>> tensors_of_shard;
    std::vector<std::string> shard_order;
    for (const auto& [tensor, shard] : root["weight_map"].items()) {
        if (!shard.is_string()) throw Error(fmt::format("{}: weight_map['{}'] is not a file name", index_path, tensor));
        const std::string name = shard.get<std::string>();
        if (tensors_of_shard.find(name) == tensors_of_shard.end()) shard_order.push_back(name);
        tensors_of_shard[name].push_back(tensor);
    }
    std::sort(shard_order.begin(), shard_order.end());
    for (const std::string& shard : shard_order) {
        Checkpoint part;
        auto file = map(folder.resolve(shard, fmt::format("{}: weight_map shard", index_path)).string());
        read_safetensors(file, part);
        c.files.push_back(file);
        std::map<std::string, WeightTensor*> by_name;
        for (WeightTensor& t : part.tensors) by_name[t.name] = &t;
        // The shard's file order, restricted to the tensors the index gives it.
        std::vector<std::string>& wanted = tensors_of_shard[shard];
        std::sort(wanted.begin(), wanted.end());
        for (WeightTensor& t : part.tensors)
            if (std::binary_search(wanted.begin(), wanted.end(), t.name)) c.tensors.push_back(std::move(t));
        for (const std::string& tensor : wanted)
            if (by_name.find(tensor) == by_name.end())
                throw Error(fmt::format("{}: weight_map puts tensor '{}' in {}, which does not hold it", index_path,
                                        tensor, shard));
        for (auto& entry : part.metadata) c.metadata.push_back(std::move(entry));
    }
}

}  // namespace

std::uint64_t Checkpoint::parameter_count() const {
    std::uint64_t n = 0;
    for (const WeightTensor& t : tensors) n += t.count;
    return n;
}

void check_disjoint(std::span<const WeightTensor> tensors, const std::string& file) {
    std::vector<const WeightTensor*> sorted;
    for (const WeightTensor& t : tensors)
        if (!t.data.empty()) sorted.push_back(&t);
    std::sort(sorted.begin(), sorted.end(),
              [](const WeightTensor* a, const WeightTensor* b) { return a->file_offset < b->file_offset; });
    for (std::size_t i = 1; i < sorted.size(); ++i) {
        const WeightTensor& before = *sorted[i - 1];
        if (sorted[i]->file_offset < before.file_offset + before.data.size())
            throw Error(fmt::format("{}: tensor '{}' (bytes {}..{}) overlaps tensor '{}' (from byte {})", file,
                                    before.name, before.file_offset, before.file_offset + before.data.size(),
                                    sorted[i]->name, sorted[i]->file_offset));
    }
}

namespace {

/// Shards of one model may not hold the same tensor twice.
void check_unique_names(const Checkpoint& c) {
    std::map<std::string, const WeightTensor*> seen;
    for (const WeightTensor& t : c.tensors) {
        const auto [at, inserted] = seen.emplace(t.name, &t);
        if (!inserted)
            throw Error(fmt::format("{}: tensor '{}' is in {} and in {}", c.path, t.name, at->second->file, t.file));
    }
}

Checkpoint read_checkpoint(const std::string& path) {
    Checkpoint c;
    c.path = path;
    std::error_code error;
    if (fs::is_directory(path, error)) {
        c.container = "safetensors";
        if (fs::exists(fs::path(path) / index_name)) {
            read_index((fs::path(path) / index_name).string(), c);
            return c;
        }
        std::vector<std::string> shards;
        for (const fs::directory_entry& entry : fs::directory_iterator(path, error))
            if (entry.path().extension() == ".safetensors") shards.push_back(entry.path().string());
        if (shards.empty())
            throw Error(fmt::format("{}: a directory without {} or *.safetensors files", path, index_name));
        std::sort(shards.begin(), shards.end());
        const core::DataFolder folder(path);
        for (const std::string& shard : shards) {
            c.files.push_back(map(folder.resolve(fs::path(shard).filename().string(), "shard").string()));
            read_safetensors(c.files.back(), c);
        }
        return c;
    }
    if (path.ends_with(".json")) {
        c.container = "safetensors";
        read_index(path, c);
        return c;
    }
    c.files.push_back(map(path));
    // A .gguf whose magic is wrong is a broken GGUF, not a safetensors file to be told about.
    if (path.ends_with(".gguf") || is_gguf(*c.files.back())) {
        c.container = "gguf";
        read_gguf(c.files.back(), c);
    } else {
        c.container = "safetensors";
        read_safetensors(c.files.back(), c);
    }
    return c;
}

}  // namespace

Checkpoint open_checkpoint(const std::string& path) {
    Checkpoint c = read_checkpoint(path);
    check_unique_names(c);
    return c;
}

}  // namespace floatscope::emu
