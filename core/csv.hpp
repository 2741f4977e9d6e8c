// CSV (RFC 4180): quoting, records, the one spelling of numbers, and a record reader, for every
// table FloatScope writes or reads (reports, CLI tables, plot exports, the GUI's File > Export).
#pragma once

#include <initializer_list>
#include <istream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace floatscope::core {

/// The field as RFC 4180 wants it: quoted (with doubled quotes) when it holds a comma, a quote,
/// or a line break; unchanged otherwise.
std::string csv_field(std::string_view text);

/// RFC 4180's line end, which the GUI's exports use; the CLI and reports end lines in LF.
inline constexpr std::string_view csv_crlf = "\r\n";

/// The fields quoted where needed, joined by commas, ended by `line_end`.
std::string csv_record(std::span<const std::string> fields, std::string_view line_end = "\n");
inline std::string csv_record(std::initializer_list<std::string> fields, std::string_view line_end = "\n") {
    return csv_record(std::span<const std::string>(fields.begin(), fields.size()), line_end);
}

/// The shortest decimal that reads back to `value` ("0.1", "1e-08", "65504"); "inf", "-inf" and
/// "nan" for the non-finite values.
std::string csv_number(double value);

/// The inverse of csv_number, and of any other decimal strtod reads (17 significant digits as
/// older reports wrote them): false for anything else (empty, leading space, trailing text).
bool parse_csv_number(std::string_view text, double& value);

/// Reads RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks; lines
/// end in LF or CRLF. Malformed input throws floatscope::Error "<source> line N: <what>".
class CsvReader {
public:
    /// `source` names the input in error messages ("report CSV").
    CsvReader(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {}

    /// The next record's fields, false at the end of the input. `line` is the physical line the
    /// record started on.
    bool next(std::vector<std::string>& fields, int& line);

    /// An error about line `line` of this input, in the reader's wording.
    [[nodiscard]] Error error(int line, const std::string& what) const;

private:
    std::istream& in_;
    std::string source_;
    int line_ = 1;
};

}  // namespace floatscope::core
