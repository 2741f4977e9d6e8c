// Reading TestFloat vector files line by line (through zlib, which also reads plain text) and
// checking each case against the operation table.
#include "emulation/conformance/testfloat_runner.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <sstream>
#include <string_view>

#include <fmt/format.h>
#include <zlib.h>

#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/exception_flags.hpp"
#include "emulation/conformance/testfloat_operations.hpp"

namespace floatscope::emu {

namespace {

/// Lines of a gzip or plain text file; gzgets reads both.
class LineReader {
public:
    explicit LineReader(const std::string& path) : path_(path) {
        errno = 0;
        file_ = gzopen(path.c_str(), "rb");
        if (file_ == nullptr)
            throw Error(fmt::format("cannot open TestFloat file '{}': {}", path,
                                    errno != 0 ? std::strerror(errno) : "out of memory"));
        // zlib reads a file without a gzip header as plain text; under a .gz name that is damage.
        if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0 && gzdirect(file_) == 1) {
            gzclose(file_);
            throw Error(
                fmt::format("TestFloat file '{}' is not a gzip file (no gzip header) though its name ends in "
                            ".gz; give a gzip-compressed vector file, or a plain one without .gz",
                            path));
        }
    }
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;
    ~LineReader() { gzclose(file_); }

    /// The next line without its end-of-line characters; false at the end of the file.
    bool next(std::string& line) {
        line.clear();
        char buffer[256];
        while (true) {
            if (gzgets(file_, buffer, sizeof buffer) == nullptr) {
                check_error();
                if (line.empty()) return false;
                break;
            }
            line += buffer;
            if (const auto bad = std::find_if(line.begin(), line.end(), not_text); bad != line.end())
                throw Error(fmt::format("{}:{}: byte 0x{:02X} is not text; not a TestFloat vector file", path_,
                                        number_ + 1, static_cast<unsigned char>(*bad)));
            if (!line.empty() && line.back() == '\n') break;
            // Vector lines are short; a very long one means this is not a vector file.
            if (line.size() > max_line_length)
                throw Error(fmt::format("{}:{}: line longer than {} characters; not a TestFloat vector file", path_,
                                        number_ + 1, max_line_length));
        }
        ++number_;
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        return true;
    }

    std::size_t line_number() const { return number_; }

private:
    void check_error() {
        int code = Z_OK;
        const char* message = gzerror(file_, &code);
        if (code == Z_ERRNO)
            throw Error(fmt::format("cannot read TestFloat file '{}': {}", path_, std::strerror(errno)));
        // zlib's message starts with the path; the file is named once, at the front.
        std::string_view reason = message;
        if (reason.substr(0, path_.size() + 2) == path_ + ": ") reason.remove_prefix(path_.size() + 2);
        if (code != Z_OK)
            throw Error(
                fmt::format("cannot read TestFloat file '{}': corrupt or truncated gzip data ({})", path_, reason));
    }

    /// Vector lines are hex digits, spaces and end-of-line characters: a control byte means binary data.
    static bool not_text(char c) {
        const auto byte = static_cast<unsigned char>(c);
        return (byte < 0x20 && c != '\n' && c != '\r' && c != '\t') || byte == 0x7F;
    }

