// ONNX graph tensors from NumPy arrays and back, with the dtypes the workload's .npy files have.
#include "python/onnx_arrays.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/element_decoding.hpp"

namespace floatscope::python {

namespace py = pybind11;
using emu::onnx::ElementType;

namespace {

/// The graph's element type of a NumPy dtype, as the .npy reader maps them.
ElementType element_type(const py::dtype& dtype, const std::string& what) {
    const char kind = dtype.kind();
    const auto size = dtype.itemsize();
    if (kind == 'f' && size == 2) return ElementType::Float16;
    if (kind == 'f' && size == 4) return ElementType::Float;
    if (kind == 'f' && size == 8) return ElementType::Double;
    if (kind == 'i' && size == 1) return ElementType::Int8;
    if (kind == 'i' && size == 4) return ElementType::Int32;
    if (kind == 'i' && size == 8) return ElementType::Int64;
    if (kind == 'u' && size == 1) return ElementType::UInt8;
    if (kind == 'u' && size == 4) return ElementType::UInt32;
    if (kind == 'u' && size == 8) return ElementType::UInt64;
    if (kind == 'b') return ElementType::Bool;
    throw Error(
        fmt::format("{} is {}; a graph input is float16, float32, float64, int8, int32, int64, uint8, uint32, "
                    "uint64 or bool",
                    what, py::str(dtype.attr("name")).cast<std::string>()));
}

}  // namespace

emu::onnx::Tensor<double> tensor_from_array(py::handle x, const std::string& what) {
    if (!py::isinstance<py::array>(x))
        throw Error(fmt::format("{} is {}, not a NumPy array", what,
                                py::str(py::type::handle_of(x).attr("__name__")).cast<std::string>()));
    const auto given = py::reinterpret_borrow<py::array>(x);
    const ElementType type = element_type(given.dtype(), what);
    const emu::onnx::Shape shape(given.shape(), given.shape() + given.ndim());
    // Read through NumPy's own conversion: any layout, and every value of these dtypes is exact in
    // double and in int64 (uint64's up to 2^63 - 1).
    if (emu::onnx::is_floating(type)) {
        const auto values = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(given);
        return emu::onnx::number_tensor(type, shape, std::vector<double>(values.data(), values.data() + values.size()));
    }
    if (type == ElementType::UInt64) {
        // int64 would wrap a value past 2^63 - 1: each is checked as the .npy reader checks it.
        const auto values = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(given);
        std::vector<std::int64_t> integers;
        integers.reserve(static_cast<std::size_t>(values.size()));
        for (py::ssize_t i = 0; i < values.size(); ++i) integers.push_back(emu::onnx::uint64_value(values.data()[i]));
        return emu::onnx::integer_tensor<double>(type, shape, std::move(integers));
    }
    const auto values = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(given);
    return emu::onnx::integer_tensor<double>(type, shape,
                                             std::vector<std::int64_t>(values.data(), values.data() + values.size()));
}

py::array array_from_tensor(const emu::onnx::Tensor<double>& tensor) {
    const std::vector<py::ssize_t> shape(tensor.shape.begin(), tensor.shape.end());
    if (tensor.floating()) {
        py::array_t<double> a(shape);
        std::copy(tensor.numbers.begin(), tensor.numbers.end(), a.mutable_data());
        return a;
    }
    py::array_t<std::int64_t> a(shape);
    std::copy(tensor.integers.begin(), tensor.integers.end(), a.mutable_data());
    if (tensor.type == ElementType::Bool) return a.attr("astype")("bool").cast<py::array>();
    return a;
}

void OnnxOutputs::add(const std::string& run, const std::string& output, const emu::onnx::Tensor<double>& tensor) {
    const std::lock_guard<std::mutex> lock(mutex_);
    tensors_[run].emplace_back(output, tensor);
}

py::dict OnnxOutputs::to_python() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    py::dict runs;
    for (const auto& [run, outputs] : tensors_) {
        py::dict arrays;
        for (const auto& [output, tensor] : outputs) arrays[py::str(output)] = array_from_tensor(tensor);
        runs[py::str(run)] = arrays;
    }
    return runs;
}

}  // namespace floatscope::python
