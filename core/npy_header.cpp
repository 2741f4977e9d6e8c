// .npy headers: magic, version, the length of the dictionary, the dictionary's 'descr', 'fortran_order' and 'shape'.
#include "core/npy_header.hpp"

#include <charconv>
#include <regex>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::core {

namespace {

/// The dimensions of a shape tuple's inside ("2, 3", "4,", ""); throws for anything but
/// comma-separated decimal dimensions below 2^62.
std::vector<std::uint64_t> parse_shape(const std::string& tuple, std::string_view source, const std::string& header) {
    std::vector<std::uint64_t> shape;
    const std::regex dimension(R"(\s*(\d+)\s*(,|$))");
    for (auto it = std::sregex_iterator(tuple.begin(), tuple.end(), dimension); it != std::sregex_iterator(); ++it) {
        const std::string digits = (*it)[1];
        std::uint64_t d = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
        if (error != std::errc() || end != digits.data() + digits.size() || d >= (std::uint64_t{1} << 62))
            throw Error(
                fmt::format("{}: dimension {} of the .npy shape is too large; its header: {}", source, digits, header));
        shape.push_back(d);
    }
    return shape;
}

}  // namespace

std::uint64_t little_endian_bits(std::string_view bytes, std::size_t offset, std::size_t width) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < width; ++i)
        value |= std::uint64_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
    return value;
}

NpyHeader parse_npy_header(std::string_view bytes, std::string_view source) {
    if (bytes.substr(0, npy_magic.size()) != npy_magic || bytes.size() < 10)
        throw Error(fmt::format("{}: not an .npy file (it does not start with \\x93NUMPY)", source));
    const int major = static_cast<unsigned char>(bytes[6]);
    if (major < 1 || major > 3)
        throw Error(fmt::format("{}: .npy format version {} is not supported; valid: 1, 2, 3", source, major));
    const std::size_t length_bytes = major == 1 ? 2 : 4, start = 8 + length_bytes;
    if (bytes.size() < start) throw Error(fmt::format("{}: the .npy header is cut short", source));
    const std::size_t header_length = little_endian_bits(bytes, 8, length_bytes);
    if (bytes.size() - start < header_length) throw Error(fmt::format("{}: the .npy header is cut short", source));
    NpyHeader header;
    header.dictionary = std::string(bytes.substr(start, header_length));
    header.data_offset = start + header_length;

    std::smatch match;
    if (!std::regex_search(header.dictionary, match, std::regex(R"('descr'\s*:\s*'([^']*)')")))
        throw Error(fmt::format("{}: the .npy header has no 'descr'", source));
    header.descr = match[1];
    if (!std::regex_search(header.dictionary, match, std::regex(R"('fortran_order'\s*:\s*(True|False))")) ||
        match[1] == "True")
        throw Error(
            fmt::format("{}: the array is not in C (row-major) order; save it with fortran_order False", source));
    // A tuple of decimal dimensions: () for 0-d, (4,) for 1-d, (2, 3) or (2, 3,) beyond.
    if (!std::regex_search(header.dictionary, match, std::regex(R"('shape'\s*:\s*\(((\s*\d+\s*,)*(\s*\d+)?\s*)\))")))
        throw Error(fmt::format("{}: the .npy header has no 'shape' tuple; its header: {}", source, header.dictionary));
    header.shape = parse_shape(match[1], source, header.dictionary);
    return header;
}

}  // namespace floatscope::core
