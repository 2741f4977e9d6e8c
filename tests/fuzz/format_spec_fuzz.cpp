// Fuzz target: custom format descriptors, as the GUI's format designer builds them (every field of
// a FormatSpec set from the input). core::validate either refuses the spec with floatscope::Error
// or the format's properties are sane and its values decode and round back to themselves.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/error.hpp"
#include "core/format.hpp"
#include "format_checks.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace floatscope;
    fuzz::FuzzInput input(data, size);
    core::FormatSpec f;
    f.name = "custom";
    f.kind = static_cast<core::FormatKind>(input.byte() % 4);
    f.has_sign = input.byte() & 1;
    // Signed bytes, so that negative and too large widths reach validate as well.
    f.exponent_bits = static_cast<std::int8_t>(input.byte());
    f.mantissa_bits = static_cast<std::int8_t>(input.byte());
    f.bias = static_cast<std::int16_t>(input.byte() | (input.byte() << 8));
    f.has_infinity = input.byte() & 1;
    f.nan_encoding = static_cast<core::NanEncoding>(input.byte() % 4);
    f.has_negative_zero = input.byte() & 1;
    f.subnormals = static_cast<core::SubnormalPolicy>(input.byte() % 2);
    f.overflow = static_cast<core::OverflowPolicy>(input.byte() % 2);
    f.integer_bits = static_cast<std::int8_t>(input.byte());
    const int codes = input.byte() % 20;
    for (int i = 0; i < codes; ++i) {
        const std::uint64_t word = input.word();
        double value;
        std::memcpy(&value, &word, sizeof value);
        f.code_values.push_back(value);  // NaN, infinities and unsorted tables included
    }
    try {
        core::validate(f);
    } catch (const Error&) {
        return 0;
    }
    std::uint64_t patterns[8] = {0, 1, ~std::uint64_t{0}};
    for (std::uint64_t& pattern : patterns)
        if (!input.empty()) pattern = input.word();
    fuzz::check_valid_format(f, patterns, 8);
    return 0;
}