    static constexpr std::size_t max_line_length = 4096;
    std::string path_;
    gzFile file_ = nullptr;
    std::size_t number_ = 0;
};

std::string file_name_of(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

core::RoundingMode checked_mode(core::RoundingMode mode) {
    if (core::is_stochastic(mode))
        throw Error(
            fmt::format("rounding mode '{}' cannot be checked against TestFloat vectors; valid: rne rtz rdn "
                        "rup rna rto",
                        core::to_string(mode)));
    return mode;
}

/// One vector line split into operand patterns, expected result and flags.
struct TestCase {
    std::vector<std::uint64_t> operands;
    std::uint64_t result = 0;
    core::ExceptionFlags flags;
};

std::uint8_t parse_flags(std::string_view text) {
    unsigned value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value, 16);
    if (error != std::errc() || stop != end || text.size() > 2 || value > 0x1F)
        throw Error(fmt::format("malformed flags '{}'; expected two hex digits, at most 1F", text));
    return static_cast<std::uint8_t>(value);
}

TestCase parse_line(const TestFloatOperation& op, const std::string& line) {
    std::istringstream fields(line);
    std::vector<std::string> tokens;
    for (std::string token; fields >> token;) tokens.push_back(token);
    const std::size_t operand_count = op.operand_formats.size();
    if (tokens.size() != operand_count + 2)
        throw Error(fmt::format("expected {} fields ({} operand{}, result, flags) but found {}: '{}'",
                                operand_count + 2, operand_count, operand_count == 1 ? "" : "s", tokens.size(), line));
    TestCase c;
    for (std::size_t i = 0; i < operand_count; ++i)
        c.operands.push_back(core::parse_bits(op.operand_formats[i], tokens[i]));
    c.result = core::parse_bits(op.result_format, tokens[operand_count]);
    c.flags.bits = parse_flags(tokens[operand_count + 1]);
    return c;
}

bool is_nan(const core::FormatSpec& spec, std::uint64_t bits) {
    return core::decode_bits(spec, bits).value_class == core::ValueClass::NaN;
}

bool matches(const TestFloatOperation& op, const TestCase& expected, const OperationResult& actual) {
    if (actual.flags != expected.flags) return false;
    // NaN encodings differ between platforms (TestFloat's are x86 SSE's): any NaN will do.
    if (is_nan(op.result_format, expected.result)) return is_nan(op.result_format, actual.bits);
    return actual.bits == expected.result;
}

std::string describe_failure(const TestFloatOperation& op, const TestCase& expected, const OperationResult& actual) {
    std::string operands;
    for (std::size_t i = 0; i < expected.operands.size(); ++i) {
        if (i > 0) operands += ' ';
        operands += core::format_bits_hex(op.operand_formats[i], expected.operands[i]);
    }
    const auto& result = op.result_format;
    return fmt::format("{}({}) = {} {}, expected {} {}", op.name, operands, core::format_bits_hex(result, actual.bits),
                       core::flags_hex(actual.flags), core::format_bits_hex(result, expected.result),
                       core::flags_hex(expected.flags));
}

}  // namespace

TestFloatFileName parse_testfloat_file_name(const std::string& path) {
    std::string name = file_name_of(path);
    if (ends_with(name, ".gz")) name.resize(name.size() - 3);
    const std::size_t mode_dot = ends_with(name, ".tv") ? name.rfind('.', name.size() - 4) : std::string::npos;
    if (mode_dot == std::string::npos || mode_dot == 0)
        throw Error(
            fmt::format("cannot tell the operation and rounding mode from the file name '{}'; expected "
                        "<function>.<mode>.tv[.gz] (f32_to_f16.rne.tv.gz), or give them explicitly",
                        file_name_of(path)));
    TestFloatFileName parsed;
    parsed.operation = name.substr(0, mode_dot);
    parsed.mode = checked_mode(core::parse_rounding_mode(name.substr(mode_dot + 1, name.size() - 3 - mode_dot - 1)));
    return parsed;
}

TestFloatSummary run_testfloat_file(const std::string& path, const TestFloatOptions& options) {
    TestFloatSummary summary;
    if (options.operation.empty() || !options.mode) {
        const TestFloatFileName named = parse_testfloat_file_name(path);
        summary.operation = named.operation;
        summary.mode = named.mode;
    }
    if (!options.operation.empty()) summary.operation = options.operation;
    if (options.mode) summary.mode = checked_mode(*options.mode);

    LineReader reader(path);  // first, so that a missing file is reported as such
    const TestFloatOperation& op = find_testfloat_operation(summary.operation);
    // The vectors were generated with testfloat_gen -tininessafter.
    const Computation compute = op.prepare({summary.mode, core::Tininess::AfterRounding, nullptr});

    std::string line;
    while (reader.next(line)) {
        if (line.find_first_not_of(" \t") == std::string::npos) continue;  // blank lines carry no case
        TestCase expected;
        try {
            expected = parse_line(op, line);
        } catch (const Error& e) {
            throw Error(fmt::format("{}:{}: {}", path, reader.line_number(), e.what()));
        }
        const OperationResult actual = compute(expected.operands);
        if (matches(op, expected, actual)) {
            ++summary.passed;
            continue;
        }
        ++summary.failed;
        if (summary.failures.size() < options.max_failure_descriptions)
            summary.failures.push_back(
                fmt::format("{}:{}: {}", path, reader.line_number(), describe_failure(op, expected, actual)));
    }
    // A run that checked nothing (an empty file, or one of NUL bytes) is no evidence of conformance.
    if (summary.passed + summary.failed == 0)
        throw Error(fmt::format("{}: no test vector in the file; a conformance run that checked nothing fails", path));
    return summary;
}

}  // namespace floatscope::emu
