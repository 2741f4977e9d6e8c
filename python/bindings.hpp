// The parts of the module, one file each: module.cpp calls them in turn.
#pragma once

#include <pybind11/pybind11.h>

namespace floatscope::python {

void bind_format(pybind11::module_& m);
void bind_rounding(pybind11::module_& m);
void bind_arithmetic(pybind11::module_& m);
void bind_quantize(pybind11::module_& m);
void bind_matmul(pybind11::module_& m);
void bind_run(pybind11::module_& m);
void bind_sweep(pybind11::module_& m);
void bind_tune(pybind11::module_& m);

}  // namespace floatscope::python
