// Fuzz target: format names and modifiers (core::parse_format). A name either fails with
// floatscope::Error or gives a valid format whose properties are sane and whose name parses
// back to the same format.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "format_checks.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace floatscope;
    const std::string name(reinterpret_cast<const char*>(data), size);
    core::FormatSpec f;
    try {
        f = core::parse_format(name);
    } catch (const Error&) {
        return 0;
    }
    core::validate(f);  // parse_format promises a valid format: an Error here escapes as a crash
    const core::FormatSpec again = core::parse_format(f.name);
    if (!(again == f)) fuzz::property_failed("a parsed format's name parses to the same format", f.name);
    const std::uint64_t patterns[] = {
        0, 1, ~std::uint64_t{0}, ~std::uint64_t{0} >> 1, std::uint64_t{1} << 63, 0x5555555555555555, 0x3C00, 0x7BFF};
    fuzz::check_valid_format(f, patterns, static_cast<int>(std::size(patterns)));
    return 0;
}
