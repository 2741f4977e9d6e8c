// Checkpoint: the tensors and metadata of a safetensors file, a sharded safetensors model or a GGUF
// file, read through memory mappings; open_checkpoint picks the reader.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "emulation/weights/mapped_file.hpp"
#include "emulation/weights/weight_tensor.hpp"

namespace floatscope::emu {

struct Checkpoint {
    std::string path;  ///< as given
    std::string container;  ///< "safetensors" or "gguf"
    /// The mappings the tensors' bytes lie in; they live as long as the checkpoint.
    std::vector<std::shared_ptr<const MappedFile>> files;
    std::vector<WeightTensor> tensors;  ///< in file order (shards in the index's order)
    /// safetensors' __metadata__ (and the index's "metadata"), GGUF's key-value pairs, as text.
    std::vector<std::pair<std::string, std::string>> metadata;

    std::uint64_t parameter_count() const;
};

/// Opens a checkpoint: a .safetensors file, a GGUF file (told by its magic), a
/// model.safetensors.index.json (its weight_map's shards), or a directory holding an index, or
/// else its *.safetensors files in name order. Throws floatscope::Error naming the file, the
/// tensor and the field for anything the file gets wrong (truncated, lying sizes or offsets,
/// unknown types); nothing it reads can make it read outside the mapping.
Checkpoint open_checkpoint(const std::string& path);

/// Throws floatscope::Error when two tensors' bytes overlap (tensors of no bytes never do);
/// `file` names the file in the message.
void check_disjoint(std::span<const WeightTensor> tensors, const std::string& file);

}  // namespace floatscope::emu
