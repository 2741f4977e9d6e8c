// floatscope.round, encode and decode: arrays rounded once to a format, as values, codes or back.
#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/format_width.hpp"
#include "core/round_array.hpp"
#include "core/rounding.hpp"
#include "python/arguments.hpp"
#include "python/bindings.hpp"
#include "python/numpy_arrays.hpp"

namespace floatscope::python {

namespace py = pybind11;

namespace {

/// Each value through core::Rounder (the CLI's encode), writing what `store` takes from the result.
template <typename T, typename Store>
void round_each(const core::Rounder& rounder, std::span<const T> in, Store store) {
    for (std::size_t i = 0; i < in.size(); ++i) store(i, rounder(static_cast<double>(in[i])));
}

/// `out` when given (x's dtype and shape, C-contiguous, writable; x itself rounds in place), else a new array.
py::array output_for(const py::array& x, py::handle out) {
    if (out.is_none()) return empty_like(x, x.dtype());
    if (!py::isinstance<py::array>(out)) throw Error("out must be a NumPy array");
    auto a = py::reinterpret_borrow<py::array>(out);
    const bool same_shape = a.ndim() == x.ndim() && std::equal(x.shape(), x.shape() + x.ndim(), a.shape());
    if (!a.dtype().is(x.dtype()) || !same_shape)
        throw Error(fmt::format("out is {} {}; x is {} {}", py::str(a.dtype()).cast<std::string>(),
                                py::str(a.attr("shape")).cast<std::string>(), py::str(x.dtype()).cast<std::string>(),
                                py::str(x.attr("shape")).cast<std::string>()));
    if (!(a.flags() & py::array::c_style) || !a.writeable()) throw Error("out must be C-contiguous and writable");
    return a;
}

template <typename T>
py::object round_typed(const core::FormatSpec& spec, const py::array& x, const cli::RoundingSetup& setup,
                       bool with_flags, py::handle out_argument) {
    py::array out = output_for(x, out_argument);
    const std::span<const T> in = read_view<T>(x);
    const std::span<T> values = write_view<T>(out);
    if (!with_flags) {
        py::gil_scoped_release unlocked;
        core::round_array(spec, setup.options().mode, in, values, setup.options().random);
        return scalar_if_0d(out);
    }
    py::array flags = empty_like(x, py::dtype::of<std::uint8_t>());
    const std::span<std::uint8_t> flag_bits = write_view<std::uint8_t>(flags);
    {
        py::gil_scoped_release unlocked;
        const core::Rounder rounder(spec, setup.options());
        round_each(rounder, in, [&](std::size_t i, const core::Rounded& r) {
            values[i] = static_cast<T>(r.value);
            flag_bits[i] = r.flags.bits;
        });
    }
    return py::make_tuple(scalar_if_0d(out), scalar_if_0d(flags));
}

py::object round_values(py::handle x, py::handle format, const std::string& rounding, std::optional<std::uint64_t> seed,
                        std::optional<int> sr_bits, const std::string& sr_variant, bool flags, py::handle out) {
    const core::FormatSpec spec = format_argument(format);
    core::require_within_binary64(spec);
    const cli::RoundingSetup setup(rounding_argument(rounding, seed, sr_bits, sr_variant));
    const py::array values = float_array(x, "x");
    if (values.dtype().is(py::dtype::of<float>())) return round_typed<float>(spec, values, setup, flags, out);
    return round_typed<double>(spec, values, setup, flags, out);
}

template <typename T>
void encode_typed(const core::Rounder& rounder, const py::array& x, py::array& codes, py::array& flags) {
    const std::span<const T> in = read_view<T>(x);
    const Codes out = Codes::writable(codes);
    const std::span<std::uint8_t> flag_bits = write_view<std::uint8_t>(flags);
    py::gil_scoped_release unlocked;
    round_each(rounder, in, [&](std::size_t i, const core::Rounded& r) {
        out.set(i, r.bits);
        flag_bits[i] = r.flags.bits;
    });
}

py::object encode(py::handle x, py::handle format, const std::string& rounding, std::optional<std::uint64_t> seed,
                  std::optional<int> sr_bits, const std::string& sr_variant, bool with_flags) {
    const core::FormatSpec spec = format_argument(format);
    core::require_within_binary64(spec);
    const cli::RoundingSetup setup(rounding_argument(rounding, seed, sr_bits, sr_variant));
    const core::Rounder rounder(spec, setup.options());
    const py::array values = float_array(x, "x");
    py::array codes = empty_like(values, code_dtype(spec.total_bits()));
    py::array flags = empty_like(values, py::dtype::of<std::uint8_t>());
    if (values.dtype().is(py::dtype::of<float>()))
        encode_typed<float>(rounder, values, codes, flags);
    else
        encode_typed<double>(rounder, values, codes, flags);
    if (with_flags) return py::make_tuple(scalar_if_0d(codes), scalar_if_0d(flags));
    return scalar_if_0d(codes);
}

py::object decode(py::handle codes_argument, py::handle format) {
    const core::FormatSpec spec = format_argument(format);
    core::require_within_binary64(spec);
    const py::array codes = unsigned_array(codes_argument, "codes");
    py::array values = empty_like(codes, py::dtype::of<double>());
    const std::span<double> out = write_view<double>(values);
    const Codes in(codes);
    {
        py::gil_scoped_release unlocked;
        // decode_bits refuses a code wider than the format, naming it.
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = core::decode_bits(spec, in[i]).value;
    }
    return scalar_if_0d(values);
}

}  // namespace

void bind_rounding(py::module_& m) {
    const char* sr_doc =
        " rounding: rne rna rtz rup rdn rto sr sr-equal. seed: the random source of sr and sr-equal (same seed, "
        "same results); sr_bits and sr_variant: P3109's stochastic rules (a with 64 bits is sr). Flags: 1 inexact, "
        "2 underflow, 4 overflow, 8 divide-by-zero, 16 invalid.";
    m.def(
        "round", &round_values, py::arg("x"), py::arg("format"), py::arg("rounding") = "rne", py::kw_only(),
        py::arg("seed") = py::none(), py::arg("sr_bits") = py::none(), py::arg("sr_variant") = "a",
        py::arg("flags") = false, py::arg("out") = py::none(),
        (std::string("x (float32 or float64) rounded once to the format, returned in x's type (into `out` when "
                     "given: an array like x, or x itself to round in place; a float32 result holds the format's value "
                     "rounded to float32 where float32 cannot hold it, as for int32, posit32 or fp64: pass float64 "
                     "there); with flags=True "
                     "(values, flags), one uint8 of IEEE flags per element (each value through the CLI's "
                     "Rounder, so sr draws differ from flags=False).") +
         sr_doc)
            .c_str());
    m.def("encode", &encode, py::arg("x"), py::arg("format"), py::arg("rounding") = "rne", py::kw_only(),
          py::arg("seed") = py::none(), py::arg("sr_bits") = py::none(), py::arg("sr_variant") = "a",
          py::arg("flags") = false,
          (std::string("x rounded once to the format, as codes (bit patterns) in the smallest unsigned type that "
                       "holds them (uint8 for 8-bit formats, the ml_dtypes layout); flags=True: (codes, flags).") +
           sr_doc)
              .c_str());
    m.def("decode", &decode, py::arg("codes"), py::arg("format"),
          "The exact value of each code (unsigned integers) as float64; raises for a code wider than the format.");
}

}  // namespace floatscope::python
