// floatscope.format(name) and floatscope.formats(): a format's properties and, up to 16 bits, all its values.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/format_properties.hpp"
#include "python/arguments.hpp"
#include "python/bindings.hpp"

namespace floatscope::python {

namespace py = pybind11;

namespace {

/// A read-only property of Format computed from its FormatProperties (wide formats compute theirs
/// on demand, and may refuse: the error then names the format).
template <typename Member>
void property(py::class_<Format>& cls, const char* name, Member member, const char* doc) {
    cls.def_property_readonly(
        name, [member](const Format& f) { return core::format_properties(f.spec).*member; }, doc);
}

py::array_t<double> all_values(const Format& f) {
    const std::vector<std::uint64_t> codes = core::all_bit_patterns(f.spec);
    py::array_t<double> values(static_cast<py::ssize_t>(codes.size()));
    double* out = values.mutable_data();
    for (std::size_t i = 0; i < codes.size(); ++i) out[i] = core::decode_bits(f.spec, codes[i]).value;
    return values;
}

}  // namespace

void bind_format(py::module_& m) {
    py::class_<Format> cls(m, "Format",
                           "A scalar number format, resolved once by floatscope.format(name); every function "
                           "that takes a format name takes one of these too.");
    cls.def_property_readonly("name", [](const Format& f) { return f.spec.name; })
        .def_property_readonly("kind", [](const Format& f) { return std::string(core::to_string(f.spec.kind)); })
        .def_property_readonly("description", [](const Format& f) { return f.spec.description; })
        .def_property_readonly("aliases", [](const Format& f) { return core::format_aliases(f.spec.name); });
    using P = core::FormatProperties;
    property(cls, "bits", &P::total_bits, "width in bits");
    property(cls, "storage_bits", &P::storage_bits, "bits a value occupies in memory (tf32: 32)");
    property(cls, "exponent_bits", &P::exponent_bits, "exponent field width (binary formats)");
    property(cls, "mantissa_bits", &P::mantissa_bits, "stored significand bits (binary formats)");
    property(cls, "bias", &P::bias, "exponent bias");
    property(cls, "max", &P::max_finite, "largest finite value");
    property(cls, "lowest", &P::lowest, "most negative finite value (0 or the smallest value when unsigned)");
    property(cls, "smallest_normal", &P::min_normal, "smallest positive normal value");
    property(cls, "smallest_subnormal", &P::min_subnormal, "smallest positive value");
    property(cls, "epsilon", &P::epsilon, "2^-M, the gap between 1 and the next value (binary formats)");
    property(cls, "unit_roundoff", &P::unit_roundoff, "2^-(M+1)");
    property(cls, "finite_values", &P::finite_values, "distinct finite values (+0 and -0 count once)");
    property(cls, "has_infinity", &P::has_infinity, "");
    property(cls, "has_nan", &P::has_nan, "");
    property(cls, "has_negative_zero", &P::has_negative_zero, "");
    property(cls, "has_subnormals", &P::has_subnormals, "");
    cls.def("values", &all_values,
            "The value of every code 0 .. 2^bits - 1 in code order, as float64 (formats of at most 16 bits)");
    cls.def("__repr__", [](const Format& f) { return fmt::format("floatscope.format('{}')", f.spec.name); });
    cls.def("__eq__", [](const Format& a, const Format& b) { return a.spec == b.spec; });

    m.def(
        "format", [](py::handle name) { return Format{format_argument(name)}; }, py::arg("name"),
        "The format a name means, as the CLI's --format reads it: catalog names and aliases (fp16, bf16, "
        "float8_e4m3fn, ...), eXmY[fn|fnuz], binaryKpP[s|u][e|f], positN[_esK], takumN, hifloat8, intN/uintN, "
        "with modifiers :sat :satfinite :ftz :bias=N. Raises floatscope.Error for an unknown name.");
    m.def(
        "formats",
        [] {
            std::vector<std::string> names;
            for (const core::FormatSpec& spec : core::catalog_formats()) names.push_back(spec.name);
            return names;
        },
        "The catalog's format names in display order (floatscope-cli formats).");
}

}  // namespace floatscope::python
