// What the checkpoint fuzz targets share: the input as a file, opened, every tensor decoded.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "core/error.hpp"
#include "emulation/weights/checkpoint.hpp"
#include "fuzz_support.hpp"

namespace floatscope::fuzz {

/// Writes the input to a file of this process (removed at exit) named with `extension`, opens it
/// as a checkpoint and decodes the first elements of every tensor. Properties: only
/// floatscope::Error is thrown, every tensor's bytes lie inside its file, and decoding (ASan
/// watching the mapping's bounds) stays within them.
inline void open_and_decode(const std::uint8_t* data, std::size_t size, const char* extension) {
    struct RemovedAtExit {
        std::string path;
        ~RemovedAtExit() { std::remove(path.c_str()); }
    };
    static const RemovedAtExit file{
        (std::filesystem::temp_directory_path() / ("floatscope_fuzz_" + std::to_string(::getpid()) + extension))
            .string()};
    std::ofstream(file.path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    emu::Checkpoint checkpoint;
    try {
        checkpoint = emu::open_checkpoint(file.path);
    } catch (const Error&) {
        return;
    }
    std::vector<double> values;
    for (const emu::WeightTensor& t : checkpoint.tensors) {
        if (t.file_offset > size || t.data.size() > size - t.file_offset)
            property_failed("tensor bytes lie in the file", fmt::format("tensor '{}' at {}", t.name, t.file_offset));
        values.resize(static_cast<std::size_t>(std::min<std::uint64_t>(t.count, 4096)));
        emu::decode_elements(t, 0, values);
    }
}

}  // namespace floatscope::fuzz
