// floatscope.add, sub, mul, div, fma and sqrt: eval's engine (emu::Arithmetic) element by element.
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "app/cli/format_values.hpp"
#include "core/error.hpp"
#include "core/format_width.hpp"
#include "emulation/arithmetic/arithmetic.hpp"
#include "python/arguments.hpp"
#include "python/bindings.hpp"
#include "python/numpy_arrays.hpp"

namespace floatscope::python {

namespace py = pybind11;

namespace {

constexpr const char* operand_names[] = {"a", "b", "c"};

bool is_codes(py::handle x) {
    return py::isinstance<py::array>(x) && py::reinterpret_borrow<py::array>(x).dtype().kind() == 'u';
}

/// The operands as C-contiguous arrays of one shape (NumPy broadcasting), uint64 codes or float64 values.
std::vector<py::array> broadcast(const std::vector<py::array>& operands) {
    const py::module_ numpy = py::module_::import("numpy");
    py::tuple args(operands.size());
    for (std::size_t i = 0; i < operands.size(); ++i) args[i] = operands[i];
    std::vector<py::array> shaped;
    for (py::handle a : numpy.attr("broadcast_arrays")(*args))
        // np.array, not np.ascontiguousarray, which would make scalars 1-d; copies only broadcast operands.
        shaped.push_back(numpy.attr("array")(a, py::arg("order") = "C", py::arg("copy") = false).cast<py::array>());
    return shaped;
}

py::object on_codes(const emu::Arithmetic& arithmetic, emu::Operation op, const std::vector<py::object>& operands,
                    bool with_flags) {
    std::vector<py::array> uint64_operands;
    for (std::size_t i = 0; i < operands.size(); ++i)
        uint64_operands.push_back(unsigned_array(operands[i], operand_names[i]).attr("astype")("uint64"));
    const std::vector<py::array> shaped = broadcast(uint64_operands);
    py::array result = empty_like(shaped[0], code_dtype(arithmetic.spec().total_bits()));
    py::array flags = empty_like(shaped[0], py::dtype::of<std::uint8_t>());
    const Codes out = Codes::writable(result);
    const std::span<std::uint8_t> flag_bits = write_view<std::uint8_t>(flags);
    std::vector<std::span<const std::uint64_t>> in;
    for (const py::array& a : shaped) in.push_back(read_view<std::uint64_t>(a));
    {
        py::gil_scoped_release unlocked;
        for (std::size_t i = 0; i < flag_bits.size(); ++i) {
            std::uint64_t bits[3] = {0, 0, 0};
            for (std::size_t k = 0; k < in.size(); ++k) bits[k] = in[k][i];
            const core::Rounded r = arithmetic.apply(op, bits[0], bits[1], bits[2]);
            out.set(i, r.bits);
            flag_bits[i] = r.flags.bits;
        }
    }
    if (with_flags) return py::make_tuple(scalar_if_0d(result), scalar_if_0d(flags));
    return scalar_if_0d(result);
}

py::object on_values(const emu::Arithmetic& arithmetic, emu::Operation op, const std::vector<py::object>& operands,
                     bool with_flags) {
    std::vector<py::array> float64_operands;
    for (std::size_t i = 0; i < operands.size(); ++i)
        float64_operands.push_back(float64_values(operands[i], operand_names[i]));
    const std::vector<py::array> shaped = broadcast(float64_operands);
    std::vector<std::span<const double>> in;
    for (std::size_t k = 0; k < shaped.size(); ++k) {
        in.push_back(read_view<double>(shaped[k]));
        // Operations take values of the format, as eval takes its patterns: the first other one is named.
        for (std::size_t i = 0; i < in[k].size(); ++i)
            cli::require_value_of(arithmetic.spec(), in[k][i], fmt::format("{}[{}]", operand_names[k], i));
    }
    py::array result = empty_like(shaped[0], py::dtype::of<double>());
    py::array flags = empty_like(shaped[0], py::dtype::of<std::uint8_t>());
    const std::span<double> out = write_view<double>(result);
    const std::span<std::uint8_t> flag_bits = write_view<std::uint8_t>(flags);
    const std::span<const double> none;
    {
        py::gil_scoped_release unlocked;
        if (!with_flags) {
            arithmetic.apply_arrays(op, in[0], in.size() > 1 ? in[1] : none, in.size() > 2 ? in[2] : none, out);
        } else {
            for (std::size_t i = 0; i < out.size(); ++i) {
                double v[3] = {0, 0, 0};
                for (std::size_t k = 0; k < in.size(); ++k) v[k] = in[k][i];
                const core::Rounded r = arithmetic.apply_values(op, v[0], v[1], v[2]);
                out[i] = r.value;
                flag_bits[i] = r.flags.bits;
            }
        }
    }
    if (with_flags) return py::make_tuple(scalar_if_0d(result), scalar_if_0d(flags));
    return scalar_if_0d(result);
}

py::object evaluate(emu::Operation op, const std::vector<py::handle>& arguments, py::handle format,
                    const std::string& rounding, std::optional<std::uint64_t> seed, bool with_flags) {
    const core::FormatSpec spec = format_argument(format);
    core::require_within_binary64(spec);
    const cli::RoundingSetup setup(rounding_argument(rounding, seed, std::nullopt, "a"));
    const emu::Arithmetic arithmetic(spec, setup.options());
    std::vector<py::object> operands;
    std::size_t codes = 0;
    for (py::handle a : arguments) {
        codes += is_codes(a) ? 1 : 0;
        operands.push_back(py::reinterpret_borrow<py::object>(a));
    }
    if (codes == arguments.size()) return on_codes(arithmetic, op, operands, with_flags);
    if (codes != 0)
        throw Error(
            fmt::format("{} takes either codes (unsigned integer arrays) or values (floats) for every "
                        "operand, not both",
                        emu::to_string(op)));
    return on_values(arithmetic, op, operands, with_flags);
}

}  // namespace

void bind_arithmetic(py::module_& m) {
    const std::string doc =
        " in the format, rounded once (the CLI's eval). Operands are codes (unsigned integer arrays: the result is "
        "codes) or values of the format (floats: the result is float64; an operand that is not a value raises); "
        "NumPy broadcasting applies. flags=True: (result, flags), one uint8 of IEEE flags per element.";
    const auto define = [&](const char* name, emu::Operation op, const char* what) {
        const int n = emu::operand_count(op);
        const std::string help = what + doc;
        if (n == 1)
            m.def(
                name,
                [op](py::handle a, py::handle format, const std::string& rounding, std::optional<std::uint64_t> seed,
                     bool flags) { return evaluate(op, {a}, format, rounding, seed, flags); },
                py::arg("a"), py::arg("format"), py::arg("rounding") = "rne", py::kw_only(),
                py::arg("seed") = py::none(), py::arg("flags") = false, help.c_str());
        else if (n == 2)
            m.def(
                name,
                [op](py::handle a, py::handle b, py::handle format, const std::string& rounding,
                     std::optional<std::uint64_t> seed, bool flags) {
                    return evaluate(op, {a, b}, format, rounding, seed, flags);
                },
                py::arg("a"), py::arg("b"), py::arg("format"), py::arg("rounding") = "rne", py::kw_only(),
                py::arg("seed") = py::none(), py::arg("flags") = false, help.c_str());
        else
            m.def(
                name,
                [op](py::handle a, py::handle b, py::handle c, py::handle format, const std::string& rounding,
                     std::optional<std::uint64_t> seed, bool flags) {
                    return evaluate(op, {a, b, c}, format, rounding, seed, flags);
                },
                py::arg("a"), py::arg("b"), py::arg("c"), py::arg("format"), py::arg("rounding") = "rne", py::kw_only(),
                py::arg("seed") = py::none(), py::arg("flags") = false, help.c_str());
    };
    define("add", emu::Operation::Add, "a + b");
    define("sub", emu::Operation::Sub, "a - b");
    define("mul", emu::Operation::Mul, "a * b");
    define("div", emu::Operation::Div, "a / b");
    define("sqrt", emu::Operation::Sqrt, "sqrt(a)");
    define("fma", emu::Operation::Fma, "a * b + c");
}

}  // namespace floatscope::python
