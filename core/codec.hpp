// Codec: bit patterns of a format to exact values and back, neighbours, ulp and enumeration.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/exact_value.hpp"
#include "core/format.hpp"

namespace floatscope::core {

enum class ValueClass { Zero, Subnormal, Normal, Infinite, NaN };
const char* to_string(ValueClass value_class);

struct Decoded {
    ValueClass value_class = ValueClass::Zero;
    bool negative = false;
    double value = 0;  ///< exact: every value of a supported format is a double
    bool signaling = false;  ///< NaN: quiet bit clear (IEEE encoding only)
    std::uint64_t nan_payload = 0;  ///< NaN: payload below the quiet bit, left-aligned

    /// The value with NaN sign, payload and signaling state, as rounding takes it.
    ExactValue exact() const;
};

/// Decodes a bit pattern; throws floatscope::Error if it has bits above the format's width.
Decoded decode_bits(const FormatSpec& spec, std::uint64_t bits);

/// Bit pattern from hex text ("3C00", "0x3c00"); throws floatscope::Error naming the text when it
/// is not hex or is wider than the format.
std::uint64_t parse_bits(const FormatSpec& spec, std::string_view text);
/// Upper-case hex padded to the format's width in nibbles ("3C00", "7", "FF").
std::string format_bits_hex(const FormatSpec& spec, std::uint64_t bits);
/// Fields as text: "0|01111|0000000000" for binary formats, plain binary digits otherwise.
std::string format_bits_fields(const FormatSpec& spec, std::uint64_t bits);

/// The next larger / smaller value's pattern. NaN stays NaN; the largest value (or infinity) has
/// no successor and is returned unchanged (infinity follows max where the format has it).
std::uint64_t next_up(const FormatSpec& spec, std::uint64_t bits);
std::uint64_t next_down(const FormatSpec& spec, std::uint64_t bits);

/// Spacing of the format's values at the value of `bits`: 2^(max(e, emin) - M) for binary
/// formats, 1 for integers, the gap to the next code above (or below, at the top) for tables;
/// NaN for NaN and infinity.
double ulp(const FormatSpec& spec, std::uint64_t bits);

/// Every bit pattern of a format of at most 16 bits, in pattern order.
std::vector<std::uint64_t> all_bit_patterns(const FormatSpec& spec);

}  // namespace floatscope::core
