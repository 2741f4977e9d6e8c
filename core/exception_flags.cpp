// Printing of exception flags.
#include "core/exception_flags.hpp"

#include <fmt/format.h>

namespace floatscope::core {

std::string flags_hex(ExceptionFlags flags) { return fmt::format("{:02X}", flags.bits); }

std::string flags_names(ExceptionFlags flags) {
    static constexpr struct {
        std::uint8_t bit;
        const char* name;
    } names[] = {{ExceptionFlags::inexact, "inexact"},
                 {ExceptionFlags::underflow, "underflow"},
                 {ExceptionFlags::overflow, "overflow"},
                 {ExceptionFlags::divide_by_zero, "divide-by-zero"},
                 {ExceptionFlags::invalid, "invalid"}};
    std::string joined;
    for (const auto& entry : names) {
        if (flags.has(entry.bit)) {
            if (!joined.empty()) joined += '|';
            joined += entry.name;
        }
    }
    return joined.empty() ? "none" : joined;
}

}  // namespace floatscope::core
