// CSV records with RFC 4180 quoting; each field is quoted by the plots library's csv_field.
#include "app/gui/csv_text.hpp"

#include "plots/csv_text.hpp"

namespace floatscope::gui {

std::string csv_record(const std::vector<std::string>& fields) {
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ',';
        out += plots::csv_field(fields[i]);
    }
    out += "\r\n";
    return out;
}

}  // namespace floatscope::gui
