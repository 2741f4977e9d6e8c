// .npy arrays as tensors: core's header parser, then the little-endian elements of the dtype.
#include "emulation/workloads/onnx/npy_array.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "core/npy_header.hpp"
#include "emulation/workloads/onnx/element_decoding.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

struct Dtype {
    const char* descr;
    ElementType type;
};

constexpr Dtype dtypes[] = {
    {"<f2", ElementType::Float16}, {"<f4", ElementType::Float},  {"<f8", ElementType::Double},
    {"<i4", ElementType::Int32},   {"<i8", ElementType::Int64},  {"|i1", ElementType::Int8},
    {"|u1", ElementType::UInt8},   {"|b1", ElementType::Bool},   {"<i2", ElementType::Int16},
    {"<u2", ElementType::UInt16},  {"<u4", ElementType::UInt32}, {"<u8", ElementType::UInt64},
};

const Dtype& find_dtype(const std::string& descr, std::string_view source) {
    for (const Dtype& d : dtypes)
        if (descr == d.descr) return d;
    std::string valid;
    for (const Dtype& d : dtypes)
        valid += fmt::format("{}'{}' ({})", valid.empty() ? "" : ", ", d.descr, to_string(d.type));
    throw Error(fmt::format("{}: dtype '{}' is not supported; valid: {}", source, descr, valid));
}

}  // namespace

Tensor<double> parse_npy_array(std::string_view bytes, std::string_view source) {
    const core::NpyHeader header = core::parse_npy_header(bytes, source);
    const Dtype& dtype = find_dtype(header.descr, source);
    Shape shape(header.shape.begin(), header.shape.end());
    std::size_t count = 0;
    try {
        count = element_count(shape);
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}", source, e.what()));
    }
    const std::size_t width = element_width(dtype.type);
    const std::size_t available = (bytes.size() - header.data_offset) / width;
    if (available < count)
        throw Error(fmt::format("{}: {} elements of shape {} need {} bytes of data, the file has {}", source, count,
                                describe(shape), static_cast<double>(count) * width,
                                bytes.size() - header.data_offset));
    core::require_memory(fmt::format("{}: an array of {} elements", source, count), 8.0 * static_cast<double>(count));
    Tensor<double> t;
    t.type = dtype.type;
    t.shape = std::move(shape);
    try {
        decode_little_endian(bytes.substr(header.data_offset, count * width), t);
    } catch (const Unsupported& e) {  // a uint64 past 2^63 - 1
        throw Unsupported(fmt::format("{}: {}", source, e.what()));
    }
    return t;
}

}  // namespace floatscope::emu::onnx
