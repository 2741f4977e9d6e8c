// Runs a Berkeley TestFloat vector file (plain or gzip) against the emulator: results and flags.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/rounding_mode.hpp"

namespace floatscope::emu {

struct TestFloatOptions {
    /// TestFloat function name ("f32_to_f16"); empty: taken from the file name.
    std::string operation;
    /// Rounding mode; unset: taken from the file name. Only the deterministic modes apply.
    std::optional<core::RoundingMode> mode;
    /// How many failures are described in the summary (all are counted).
    std::size_t max_failure_descriptions = 10;
};

struct TestFloatSummary {
    std::string operation;
    core::RoundingMode mode = core::RoundingMode::NearestEven;
    std::size_t passed = 0;
    std::size_t failed = 0;
    /// The first failures, e.g. "f32_to_f16.rne.tv.gz:12: f32_to_f16(3C072C85) = 2038 01, expected 2039 01".
    std::vector<std::string> failures;
};

/// The operation and mode a file name `<function>.<mode>.tv[.gz]` names (mode: rne rtz rdn rup
/// rna, and rto); throws floatscope::Error when the name does not follow that pattern.
struct TestFloatFileName {
    std::string operation;
    core::RoundingMode mode = core::RoundingMode::NearestEven;
};
TestFloatFileName parse_testfloat_file_name(const std::string& path);

/// Checks every line `<operand>... <result> <flags>` of the file. Rounding detects tininess after
/// rounding, as the vectors were generated; a NaN result matches any NaN of the result format,
/// other results match bit for bit, and flags always match exactly.
/// Throws floatscope::Error naming the file (and line) when it cannot be read, a line is
/// malformed, or the operation is unknown or not supported yet.
TestFloatSummary run_testfloat_file(const std::string& path, const TestFloatOptions& options = {});

}  // namespace floatscope::emu
