// The TestFloat functions the emulator can check, by TestFloat's name ("f32_to_f16", later "f16_add").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/exception_flags.hpp"
#include "core/format.hpp"
#include "core/rounding.hpp"

namespace floatscope::emu {

/// What an operation delivers for one test case: the result's bit pattern and the flags raised.
struct OperationResult {
    std::uint64_t bits = 0;
    core::ExceptionFlags flags;
};

/// One test case computed: receives exactly operand_formats.size() bit patterns, each valid in
/// its format.
using Computation = std::function<OperationResult(std::span<const std::uint64_t> operands)>;

/// One TestFloat function: the formats of its operands and result, and how to compute it.
struct TestFloatOperation {
    std::string name;
    std::vector<core::FormatSpec> operand_formats;
    core::FormatSpec result_format;
    /// Sets the computation up for one rounding (once per file: a Rounder, an Arithmetic, ...).
    std::function<Computation(const core::RoundingOptions& options)> prepare;
};

/// Every supported operation, keyed by TestFloat function name. New operations (the arithmetic
/// functions f16_add ... f64_mulAdd) are added to this table, in testfloat_operations.cpp.
const std::map<std::string, TestFloatOperation, std::less<>>& testfloat_operations();

/// The operation called `name`; throws floatscope::Error listing the supported ones otherwise
/// (and saying "not supported yet" for TestFloat functions that are known but not implemented).
const TestFloatOperation& find_testfloat_operation(std::string_view name);

}  // namespace floatscope::emu
