// Checks of NumPy arguments: a wrong dtype or layout is a floatscope::Error with the fix, never a crash.
#include "python/numpy_arrays.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::python {

namespace {

std::string dtype_name(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

void require_contiguous(const py::array& a, const std::string& what) {
    if (!(a.flags() & py::array::c_style))
        throw Error(
            fmt::format("{} is not C-contiguous (a strided view); np.ascontiguousarray({}) copies it", what, what));
}

py::array as_numpy(py::handle x, const char* dtype) {
    return py::module_::import("numpy").attr("asarray")(x, py::arg("dtype") = dtype);
}

}  // namespace

py::array float_array(py::handle x, const std::string& what) {
    if (!py::isinstance<py::array>(x)) return as_numpy(x, "float64");
    auto a = py::reinterpret_borrow<py::array>(x);
    if (!a.dtype().is(py::dtype::of<float>()) && !a.dtype().is(py::dtype::of<double>()))
        throw Error(fmt::format("{} is {}; this function takes float32 or float64 ({}.astype(np.float64) converts it)",
                                what, dtype_name(a), what));
    require_contiguous(a, what);
    return a;
}

py::array_t<double> float64_values(py::handle x, const std::string& what) {
    if (py::isinstance<py::array>(x)) {
        auto a = py::reinterpret_borrow<py::array>(x);
        // float128 (long double) would be rounded by the conversion: refused like the other types.
        if (a.dtype().kind() != 'f' || a.itemsize() > 8)
            throw Error(
                fmt::format("{} is {}; this function takes float16, float32 or float64 values", what, dtype_name(a)));
        require_contiguous(a, what);
    }
    // Every float16 and float32 is a double: the conversion is exact.
    return as_numpy(x, "float64");
}

py::array unsigned_array(py::handle codes, const std::string& what) {
    if (!py::isinstance<py::array>(codes)) return as_numpy(codes, "uint64");
    auto a = py::reinterpret_borrow<py::array>(codes);
    if (a.dtype().kind() != 'u')
        throw Error(fmt::format("{} is {}; codes are unsigned integers (uint8, uint16, uint32 or uint64)", what,
                                dtype_name(a)));
    require_contiguous(a, what);
    return a;
}

py::dtype code_dtype(int bits) {
    if (bits <= 8) return py::dtype::of<std::uint8_t>();
    if (bits <= 16) return py::dtype::of<std::uint16_t>();
    if (bits <= 32) return py::dtype::of<std::uint32_t>();
    return py::dtype::of<std::uint64_t>();
}

py::array empty_like(const py::array& like, const py::dtype& dtype) {
    std::vector<py::ssize_t> shape(like.shape(), like.shape() + like.ndim());
    return py::array(dtype, shape);
}

std::uint64_t Codes::operator[](std::size_t i) const {
    switch (width_) {
        case 1: return static_cast<const std::uint8_t*>(data_)[i];
        case 2: return static_cast<const std::uint16_t*>(data_)[i];
        case 4: return static_cast<const std::uint32_t*>(data_)[i];
        default: return static_cast<const std::uint64_t*>(data_)[i];
    }
}

void Codes::set(std::size_t i, std::uint64_t value) const {
    switch (width_) {
        case 1: static_cast<std::uint8_t*>(data_)[i] = static_cast<std::uint8_t>(value); break;
        case 2: static_cast<std::uint16_t*>(data_)[i] = static_cast<std::uint16_t>(value); break;
        case 4: static_cast<std::uint32_t*>(data_)[i] = static_cast<std::uint32_t>(value); break;
        default: static_cast<std::uint64_t*>(data_)[i] = value; break;
    }
}

py::object scalar_if_0d(const py::array& result) {
    if (result.ndim() == 0) return result[py::tuple()];
    return result;
}

}  // namespace floatscope::python
