// Computation of format properties from the geometry.
#include "core/format_properties.hpp"

#include <algorithm>
#include <cmath>

#include "core/rounding.hpp"
#include "core/tapered_format.hpp"

namespace floatscope::core {

namespace {

/// Distinct finite values of a binary format: the finite patterns of one sign, counted once
/// for zero and twice for the rest where there is a sign.
std::uint64_t binary_finite_values(const FormatSpec& spec, const BinaryGeometry& g) {
    const std::uint64_t per_field = std::uint64_t{1} << spec.mantissa_bits;
    // Magnitude patterns from 0 up to and including max finite.
    std::uint64_t magnitudes =
        static_cast<std::uint64_t>(g.max_exponent_field) * per_field + (g.max_significand & (per_field - 1)) + 1;
    if (spec.subnormals == SubnormalPolicy::Flush) magnitudes -= per_field - 1;  // flushed patterns are zero
    const std::uint64_t nonzero = magnitudes - 1;
    return 1 + (spec.has_sign ? 2 * nonzero : nonzero);
}

/// Posits, takums, HiF8: limits from the codes next to zero and at the top, precision at 1.
void tapered_properties(const FormatSpec& spec, FormatProperties& p) {
    const std::uint64_t max_code = tapered_max_code(spec);
    p.exponent_bits = spec.exponent_bits;
    p.max_finite = tapered_value(spec, max_code);
    p.lowest = -p.max_finite;
    p.min_subnormal = tapered_value(spec, 1);
    p.has_infinity = spec.has_infinity;
    p.has_negative_zero = false;
    if (spec.kind == FormatKind::HiFloat8) {
        p.min_normal = 0x1p-15;  // the denormals 2^-22 .. 2^-16 lie below
        p.has_subnormals = true;
        p.finite_values = 253;  // 256 codes less NaN and +-inf
    } else {
        p.min_normal = p.min_subnormal;
        p.finite_values = (std::uint64_t{1} << spec.tapered_bits) - 1;  // every code but NaR
    }
    // The precision at 1: the fraction bits of the code of 1, from the gap to the next value.
    const std::uint64_t one = round_to_format(spec, 1.0).bits;
    p.epsilon = tapered_value(spec, tapered_next(spec, one, true)) - 1.0;
    p.mantissa_bits = -std::ilogb(p.epsilon);
    p.unit_roundoff = p.epsilon / 2;
    p.decimal_digits = (p.mantissa_bits + 1) * std::log10(2.0);
}

}  // namespace

FormatProperties format_properties(const FormatSpec& spec) {
    FormatProperties p;
    p.total_bits = spec.total_bits();
    p.storage_bits = std::max(p.total_bits, spec.storage_bits);
    p.bytes_per_value = p.storage_bits / 8.0;
    p.gb_per_billion = p.bytes_per_value;
    p.has_nan = spec.has_nan();
    switch (spec.kind) {
        case FormatKind::Binary:
        case FormatKind::ExponentScale: {
            const BinaryGeometry g = binary_geometry(spec);
            p.exponent_bits = spec.exponent_bits;
            p.mantissa_bits = spec.mantissa_bits;
            p.bias = spec.bias;
            p.max_finite = g.max_finite;
            p.lowest = spec.kind == FormatKind::ExponentScale ? g.min_normal : spec.has_sign ? -g.max_finite : 0.0;
            p.min_normal = g.min_normal;
            p.min_subnormal = g.min_subnormal;
            p.epsilon = std::ldexp(1.0, -spec.mantissa_bits);
            p.unit_roundoff = std::ldexp(1.0, -spec.mantissa_bits - 1);
            p.decimal_digits = g.precision * std::log10(2.0);
            p.has_infinity = spec.has_infinity;
            p.has_negative_zero = spec.has_negative_zero;
            p.has_subnormals = spec.kind == FormatKind::Binary && g.min_subnormal < g.min_normal;
            p.finite_values = spec.kind == FormatKind::ExponentScale
                                  ? static_cast<std::uint64_t>(g.max_exponent_field) + 1
                                  : binary_finite_values(spec, g);
            break;
        }
        case FormatKind::Integer: {
            const IntegerRange r = integer_range(spec);
            p.max_finite = static_cast<double>(r.max);
            p.lowest = static_cast<double>(r.min);
            p.min_normal = 1;
            p.min_subnormal = 1;
            p.epsilon = 1;
            p.unit_roundoff = 0.5;
            p.finite_values = static_cast<std::uint64_t>(r.max - r.min) + 1;
            p.decimal_digits = std::log10(static_cast<double>(p.finite_values));
            break;
        }
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: tapered_properties(spec, p); break;
        case FormatKind::Lookup: {
            const auto& codes = spec.code_values;
            p.max_finite = codes.back();
            p.lowest = codes.front();
            double smallest_positive = codes.back();
            for (double c : codes)
                if (c > 0 && c < smallest_positive) smallest_positive = c;
            p.min_normal = smallest_positive;
            p.min_subnormal = smallest_positive;
            p.finite_values = codes.size();
            p.decimal_digits = std::log10(static_cast<double>(codes.size()));
            p.epsilon = std::nan("");
            p.unit_roundoff = std::nan("");
            break;
        }
    }
    p.dynamic_range_decades = std::log10(p.max_finite) - std::log10(p.min_subnormal);  // the ratio overflows for fp64
    return p;
}

}  // namespace floatscope::core
