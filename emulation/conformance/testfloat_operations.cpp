// The table of TestFloat functions: conversions between f16, bf16, f32 and f64, and their arithmetic.
#include "emulation/conformance/testfloat_operations.hpp"

#include <algorithm>
#include <array>
#include <iterator>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

namespace {

/// TestFloat's short type names and the catalog formats they are.
struct TypeName {
    const char* testfloat;
    const char* catalog;
};
constexpr std::array<TypeName, 4> float_types = {{{"f16", "fp16"}, {"bf16", "bf16"}, {"f32", "fp32"}, {"f64", "fp64"}}};

/// X_to_Y: the operand decoded exactly (signaling NaNs stay signaling, so that rounding raises
/// invalid) and rounded once to the target format.
TestFloatOperation conversion(const TypeName& from, const TypeName& to) {
    TestFloatOperation op;
    op.name = fmt::format("{}_to_{}", from.testfloat, to.testfloat);
    op.operand_formats = {core::parse_format(from.catalog)};
    op.result_format = core::parse_format(to.catalog);
    op.prepare = [source = op.operand_formats[0], target = op.result_format](const core::RoundingOptions& options) {
        return Computation([source, round = core::Rounder(target, options)](std::span<const std::uint64_t> operands) {
            const core::Rounded r = round(core::decode_bits(source, operands[0]).exact());
            return OperationResult{r.bits, r.flags};
        });
    };
    return op;
}

/// X_op: the operands' bit patterns through Arithmetic (TestFloat's mulAdd is our fma).
TestFloatOperation arithmetic(const TypeName& type, const char* testfloat_name, Operation operation) {
    TestFloatOperation op;
    op.name = fmt::format("{}_{}", type.testfloat, testfloat_name);
    const core::FormatSpec format = core::parse_format(type.catalog);
    op.operand_formats.assign(static_cast<std::size_t>(operand_count(operation)), format);
    op.result_format = format;
    op.prepare = [format, operation](const core::RoundingOptions& options) {
        return Computation(
            [operation, emulated = Arithmetic(format, options)](std::span<const std::uint64_t> operands) {
                const std::uint64_t b = operands.size() > 1 ? operands[1] : 0;
                const std::uint64_t c = operands.size() > 2 ? operands[2] : 0;
                const core::Rounded r = emulated.apply(operation, operands[0], b, c);
                return OperationResult{r.bits, r.flags};
            });
    };
    return op;
}

std::map<std::string, TestFloatOperation, std::less<>> build_operations() {
    std::map<std::string, TestFloatOperation, std::less<>> table;
    for (const TypeName& from : float_types) {
        for (const TypeName& to : float_types) {
            if (&from == &to) continue;
            TestFloatOperation op = conversion(from, to);
            table.emplace(op.name, std::move(op));
        }
    }
    constexpr std::pair<const char*, Operation> functions[] = {{"add", Operation::Add},   {"sub", Operation::Sub},
                                                               {"mul", Operation::Mul},   {"div", Operation::Div},
                                                               {"sqrt", Operation::Sqrt}, {"mulAdd", Operation::Fma}};
    for (const TypeName& type : float_types) {
        for (const auto& [name, operation] : functions) {
            TestFloatOperation op = arithmetic(type, name, operation);
            table.emplace(op.name, std::move(op));
        }
    }
    return table;
}

/// Whether `name` is a function TestFloat generates vectors for, so that the error can say
/// "not supported yet" rather than "unknown".
bool is_testfloat_function(std::string_view name) {
    const std::size_t underscore = name.find('_');
    if (underscore == std::string_view::npos) return false;
    const std::string_view type = name.substr(0, underscore), function = name.substr(underscore + 1);
    constexpr std::string_view types[] = {"f16", "bf16", "f32", "f64", "extF80", "f128", "ui32", "ui64", "i32", "i64"};
    constexpr std::string_view functions[] = {"add",  "sub",          "mul",        "div",     "rem",
                                              "sqrt", "mulAdd",       "roundToInt", "eq",      "le",
                                              "lt",   "eq_signaling", "le_quiet",   "lt_quiet"};
    const bool known_type = std::find(std::begin(types), std::end(types), type) != std::end(types);
    const bool known_function =
        std::find(std::begin(functions), std::end(functions), function) != std::end(functions) ||
        (function.size() > 3 && function.substr(0, 3) == "to_");
    return known_type && known_function;
}

}  // namespace

const std::map<std::string, TestFloatOperation, std::less<>>& testfloat_operations() {
    static const auto table = build_operations();
    return table;
}

const TestFloatOperation& find_testfloat_operation(std::string_view name) {
    const auto& table = testfloat_operations();
    if (auto it = table.find(name); it != table.end()) return it->second;
    std::string supported;
    for (const auto& [known, op] : table) supported += (supported.empty() ? "" : " ") + known;
    if (is_testfloat_function(name))
        throw Error(fmt::format("operation '{}' is not supported yet; supported: {}", name, supported));
    throw Error(fmt::format("unknown TestFloat operation '{}'; supported: {}", name, supported));
}

}  // namespace floatscope::emu
