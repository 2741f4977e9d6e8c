// Properties every valid format must have, checked by the format-name and format-spec fuzz targets.
#pragma once

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/format_properties.hpp"
#include "core/format_width.hpp"
#include "core/rounding.hpp"
#include "core/wide_format.hpp"
#include "core/wide_rounding.hpp"
#include "fuzz_support.hpp"

namespace floatscope::fuzz {

/// A format wider than binary64: the narrow machinery refuses it with an Error, and the patterns
/// decode through the MPFR path to values that round back to the same pattern without flags.
inline void check_wide_format(const core::FormatSpec& f, const std::uint64_t* patterns, int count) {
    try {
        core::require_within_binary64(f);
        property_failed("the narrow machinery refuses a wide format", f.name);
    } catch (const Error&) {
    }
    const core::WideRounder round(f, {});
    for (int i = 0; i < count; ++i) {
        // A wide format may be narrower than 64 bits in all (e12m3): keep the pattern's low bits.
        const int width = f.total_bits();
        const std::uint64_t pattern = width >= 64 ? patterns[i] : patterns[i] & ((std::uint64_t{1} << width) - 1);
        const core::WideBits bits = core::WideBits(static_cast<unsigned long>(pattern));  // long is 64-bit here
        const core::WideDecoded d = core::decode_wide_bits(f, bits);
        core::format_wide_bits_fields(f, bits);
        if (d.value_class == core::ValueClass::NaN || d.value_class == core::ValueClass::Infinite) continue;
        // With subnormals flushed, a subnormal encoding decodes as zero and encodes as a zero pattern.
        if (f.subnormals == core::SubnormalPolicy::Flush && d.value_class == core::ValueClass::Zero) continue;
        const core::WideRounded r = round(d.value);
        if (r.bits != bits || r.flags.bits != 0)
            property_failed("decode(encode(x)) == x (wide)",
                            fmt::format("{} {:X}: encodes as {} flags {:X}", f.name, pattern,
                                        core::format_wide_bits_hex(f, r.bits), r.flags.bits));
    }
}

/// The format's properties are consistent with its fields, and the patterns in `patterns` decode
/// to values inside its range that round back to themselves (decode(encode(x)) == x).
inline void check_valid_format(const core::FormatSpec& f, const std::uint64_t* patterns, int count) {
    if (core::is_wider_than_binary64(f)) {
        check_wide_format(f, patterns, count);
        return;
    }
    const core::FormatProperties p = core::format_properties(f);
    const std::string name = f.name;
    if (p.total_bits < 1 || p.total_bits > 64 || p.total_bits != f.total_bits())
        property_failed("total bits in 1..64", fmt::format("{}: {}", name, p.total_bits));
    if (!std::isfinite(p.max_finite))
        property_failed("max finite is finite", fmt::format("{}: {}", name, p.max_finite));
    // A custom table may hold only codes <= 0: it has no positive value to measure.
    const bool has_positive = f.kind != core::FormatKind::Lookup || p.max_finite > 0;
    if (has_positive &&
        !(p.max_finite > 0 && p.min_subnormal > 0 && p.min_subnormal <= p.min_normal && p.min_normal <= p.max_finite))
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
    if (f.is_tapered() && p.epsilon != std::ldexp(1.0, -p.mantissa_bits))
        property_failed("tapered epsilon is 2^-(fraction bits at 1)", fmt::format("{}: {}", name, p.epsilon));
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
            property_failed("decode(encode(x)) == x", fmt::format("{} {:X}: {} encodes as {:X} = {} flags {:X}", name,
                                                                  bits, d.value, r.bits, r.value, r.flags.bits));
    }
}

}  // namespace floatscope::fuzz
