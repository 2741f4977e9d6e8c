// NumPy arguments of the module: dtype and layout checks that raise floatscope.Error, and views without copies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace floatscope::python {

namespace py = pybind11;

/// A float32 or float64 ndarray as it is, or anything else NumPy reads (a float, a list) as float64.
/// Throws floatscope::Error naming `what` for another dtype or an array that is not C-contiguous: the
/// kernels read memory in order, and a silent copy would hide the cost.
py::array float_array(py::handle x, const std::string& what);
/// The same, but float16 too (the operand types of matmul and dot), returned as float64 values.
py::array_t<double> float64_values(py::handle x, const std::string& what);
/// An unsigned integer ndarray (codes) as it is, or anything else as uint64.
py::array unsigned_array(py::handle codes, const std::string& what);

/// The unsigned dtype that holds codes of `bits` bits: uint8, uint16, uint32 or uint64.
py::dtype code_dtype(int bits);
/// A new C-contiguous array of `dtype` shaped like `like`.
py::array empty_like(const py::array& like, const py::dtype& dtype);
/// The elements of an unsigned array of any width, read and written without the GIL.
class Codes {
public:
    explicit Codes(const py::array& codes)
        : data_(const_cast<void*>(codes.data())), width_(static_cast<int>(codes.itemsize())) {}
    /// Writable: `codes` must be an array this module made.
    static Codes writable(py::array& codes) { return Codes(codes.mutable_data(), static_cast<int>(codes.itemsize())); }

    std::uint64_t operator[](std::size_t i) const;
    void set(std::size_t i, std::uint64_t value) const;

private:
    Codes(void* data, int width) : data_(data), width_(width) {}
    void* data_;
    int width_;
};

template <typename T>
std::span<const T> read_view(const py::array& a) {
    return {static_cast<const T*>(a.data()), static_cast<std::size_t>(a.size())};
}
template <typename T>
std::span<T> write_view(py::array& a) {
    return {static_cast<T*>(a.mutable_data()), static_cast<std::size_t>(a.size())};
}

/// A 0-d result as a NumPy scalar, as NumPy's own functions return for scalar arguments.
py::object scalar_if_0d(const py::array& result);

}  // namespace floatscope::python
