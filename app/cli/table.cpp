// Text table alignment and CSV quoting.
#include "app/cli/table.hpp"

#include <algorithm>
#include <cctype>

namespace floatscope::cli {

namespace {

bool looks_numeric(const std::string& cell) {
    if (cell.empty()) return false;
    const char first = cell[0];
    return std::isdigit(static_cast<unsigned char>(first)) != 0 || first == '-' || first == '+' || first == '.' ||
           cell == "inf" || cell == "nan";
}

}  // namespace

void TextTable::print(std::ostream& out) const {
    std::vector<std::size_t> widths(header_.size());
    auto widen = [&](const Row& row) {
        for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    };
    widen(header_);
    for (const Row& row : rows_) widen(row);
    // A column of numbers (and "-" for not applicable) is right-aligned, header included.
    std::vector<bool> right(header_.size(), !rows_.empty());
    for (const Row& row : rows_)
        for (std::size_t i = 0; i < row.size() && i < right.size(); ++i)
            right[i] = right[i] && (looks_numeric(row[i]) || row[i] == "-");

    auto print_row = [&](const Row& row) {
        std::string line;
        for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            if (i > 0) line += "  ";
            const std::string padding(widths[i] - row[i].size(), ' ');
            line += right[i] ? padding + row[i] : row[i] + padding;
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out << line << '\n';
    };
    print_row(header_);
    for (const Row& row : rows_) print_row(row);
}

}  // namespace floatscope::cli
