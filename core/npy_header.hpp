// The header of a NumPy .npy file (format versions 1 to 3): what every .npy reader parses first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace floatscope::core {

/// The six bytes every .npy file starts with.
inline constexpr std::string_view npy_magic = "\x93NUMPY";

struct NpyHeader {
    std::string descr;  ///< the dtype as numpy writes it: '<f4', '|b1'
    std::vector<std::uint64_t> shape;  ///< () for a 0-d array
    std::string dictionary;  ///< the header's text, for messages
    std::size_t data_offset = 0;  ///< where the elements start in the file
};

/// The header of an .npy file. Throws floatscope::Error naming `source` and what is wrong: not an
/// .npy file, a version other than 1 to 3, the header cut short, no 'descr' or 'shape', a
/// dimension past 2^62, or Fortran order (FloatScope reads C order only).
NpyHeader parse_npy_header(std::string_view bytes, std::string_view source);

/// The little-endian unsigned integer of `width` bytes (at most 8) at `offset` of `bytes`.
std::uint64_t little_endian_bits(std::string_view bytes, std::size_t offset, std::size_t width);

}  // namespace floatscope::core
