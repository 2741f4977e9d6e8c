// Format and rounding arguments, resolved by the CLI's own code so that names and errors agree.
#include "python/arguments.hpp"

#include <fmt/format.h>

#include "app/cli/format_name.hpp"
#include "core/error.hpp"

namespace floatscope::python {

namespace py = pybind11;

core::FormatSpec format_argument(py::handle format) {
    if (py::isinstance<Format>(format)) return format.cast<const Format&>().spec;
    if (!py::isinstance<py::str>(format))
        throw Error(fmt::format("a format is a name such as 'fp16' or a floatscope.Format, not {}",
                                py::str(py::type::handle_of(format).attr("__name__")).cast<std::string>()));
    return cli::parse_scalar_format(format.cast<std::string>());
}

cli::RoundingChoice rounding_argument(const std::string& rounding, std::optional<std::uint64_t> seed,
                                      std::optional<int> sr_bits, const std::string& sr_variant) {
    cli::RoundingChoice choice;
    choice.mode = rounding;
    if (seed) choice.seed = *seed;
    if (sr_bits) choice.random_bits = *sr_bits;
    choice.sr_variant = sr_variant;
    return choice;
}

}  // namespace floatscope::python
