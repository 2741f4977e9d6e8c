// CSV text for plot exports: RFC 4180 fields and numbers that read back to the same double.
#pragma once

#include <string>
#include <string_view>

namespace floatscope::plots {

/// The field as RFC 4180 wants it: quoted (with doubled quotes) when it holds a comma, a quote,
/// or a line break; unchanged otherwise.
std::string csv_field(std::string_view text);

/// The shortest decimal that reads back to `value` ("0.1", "1e-08"); "inf", "-inf", "nan" for the
/// non-finite values, as emulation/report.hpp writes them.
std::string csv_number(double value);

}  // namespace floatscope::plots
