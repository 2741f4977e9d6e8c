// Properties every valid format must have, checked by the format-name and format-spec fuzz targets.
#pragma once

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "core/codec.hpp"
#include "core/format.hpp"
#include "core/format_properties.hpp"
#include "core/rounding.hpp"
#include "fuzz_support.hpp"

namespace floatscope::fuzz {

/// The format's properties are consistent with its fields, and the patterns in `patterns` decode
/// to values inside its range that round back to themselves (decode(encode(x)) == x).
inline void check_valid_format(const core::FormatSpec& f, const std::uint64_t* patterns, int count) {
    const core::FormatProperties p = core::format_properties(f);
    const std::string name = f.name;
    if (p.total_bits < 1 || p.total_bits > 64 || p.total_bits != f.total_bits())
        property_failed("total bits in 1..64", fmt::format("{}: {}", name, p.total_bits));
    if (!std::isfinite(p.max_finite)) property_failed("max finite is finite", fmt::format("{}: {}", name, p.max_finite));
    // A custom table may hold only codes <= 0: it has no positive value to measure.
    const bool has_positive = f.kind != core::FormatKind::Lookup || p.max_finite > 0;
    if (has_positive && !(p.max_finite > 0 && p.min_subnormal > 0 && p.min_subnormal <= p.min_normal &&
                          p.min_normal <= p.max_finite))
        property_failed("0 < min subnormal <= min normal <= max",
                        fmt::format("{}: {} {} {}", name, p.min_subnormal, p.min_normal, p.max_finite));
    if (p.finite_values == 0 || (p.total_bits < 64 && p.finite_values > (std::uint64_t{1} << p.total_bits)))
        property_failed("finite values fit the patterns", fmt::format("{}: {}", name, p.finite_values));
    if (f.kind == core::FormatKind::Binary) {
        if (p.total_bits != (f.has_sign ? 1 : 0) + f.exponent_bits + f.mantissa_bits)
            property_failed("binary width is sign + E + M", name);
        if (p.epsilon != std::ldexp(1.0, -f.mantissa_bits))
            property_failed("epsilon is 2^-M", fmt::format("{}: {}", name, p.epsilon));
    }
    const std::uint64_t mask = p.total_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << p.total_bits) - 1;
    const core::Rounder round(f, {});
    for (int i = 0; i < count; ++i) {
        const std::uint64_t bits = patterns[i] & mask;
        const core::Decoded d = core::decode_bits(f, bits);
        core::format_bits_fields(f, bits);
        if (d.value_class == core::ValueClass::NaN || d.value_class == core::ValueClass::Infinite) continue;
        // Two's complement reaches one step further below zero than above.
        const double lowest = f.kind == core::FormatKind::Integer  ? static_cast<double>(core::integer_range(f).min)
                              : f.kind == core::FormatKind::Lookup ? f.code_values.front()
                                                                   : -p.max_finite;
        if (!(lowest <= d.value && d.value <= p.max_finite))
            property_failed("decoded values lie within the range", fmt::format("{} {:X}: {}", name, bits, d.value));
        const core::Rounded r = round(d.exact());
        if (r.value != d.value || std::signbit(r.value) != std::signbit(d.value) || r.flags.bits != 0)
            property_failed("decode(encode(x)) == x",
                            fmt::format("{} {:X}: {} encodes as {:X} = {} flags {:X}", name, bits, d.value, r.bits,
                                        r.value, r.flags.bits));
    }
}

}  // namespace floatscope::fuzz
