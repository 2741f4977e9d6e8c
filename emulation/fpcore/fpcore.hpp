// FPCore: one benchmark of an FPCore 2.0 file - arguments, properties and body - and the file
// parser and printer (print then parse gives the same tree).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "emulation/fpcore/datum.hpp"

namespace floatscope::emu::fpcore {

/// `:name value`. Every property is kept, known or not (:name, :pre, :precision, :round, :spec,
/// :alt, :example, :cite, :description, :rosa-post, ...).
struct Property {
    std::string name;  ///< without the colon
    Datum value;
};

struct Argument {
    std::string name;
    std::vector<Property> properties;  ///< from `(! :precision integer n)`
    std::vector<Datum> dimensions;  ///< from `(v n m)` or `(! ... v n m)`: a tensor argument
    SourceLocation location;
};

struct FPCore {
    std::string identifier;  ///< `(FPCore name (args) ...)`: callable from other FPCores; else empty
    std::vector<Argument> arguments;
    std::vector<Property> properties;
    Datum body;
    SourceLocation location;

    /// The :name string, else the identifier, else "FPCore at FILE:LINE".
    std::string display_name() const;
    /// The value of a property, or nullptr (the last one when repeated, as :alt may be).
    const Datum* property(std::string_view name) const;
};

/// Parses every FPCore in `text`. Each expression is checked as the evaluator will run it:
/// unknown operations, wrong numbers of arguments, malformed let/while/for forms, unbound
/// variables, bad numbers and unknown precisions are errors naming LINE:COLUMN. Calls of other
/// FPCores are checked against the identifiers defined in the same text.
/// Throws floatscope::Error "SOURCE:LINE:COLUMN: ...".
std::vector<FPCore> parse_fpcores(std::string_view text, const std::string& source = "<text>");

/// Reads and parses a file; throws floatscope::Error naming the file when it cannot be read.
std::vector<FPCore> read_fpcore_file(const std::string& path);

/// FPCore text that parse_fpcores reads back to the same tree (comments are not kept).
std::string print_fpcore(const FPCore& core);

/// The FPCore form of one datum (no expression checks); used by parse_fpcores and tests.
FPCore fpcore_from_datum(const Datum& datum);

}  // namespace floatscope::emu::fpcore
