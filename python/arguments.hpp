// The arguments every function shares: a format (name or floatscope.Format) and the rounding options.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "app/cli/rounding_choice.hpp"
#include "core/format.hpp"

namespace floatscope::python {

/// What floatscope.format(name) returns: one scalar format, resolved once.
struct Format {
    core::FormatSpec spec;
};

/// A floatscope.Format as it is, or a name resolved as the CLI's --format resolves it (catalog,
/// eXmY, P3109, posits, ..., modifiers); throws floatscope::Error with the CLI's message otherwise.
core::FormatSpec format_argument(pybind11::handle format);

/// The CLI's --round, --seed, --sr-variant and --random-bits as keyword arguments (None: the CLI's
/// default), checked when a RoundingSetup is made from them.
cli::RoundingChoice rounding_argument(const std::string& rounding, std::optional<std::uint64_t> seed,
                                      std::optional<int> sr_bits, const std::string& sr_variant);

}  // namespace floatscope::python
