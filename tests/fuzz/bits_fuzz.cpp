// Fuzz target: bit-pattern text (core::parse_bits) and the codec on what it accepts. Input: a format
// selector, then the text. Properties: the pattern's hex spelling parses back to it; a non-NaN
// pattern decodes to a value that rounds back to itself, to the same pattern unless the format
// flushes subnormals; next_up and next_down move monotonically; ulp is positive.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/rounding.hpp"
#include "fuzz_support.hpp"

namespace {

using namespace floatscope;

void check_neighbour(const core::FormatSpec& f, std::uint64_t bits, const core::Decoded& d, bool up) {
    const std::uint64_t next = up ? core::next_up(f, bits) : core::next_down(f, bits);
    if (next == bits) return;
    const core::Decoded n = core::decode_bits(f, next);
    const bool moved = up ? n.value > d.value : n.value < d.value;
    // Stepping between -0 and +0 is allowed to keep the value (both are zero).
    const bool zero_step = n.value == 0 && d.value == 0;
    if (!(moved || zero_step))
        fuzz::property_failed(up ? "next_up increases" : "next_down decreases",
                              fmt::format("{} {:X} ({:a}) -> {:X} ({:a})", f.name, bits, d.value, next, n.value));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::FuzzInput input(data, size);
    const core::FormatSpec& f = fuzz::pick_format(input.byte());
    const std::string text = input.rest();
    std::uint64_t bits = 0;
    try {
        bits = core::parse_bits(f, text);
    } catch (const Error&) {
        return 0;
    }
    const std::string hex = core::format_bits_hex(f, bits);
    if (core::parse_bits(f, hex) != bits)
        fuzz::property_failed("parse_bits(format_bits_hex(b)) == b", fmt::format("{} {}", f.name, hex));
    core::format_bits_fields(f, bits);
    const core::Decoded d = core::decode_bits(f, bits);
    const double spacing = core::ulp(f, bits);
    if (d.value_class == core::ValueClass::NaN) return 0;
    if (d.value_class != core::ValueClass::Infinite && !(spacing > 0))
        fuzz::property_failed("ulp of a finite value is positive", fmt::format("{} {}: {}", f.name, hex, spacing));
    const core::Rounded r = core::round_to_format(f, d.exact());
    const bool flushed = f.subnormals == core::SubnormalPolicy::Flush && d.value == 0;
    if (r.value != d.value || std::signbit(r.value) != std::signbit(d.value) || r.flags.bits != 0 ||
        (r.bits != bits && !flushed))
        fuzz::property_failed("decode(encode(x)) == x", fmt::format("{} {} = {:a} encodes as {:X} flags {:X}", f.name,
                                                                    hex, d.value, r.bits, r.flags.bits));
    check_neighbour(f, bits, d, true);
    check_neighbour(f, bits, d, false);
    return 0;
}
