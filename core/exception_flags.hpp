// IEEE 754 exception flags, with the bit values TestFloat uses in its vectors.
#pragma once

#include <cstdint>
#include <string>

namespace floatscope::core {

struct ExceptionFlags {
    static constexpr std::uint8_t inexact = 0x01;
    static constexpr std::uint8_t underflow = 0x02;
    static constexpr std::uint8_t overflow = 0x04;
    static constexpr std::uint8_t divide_by_zero = 0x08;  // TestFloat calls it "infinite"
    static constexpr std::uint8_t invalid = 0x10;

    std::uint8_t bits = 0;

    void raise(std::uint8_t flag) { bits |= flag; }
    bool has(std::uint8_t flag) const { return (bits & flag) != 0; }
    ExceptionFlags& operator|=(ExceptionFlags other) {
        bits |= other.bits;
        return *this;
    }
    friend bool operator==(ExceptionFlags, ExceptionFlags) = default;
};

/// Two upper-case hex digits, as TestFloat prints flags ("03").
std::string flags_hex(ExceptionFlags flags);
/// Names joined by '|' ("inexact|underflow"), or "none".
std::string flags_names(ExceptionFlags flags);

}  // namespace floatscope::core
