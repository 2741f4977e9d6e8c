// CSV (RFC 4180) for every table FloatScope writes or reads.
#include "core/csv.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace floatscope::core {

std::string csv_field(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string csv_record(std::span<const std::string> fields, std::string_view line_end) {
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ',';
        out += csv_field(fields[i]);
    }
    out += line_end;
    return out;
}

std::string csv_number(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    std::array<char, 32> buffer{};  // the shortest round-trip form of a double needs at most 24
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}

bool parse_csv_number(std::string_view text, double& value) {
    if (text == "nan") return value = NAN, true;
    if (text == "inf") return value = INFINITY, true;
    if (text == "-inf") return value = -INFINITY, true;
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
    const std::string terminated(text);  // strtod reads hex floats and "1e5" forms from_chars does not
    char* end = nullptr;
    value = std::strtod(terminated.c_str(), &end);
    return end == terminated.c_str() + terminated.size() && std::isfinite(value);
}

bool CsvReader::next(std::vector<std::string>& fields, int& line) {
    fields.clear();
    if (in_.peek() == std::char_traits<char>::eof()) return false;
    line = line_;
    std::string field;
    bool quoted = false, was_quoted = false;
    for (int c; (c = in_.get()) != std::char_traits<char>::eof();) {
        if (quoted) {
            if (c == '"') {
                if (in_.peek() == '"') {
                    field += '"';
                    in_.get();
                } else {
                    quoted = false;
                }
            } else {
                if (c == '\n') ++line_;
                field += static_cast<char>(c);
            }
        } else if (c == '"') {
            if (!field.empty() || was_quoted) throw error(line_, "a quote inside an unquoted field");
            quoted = was_quoted = true;
        } else if (c == ',') {
            fields.push_back(std::move(field));
            field.clear();
            was_quoted = false;
        } else if (c == '\r' && in_.peek() == '\n') {
            continue;
        } else if (c == '\n') {
            ++line_;
            fields.push_back(std::move(field));
            return true;
        } else {
            if (was_quoted) throw error(line_, "text after a closing quote");
            field += static_cast<char>(c);
        }
    }
    if (quoted) throw error(line, "a quoted field that never ends");
    fields.push_back(std::move(field));
    return true;
}

Error CsvReader::error(int line, const std::string& what) const {
    return Error(fmt::format("{} line {}: {}", source_, line, what));
}

}  // namespace floatscope::core
