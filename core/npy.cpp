// .npy reading and writing: the header's dictionary, then the raw little-endian elements.
#include "core/npy.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/npy_header.hpp"
#include "core/rounding.hpp"

namespace floatscope::core {

namespace {

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
    const NpyHeader header = parse_npy_header(bytes, source);
    const FormatSpec element = element_format(header.descr, source);
    if (header.shape.size() != 2)
        throw Error(fmt::format("{}: the array is not 2-D (a matrix); its header: {}", source, header.dictionary));
    Matrix matrix;
    matrix.rows = header.shape[0];
    matrix.cols = header.shape[1];
    const std::size_t width = static_cast<std::size_t>(element.total_bits() / 8), data = header.data_offset;
    const std::size_t count = matrix.rows * matrix.cols;
    if (matrix.cols != 0 && count / matrix.cols != matrix.rows)
        throw Error(fmt::format("{}: shape ({}, {}) is too large", source, matrix.rows, matrix.cols));
    if ((bytes.size() - data) / width < count)
        throw Error(fmt::format("{}: {} x {} elements of {} bytes need {} bytes of data, the file has {}", source,
                                matrix.rows, matrix.cols, width, count * width, bytes.size() - data));
    matrix.values.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        matrix.values[i] = decode_bits(element, little_endian_bits(bytes, data + i * width, width)).value;
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
    const std::size_t unpadded = npy_magic.size() + 4 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    std::string bytes(npy_magic);
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
