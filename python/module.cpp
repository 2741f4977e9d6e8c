// The Python module floatscope: FloatScope's formats, roundings, arithmetic, quantizers, tensor-core
// models and workloads on NumPy arrays. Errors are floatscope.Error, a ValueError, with the CLI's message.
#include <pybind11/pybind11.h>

#include "core/error.hpp"
#include "python/bindings.hpp"

PYBIND11_MODULE(floatscope, m) {
    m.doc() =
        "FloatScope: bit-exact number-format emulation (formats, rounding, arithmetic, block quantization, "
        "tensor-core matrix products, workloads) on NumPy arrays. docs/python.md walks through it.";
    m.attr("__version__") = FLOATSCOPE_VERSION;
    pybind11::register_exception<floatscope::Error>(m, "Error", PyExc_ValueError);
    floatscope::python::bind_format(m);
    floatscope::python::bind_rounding(m);
    floatscope::python::bind_arithmetic(m);
    floatscope::python::bind_quantize(m);
    floatscope::python::bind_matmul(m);
    floatscope::python::bind_run(m);
    floatscope::python::bind_sweep(m);
    floatscope::python::bind_tune(m);
}
