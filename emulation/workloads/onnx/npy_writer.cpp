// .npy files of any rank: a 1.0 header padded to a multiple of 64 bytes, then the values.
#include "emulation/workloads/onnx/npy_writer.hpp"

#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "core/atomic_file.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class T>
void append_little_endian(std::string& out, T value) {
    static_assert(std::endian::native == std::endian::little, "npy_bytes writes the machine's little-endian bytes");
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

}  // namespace

std::string npy_bytes(const Tensor<double>& tensor) {
    const char* descr = tensor.floating() ? "<f8" : tensor.type == ElementType::Bool ? "|b1" : "<i8";
    std::string shape;
    for (std::int64_t d : tensor.shape) shape += fmt::format("{}, ", d);
    if (tensor.shape.size() > 1) shape.resize(shape.size() - 2);  // (3,) keeps its comma, (2, 3) has none
    std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", descr, shape);
    // NumPy's rule: magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64.
    const std::size_t padded = (10 + header.size() + 1 + 63) / 64 * 64;
    header.append(padded - 10 - header.size() - 1, ' ');
    header += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    append_little_endian(out, static_cast<std::uint16_t>(header.size()));
    out += header;
    if (tensor.floating()) {
        for (double v : tensor.numbers) append_little_endian(out, v);
    } else if (tensor.type == ElementType::Bool) {
        for (std::int64_t v : tensor.integers) out += static_cast<char>(v != 0);
    } else {
        for (std::int64_t v : tensor.integers) append_little_endian(out, v);
    }
    return out;
}

void write_npy(const std::filesystem::path& path, const Tensor<double>& tensor) {
    core::AtomicFile file(path);
    file.write(npy_bytes(tensor));
    file.commit();
}

}  // namespace floatscope::emu::onnx
