// floatscope.matmul, dot and presets: D = A B + C under an accumulation preset, as the CLI's matmul and dot.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "app/cli/format_values.hpp"
#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/rounding.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/dot.hpp"
#include "emulation/quantize/block_scaled_operands.hpp"
#include "python/bindings.hpp"
#include "python/numpy_arrays.hpp"

namespace floatscope::python {

namespace py = pybind11;

namespace {

/// The preset's model with the CLI's --output (fp32 or fp16) applied, validated.
emu::AccumulationModel preset_model(const emu::AccumulationPreset& preset, const std::optional<std::string>& output) {
    emu::AccumulationModel model = preset.model;
    if (output) {
        if (*output != "fp32" && *output != "fp16")
            throw Error(fmt::format("output '{}' is not one of fp32, fp16", *output));
        // fp16 output takes the preset's fp16-accumulating instruction where the GPU has one, as the CLI.
        model = emu::model_with_output(preset, {core::parse_format(*output), core::RoundingMode::NearestEven});
    }
    emu::validate(model);
    return model;
}

/// An operand as float64 of `ndim` dimensions (-1: any), whose every entry is a value of `format`; the
/// first entry that is not is named as the CLI names it.
py::array_t<double> operand(py::handle x, const std::string& name, int ndim, const core::FormatSpec& format) {
    const py::array_t<double> a = float64_values(x, name);
    if (ndim >= 0 && a.ndim() != ndim)
        throw Error(fmt::format("{} has {} dimensions; expected {}", name, a.ndim(), ndim));
    const std::span<const double> values = read_view<double>(a);
    const auto cols = a.ndim() == 0 ? std::size_t{1} : static_cast<std::size_t>(a.shape(a.ndim() - 1));
    for (std::size_t i = 0; i < values.size(); ++i)
        cli::require_value_of(format, values[i],
                              a.ndim() == 0   ? name
                              : a.ndim() == 1 ? fmt::format("{}[{}]", name, i)
                                              : fmt::format("{} row {} column {}", name, i / cols + 1, i % cols + 1));
    return a;
}

/// "(2, 16)": an array's shape as NumPy prints it.
std::string shape_text(const py::array& a) { return py::str(a.attr("shape")).cast<std::string>(); }

/// D in the NumPy type that holds the output format's values exactly: float16, float32 or float64.
py::dtype output_dtype(const core::FormatSpec& output) {
    if (output == core::parse_format("fp16")) return py::dtype("float16");
    if (output == core::parse_format("fp32")) return py::dtype::of<float>();
    return py::dtype::of<double>();
}

py::array matmul(py::handle a_argument, py::handle b_argument, py::handle c_argument, const std::string& preset_name,
                 const std::optional<std::string>& output) {
    const emu::AccumulationModel model = preset_model(emu::find_accumulation_preset(preset_name), output);
    // A block-scaled preset quantizes A and B itself, with its instruction's recipe (as the CLI's matmul).
    const bool block_scaled = model.order == emu::AccumulationOrder::BlockScaledFma;
    const core::FormatSpec any = core::parse_format("fp64");
    const py::array_t<double> a = operand(a_argument, "A", 2, block_scaled ? any : model.x.rounding.format);
    const py::array_t<double> b = operand(b_argument, "B", 2, block_scaled ? any : model.y.rounding.format);
    const auto m = static_cast<std::size_t>(a.shape(0)), k = static_cast<std::size_t>(a.shape(1)),
               n = static_cast<std::size_t>(b.shape(1));
    if (k != static_cast<std::size_t>(b.shape(0)))
        throw Error(fmt::format("A is {}x{} and B {}x{}; A's columns must match B's rows", m, k, b.shape(0), n));
    py::array_t<double> c;
    if (!c_argument.is_none()) {
        c = operand(c_argument, "C", 2, model.output.format);
        if (static_cast<std::size_t>(c.shape(0)) != m || static_cast<std::size_t>(c.shape(1)) != n)
            throw Error(fmt::format("C is {}x{}; A B is {}x{}", c.shape(0), c.shape(1), m, n));
    }
    py::array_t<double> d({m, n});
    {
        const std::span<const double> addend = c_argument.is_none() ? std::span<const double>{} : read_view<double>(c);
        const std::span<double> out = write_view<double>(d);
        const std::span<const double> a_values = read_view<double>(a), b_values = read_view<double>(b);
        py::gil_scoped_release unlocked;
        emu::matrix_product(model, a_values, b_values, out, m, k, n, addend);
    }
    return d.attr("astype")(output_dtype(model.output.format));
}

/// D = A B + C for each row of A and B along their last axis (one instruction each for the hardware
/// presets, as `floatscope-cli dot` does a line); C a scalar or one per row. A float for 1-D A and B.
py::object dot(py::handle a_argument, py::handle b_argument, py::handle c_argument, const std::string& preset_name,
               const std::optional<std::string>& output) {
    const emu::AccumulationPreset& preset = emu::find_accumulation_preset(preset_name);
    const emu::AccumulationModel model = preset_model(preset, output);
    const py::array_t<double> a = operand(a_argument, "A", -1, model.x.rounding.format);
    const py::array_t<double> b = operand(b_argument, "B", -1, model.y.rounding.format);
    if (a.ndim() == 0) throw Error("A is a scalar; dot takes K operands along the last axis of A and B");
    const std::vector<py::ssize_t> shape(a.shape(), a.shape() + a.ndim());
    if (!std::equal(shape.begin(), shape.end(), b.shape(), b.shape() + b.ndim()))
        throw Error(fmt::format("A is {} and B {}; they must have the same shape", shape_text(a), shape_text(b)));
    const auto k = static_cast<int>(shape.back());
    if (k == 0 || !preset.takes_k(k))
        throw Error(fmt::format("A and B hold K = {} operands; {} takes {}", k, preset.name,
                                preset.instruction_ks.empty()
                                    ? std::string("K >= 1")
                                    : fmt::format("K = {}", fmt::join(preset.instruction_ks, " or "))));
    const std::vector<py::ssize_t> rows_shape(shape.begin(), shape.end() - 1);
    const py::array_t<double> c = operand(c_argument, "C", -1, model.output.format);
    if (c.ndim() != 0 && !std::equal(rows_shape.begin(), rows_shape.end(), c.shape(), c.shape() + c.ndim()))
        throw Error(fmt::format("C is {}; give one C, or one per row of A and B ({} rows)", shape_text(c),
                                shape_text(py::array_t<double>(rows_shape))));
    py::array_t<double> d(rows_shape);
    {
        const std::span<const double> a_values = read_view<double>(a), b_values = read_view<double>(b),
                                      c_values = read_view<double>(c);
        const std::span<double> out = write_view<double>(d);
        const auto products = static_cast<std::size_t>(k);
        py::gil_scoped_release unlocked;
        for (std::size_t row = 0; row < out.size(); ++row) {
            const double addend = c_values.size() == 1 ? c_values[0] : c_values[row];
            out[row] =
                core::round_to_format(model.output.format, emu::dot(model, a_values.subspan(row * products, products),
                                                                    b_values.subspan(row * products, products), addend))
                    .value;
        }
    }
    if (a.ndim() == 1) return py::float_(d.at());
    return d.attr("astype")(output_dtype(model.output.format));
}

}  // namespace

void bind_matmul(py::module_& m) {
    m.def("matmul", &matmul, py::arg("a"), py::arg("b"), py::arg("c") = py::none(), py::kw_only(), py::arg("preset"),
          py::arg("output") = py::none(),
          "D = A B + C under an accumulation preset (floatscope.presets()), bit for bit as `floatscope-cli matmul`: "
          "A (m x k) and B (k x n) hold values of the preset's input format, C (m x n, optional) of its output "
          "format, as float16, float32 or float64 arrays; output='fp32' or 'fp16' replaces the preset's output "
          "format. D comes back as float16 (fp16 output), float32 (fp32) or float64.");
    m.def("dot", &dot, py::arg("a"), py::arg("b"), py::arg("c") = 0.0, py::kw_only(), py::arg("preset"),
          py::arg("output") = py::none(),
          "D = sum a_i b_i + c along the last axis of a and b (same shape, K operands a row), as `floatscope-cli "
          "dot` computes a line (one matrix instruction of K products for the hardware presets); c a value of the "
          "output format or an array of one per row. A float for 1-D a and b; otherwise an array of a's shape "
          "without its last axis, as float16 (fp16 output), float32 (fp32) or float64.");
    m.def(
        "presets",
        [] {
            std::vector<std::string> names;
            for (const emu::AccumulationPreset& p : emu::accumulation_presets()) names.push_back(p.name);
            return names;
        },
        "The accumulation presets' names (floatscope-cli list).");
}

}  // namespace floatscope::python
