// CSV text (RFC 4180) of the tables the views show, for File > Export.
#pragma once

#include <string>
#include <vector>

namespace floatscope::gui {

/// One record: fields quoted where they hold a comma, quote or line break; ends with CRLF as
/// RFC 4180 section 2 writes it.
std::string csv_record(const std::vector<std::string>& fields);

}  // namespace floatscope::gui
