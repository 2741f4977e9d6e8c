// Reading IDX files, the array format of MNIST and Fashion-MNIST, gzip-compressed or plain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace floatscope::emu {

/// An IDX array of unsigned bytes: its dimensions and its values in row-major order.
struct IdxArray {
    std::vector<std::uint32_t> dimensions;
    std::vector<std::uint8_t> values;
};

/// Reads an IDX file of unsigned bytes. The format (LeCun, Cortes, Burges, "The MNIST database of
/// handwritten digits", http://yann.lecun.com/exdb/mnist/): two zero bytes, the type (0x08 for
/// unsigned bytes), the number of dimensions (1 to 4 here), each dimension as a big-endian 32-bit
/// integer, then the values. gzip files are read through zlib, which reads plain files as well.
/// `max_items` > 0 keeps only the first items along the first dimension (the rest is not read).
/// Throws floatscope::Error naming the file when it cannot be opened, is not an IDX file of
/// unsigned bytes, holds more than 2^31 values, or is shorter or longer than its dimensions say.
IdxArray read_idx(const std::filesystem::path& path, std::size_t max_items = 0);

}  // namespace floatscope::emu
