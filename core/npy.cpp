// .npy reading and writing: the header's dictionary, then the raw little-endian elements.
#include "core/npy.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <regex>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/rounding.hpp"

namespace floatscope::core {

namespace {

constexpr std::string_view magic = "\x93NUMPY";

std::uint64_t little_endian(std::string_view bytes, std::size_t offset, std::size_t width) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < width; ++i)
        value |= std::uint64_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
    return value;
}

/// The element format of a dtype string ('<f2' ...), by its size.
FormatSpec element_format(const std::string& dtype, std::string_view source) {
    if (dtype == "<f2") return parse_format("fp16");
    if (dtype == "<f4") return parse_format("fp32");
    if (dtype == "<f8") return parse_format("fp64");
    throw Error(
        fmt::format("{}: dtype '{}' is not supported; valid: '<f2' (float16), '<f4' (float32), '<f8' "
                    "(float64), little-endian",
                    source, dtype));
}

}  // namespace

Matrix parse_npy(std::string_view bytes, std::string_view source) {
    if (bytes.substr(0, magic.size()) != magic || bytes.size() < 10)
        throw Error(fmt::format("{}: not an .npy file (it does not start with \\x93NUMPY)", source));
    const int major = static_cast<unsigned char>(bytes[6]);
    if (major < 1 || major > 3)
        throw Error(fmt::format("{}: .npy format version {} is not supported; valid: 1, 2, 3", source, major));
    const std::size_t length_bytes = major == 1 ? 2 : 4, start = 8 + length_bytes;
    if (bytes.size() < start) throw Error(fmt::format("{}: the .npy header is cut short", source));
    const std::size_t header_length = little_endian(bytes, 8, length_bytes);
    if (bytes.size() < start + header_length) throw Error(fmt::format("{}: the .npy header is cut short", source));
    const std::string header(bytes.substr(start, header_length));

    std::smatch match;
    if (!std::regex_search(header, match, std::regex(R"('descr'\s*:\s*'([^']*)')")))
        throw Error(fmt::format("{}: the .npy header has no 'descr'", source));
    const FormatSpec element = element_format(match[1], source);
    if (!std::regex_search(header, match, std::regex(R"('fortran_order'\s*:\s*(True|False))")) || match[1] == "True")
        throw Error(
            fmt::format("{}: the array is not in C (row-major) order; save it with fortran_order False", source));
    if (!std::regex_search(header, match, std::regex(R"('shape'\s*:\s*\(\s*(\d+)\s*,\s*(\d+)\s*,?\s*\))")))
        throw Error(fmt::format("{}: the array is not 2-D (a matrix); its header: {}", source, header));
    Matrix matrix;
    matrix.rows = std::stoull(match[1]);
    matrix.cols = std::stoull(match[2]);
    const std::size_t width = static_cast<std::size_t>(element.total_bits() / 8), data = start + header_length;
    const std::size_t count = matrix.rows * matrix.cols;
    if (matrix.cols != 0 && count / matrix.cols != matrix.rows)
        throw Error(fmt::format("{}: shape ({}, {}) is too large", source, matrix.rows, matrix.cols));
    if ((bytes.size() - data) / width < count)
        throw Error(fmt::format("{}: {} x {} elements of {} bytes need {} bytes of data, the file has {}", source,
                                matrix.rows, matrix.cols, width, count * width, bytes.size() - data));
    matrix.values.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        matrix.values[i] = decode_bits(element, little_endian(bytes, data + i * width, width)).value;
    return matrix;
}

std::string npy_bytes(const Matrix& matrix, const FormatSpec& element) {
    std::string dtype;
    if (element == parse_format("fp16")) dtype = "<f2";
    if (element == parse_format("fp32")) dtype = "<f4";
    if (dtype.empty()) throw Error(fmt::format("an .npy file holds fp16 or fp32 matrices here, not {}", element.name));
    std::string header =
        fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}, {}), }}", dtype, matrix.rows, matrix.cols);
    // The data start at a multiple of 64 bytes; the header ends in a line break (the format's rule).
    const std::size_t unpadded = magic.size() + 4 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    std::string bytes(magic);
    bytes += '\x01';
    bytes += '\x00';
    bytes += static_cast<char>(header.size() & 0xFF);
    bytes += static_cast<char>(header.size() >> 8);
    bytes += header;
    const Rounder round(element, {});
    const std::size_t width = static_cast<std::size_t>(element.total_bits() / 8);
    for (double v : matrix.values) {
        const std::uint64_t bits = round(v).bits;
        for (std::size_t i = 0; i < width; ++i) bytes += static_cast<char>((bits >> (8 * i)) & 0xFF);
    }
    return bytes;
}

}  // namespace floatscope::core
