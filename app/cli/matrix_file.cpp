// Reading and writing matrix files: .npy through core/npy, CSV through core/csv.
#include "app/cli/matrix_file.hpp"

#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/csv.hpp"
#include "core/error.hpp"
#include "core/input_excerpt.hpp"
#include "core/input_file.hpp"

namespace floatscope::cli {

namespace {

bool is_npy(const std::filesystem::path& path) { return path.extension() == ".npy"; }

core::Matrix parse_csv_matrix(const std::string& text, const std::string& source) {
    std::istringstream in(text);
    core::CsvReader reader(in, source);
    core::Matrix matrix;
    std::vector<std::string> fields;
    int line = 0;
    while (reader.next(fields, line)) {
        if (matrix.rows == 0) matrix.cols = fields.size();
        if (fields.size() != matrix.cols)
            throw reader.error(line, fmt::format("{} numbers, but the first row has {}", fields.size(), matrix.cols));
        for (std::size_t j = 0; j < fields.size(); ++j) {
            double value = 0;
            if (!core::parse_csv_number(fields[j], value))
                throw reader.error(
                    line, fmt::format("column {}: '{}' is not a number", j + 1, core::input_excerpt(fields[j])));
            matrix.values.push_back(value);
        }
        ++matrix.rows;
    }
    if (matrix.rows == 0) throw Error(fmt::format("{}: no rows; a matrix needs at least one", source));
    return matrix;
}

}  // namespace

core::Matrix read_matrix_file(const std::filesystem::path& path, const std::string& what) {
    const std::string bytes = core::read_input_file(path, what);
    const std::string source = fmt::format("{} '{}'", what, path.string());
    return is_npy(path) ? core::parse_npy(bytes, source) : parse_csv_matrix(bytes, source);
}

void write_matrix_file(const std::filesystem::path& path, const core::Matrix& matrix, const core::FormatSpec& element) {
    if (is_npy(path)) {
        core::write_file_atomically(path, core::npy_bytes(matrix, element));
        return;
    }
    std::string text;
    std::vector<std::string> row(matrix.cols);
    for (std::size_t i = 0; i < matrix.rows; ++i) {
        for (std::size_t j = 0; j < matrix.cols; ++j) row[j] = core::csv_number(matrix.values[i * matrix.cols + j]);
        text += core::csv_record(row);
    }
    core::write_file_atomically(path, text);
}

}  // namespace floatscope::cli
