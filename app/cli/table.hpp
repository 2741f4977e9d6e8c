// Tabular output for people: aligned text tables (core/csv.hpp writes the CSV for programs).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace floatscope::cli {

using Row = std::vector<std::string>;

/// Columns padded to their widest cell; numeric cells right-aligned, text left-aligned.
class TextTable {
public:
    explicit TextTable(Row header) : header_(std::move(header)) {}
    void add_row(Row row) { rows_.push_back(std::move(row)); }
    void print(std::ostream& out) const;

private:
    Row header_;
    std::vector<Row> rows_;
};

}  // namespace floatscope::cli
