// Computing a Bits-view row: rounding, exact decimal, errors measured with MPFR, the fields spelled out.
#include "app/gui/lab/format_reading.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/decimal.hpp"
#include "core/format_width.hpp"
#include "core/rounding_error.hpp"
#include "core/tapered_format.hpp"
#include "core/wide_format.hpp"
#include "emulation/arithmetic/bit_level_format.hpp"

namespace floatscope::gui {

namespace {

/// Absolute, relative and ULP error of the stored value against the entered one, from its exact value.
void measure_errors(FormatReading& r, const EnteredValue& x) {
    // Bits-view formats are within binary64: no quantum of theirs is below 2^-1074.
    const core::RoundingErrorText error = core::measure_rounding_error(
        x.text, x.exact, core::WideValue::from_exact(r.decoded.exact()), -1074, core::ulp(r.spec, r.rounded.bits), 6);
    r.absolute_error = error.absolute;
    r.relative_error = error.relative;
    r.ulp_error = error.ulps;
}

std::string binary_digits(std::uint64_t value, int width) {
    std::string digits;
    for (int i = width - 1; i >= 0; --i) digits += ((value >> i) & 1) ? '1' : '0';
    return digits;
}

/// Fields and formula of binary and exponent-scale formats.
void spell_binary(FormatReading& r) {
    const core::FormatSpec& f = r.spec;
    const int M = f.mantissa_bits;
    const std::uint64_t bits = r.rounded.bits;
    const int field = static_cast<int>((bits >> M) & ((std::uint64_t{1} << f.exponent_bits) - 1));
    const std::uint64_t fraction = bits & ((std::uint64_t{1} << M) - 1);
    const int sign = f.has_sign ? static_cast<int>((bits >> (M + f.exponent_bits)) & 1) : 0;
    const bool subnormal_field = field == 0 && f.kind == core::FormatKind::Binary;
    const int unbiased = (subnormal_field ? 1 : field) - f.bias;
    r.exponent_field = fmt::format("field {} ({}b), bias {}, unbiased {}{}", field,
                                   binary_digits(static_cast<std::uint64_t>(field), f.exponent_bits), f.bias, unbiased,
                                   subnormal_field ? " (subnormal: 1 - bias)" : "");
    const std::string value = core::exact_decimal(r.rounded.value);
    switch (r.decoded.value_class) {
        case core::ValueClass::NaN: r.formula = "NaN: " + core::format_bits_fields(f, bits); return;
        case core::ValueClass::Infinite: r.formula = fmt::format("exponent all ones, fraction 0: {}", value); return;
        default: break;
    }
    if (f.kind == core::FormatKind::ExponentScale) {
        r.formula = fmt::format("2^({} - {}) = {}", field, f.bias, value);
        return;
    }
    const std::string significand =
        fmt::format("{}{}{}b", subnormal_field ? '0' : '1', M > 0 ? "." : "", binary_digits(fraction, M));
    r.formula =
        fmt::format("(-1)^{} x 2^({} - {}) x {} = {}", sign, subnormal_field ? 1 : field, f.bias, significand, value);
}

/// The field of a tapered code that holds bit `index`, and the bit's place in it (0 = its top bit).
struct TaperedBit {
    core::TaperedField field;
    int position = 0;
};

TaperedBit tapered_bit(const core::FormatSpec& spec, std::uint64_t bits, int index) {
    int top = spec.total_bits() - 1;
    for (const core::TaperedField& field : core::tapered_fields(spec, bits)) {
        if (index > top - field.width) return {field, top - index};
        top -= field.width;
    }
    return {};
}

/// The parameters the definitions read from a tapered code's fields, and its value.
void spell_tapered(FormatReading& r) {
    const core::FormatSpec& f = r.spec;
    const std::uint64_t bits = r.rounded.bits;
    const std::string fields = core::format_bits_fields(f, bits);
    r.exponent_field = "fields " + fields;
    const std::string value = core::exact_decimal(r.rounded.value);
    if (r.decoded.value_class == core::ValueClass::NaN) {
        r.formula = fmt::format("{}: {}", f.kind == core::FormatKind::HiFloat8 ? "NaN" : "NaR", fields);
        return;
    }
    if (r.decoded.value_class == core::ValueClass::Zero || r.decoded.value_class == core::ValueClass::Infinite) {
        r.formula = fmt::format("{} = {}", fields, value);
        return;
    }
    switch (f.kind) {
        case core::FormatKind::Posit:
            r.formula = fmt::format("((1 - 3s) + f) x 2^((1 - 2s)(k 2^{} + e + s)), s|regime|e|f = {}: {}",
                                    f.exponent_bits, fields, value);
            break;
        case core::FormatKind::Takum:
            r.formula = fmt::format(
                "((1 - 3S) + M) x 2^((1 - 2S)(c + S)), c = 2^r - 1 + C (D = 1) or -2^(r+1) + 1 + C, "
                "S|D|R|C|M = {}: {}",
                fields, value);
            break;
        default:
            r.formula = fmt::format("{} x 2^E x 1.m (denormal dot 0000: 2^(m - 23)), S|dot|E|m = {}: {}",
                                    r.rounded.value < 0 ? "-1" : "+1", fields, value);
            break;
    }
}

/// A wide pattern's exponent field, as spell_binary writes a narrow one's.
std::string wide_exponent_field(const core::FormatSpec& f, const std::string& hex) {
    const core::WideBits bits = core::parse_wide_bits(f, hex);
    const mpz_class field_bits = (bits >> f.mantissa_bits) & ((mpz_class(1) << f.exponent_bits) - 1);
    const long field = field_bits.get_si();
    std::string digits = field_bits.get_str(2);
    digits.insert(0, static_cast<std::size_t>(f.exponent_bits) - digits.size(), '0');
    const bool subnormal_field = field == 0;
    return fmt::format("field {} ({}b), bias {}, unbiased {}{}", field, digits, f.bias,
                       (subnormal_field ? 1 : field) - f.bias, subnormal_field ? " (subnormal: 1 - bias)" : "");
}

/// A format wider than binary64, through emu::BitLevelFormat (MPFR): the entered text rounded once.
FormatReading read_in_wide_format(const core::FormatSpec& spec, const EnteredValue& x,
                                  const core::RoundingOptions& options) {
    const emu::BitLevelFormat format(spec, options);
    FormatReading r;
    r.spec = spec;
    r.wide = true;
    const emu::Produced produced = format.round_text(x.text);
    r.hex = produced.hex;
    r.flags = produced.flags;
    r.value_class = format.value_class(r.hex);
    r.exact = format.exact_decimal(r.hex);
    r.shortest = r.value_class == core::to_string(core::ValueClass::NaN) ? "nan" : format.shortest_decimal(r.hex);
    // The spacing of the format's values around x, where a double holds it (beyond: no ULP error).
    const std::int64_t quantum = format.quantum_exponent_at(x.exact.exponent);
    const double spacing = x.exact.kind == core::ExactValue::Kind::Finite && std::abs(quantum) < 1000
                               ? std::ldexp(1.0, static_cast<int>(quantum))
                               : NAN;
    const core::RoundingErrorText error =
        core::measure_rounding_error(x.text, x.exact, format.value_of(r.hex), quantum, spacing, 6);
    r.absolute_error = error.absolute;
    r.relative_error = error.relative;
    r.ulp_error = error.ulps;
    r.formula = "fields " + format.fields(r.hex);
    r.exponent_field = wide_exponent_field(spec, r.hex);
    if (r.value_class != core::to_string(core::ValueClass::NaN)) {
        const std::string up = format.next_up(r.hex), down = format.next_down(r.hex);
        if (up != r.hex) r.next_up = format.exact_decimal(up);
        if (down != r.hex) r.next_down = format.exact_decimal(down);
    }
    return r;
}

}  // namespace

FormatReading read_in_format(const core::FormatSpec& spec, const EnteredValue& x,
                             const core::RoundingOptions& options) {
    if (core::is_wider_than_binary64(spec)) return read_in_wide_format(spec, x, options);
    FormatReading r;
    r.spec = spec;
    if (x.pattern && x.pattern->format == spec.name) {
        r.rounded.bits = x.pattern->bits;
        r.rounded.value = core::decode_bits(spec, x.pattern->bits).value;
    } else {
        r.rounded = core::Rounder(spec, options)(x.exact);
    }
    r.decoded = core::decode_bits(spec, r.rounded.bits);
    r.hex = core::format_bits_hex(spec, r.rounded.bits);
    r.value_class = core::to_string(r.decoded.value_class);
    r.flags = r.rounded.flags;
    r.exact = core::exact_decimal(r.rounded.value);
    r.shortest = r.decoded.value_class == core::ValueClass::NaN ? "nan" : core::shortest_decimal(spec, r.rounded.value);
    measure_errors(r, x);
    switch (spec.kind) {
        case core::FormatKind::Binary:
        case core::FormatKind::ExponentScale: spell_binary(r); break;
        case core::FormatKind::Integer:
            r.formula = spec.has_sign ? fmt::format("two's complement {}b = {}",
                                                    binary_digits(r.rounded.bits, spec.integer_bits), r.exact)
                                      : fmt::format("unsigned {}b = {}",
                                                    binary_digits(r.rounded.bits, spec.integer_bits), r.exact);
            break;
        case core::FormatKind::Lookup:
            r.formula = fmt::format("code {} of {}: table[{}] = {}", r.rounded.bits, spec.code_values.size(),
                                    r.rounded.bits, r.exact);
            break;
        case core::FormatKind::Posit:
        case core::FormatKind::Takum:
        case core::FormatKind::HiFloat8: spell_tapered(r); break;
    }
    return r;
}

FormatReading read_edited(const core::FormatSpec& spec, std::uint64_t bits, const EnteredValue& reference,
                          const core::RoundingOptions& options) {
    FormatReading r = read_in_format(spec, entered_pattern(spec, bits), options);
    measure_errors(r, reference);
    return r;
}

BitField bit_field(const core::FormatSpec& spec, std::uint64_t bits, int index) {
    switch (spec.kind) {
        case core::FormatKind::Integer: return BitField::Integer;
        case core::FormatKind::Lookup: return BitField::Code;
        case core::FormatKind::Posit:
        case core::FormatKind::Takum:
        case core::FormatKind::HiFloat8: {
            const std::string name = tapered_bit(spec, bits, index).field.name;
            if (name == "sign") return BitField::Sign;
            if (name == "regime" || name == "direction") return BitField::Regime;
            if (name == "dot") return BitField::Dot;
            if (name == "exponent" || name == "characteristic") return BitField::Exponent;
            return BitField::Mantissa;
        }
        default: break;
    }
    if (index < spec.mantissa_bits) return BitField::Mantissa;
    if (index < spec.mantissa_bits + spec.exponent_bits) return BitField::Exponent;
    return BitField::Sign;
}

namespace {

/// What a field of a tapered code does, by the format's definition.
std::string tapered_field_role(const core::FormatSpec& spec, const std::string& name) {
    const bool posit = spec.kind == core::FormatKind::Posit, takum = spec.kind == core::FormatKind::Takum;
    if (name == "sign")
        return spec.kind == core::FormatKind::HiFloat8
                   ? "the value is negative when set"
                   : "negative when set; the other fields are read as stored, by the formula with s";
    if (name == "regime" && posit)
        return fmt::format(
            "a run of equal bits and the opposite bit ending it: k = run - 1 for ones, -run for "
            "zeros, scale 2^(k 2^{})",
            spec.exponent_bits);
    if (name == "regime") return "R: r = R (D = 1) or 7 - R characteristic bits follow";
    if (name == "direction") return "D = 1 for characteristics c >= 0, 0 for c < 0";
    if (name == "characteristic") return "C: c = 2^r - 1 + C (D = 1) or -2^(r+1) + 1 + C (D = 0)";
    if (name == "exponent" && posit) return "e, added to k 2^es (bits cut off at the end read as 0)";
    if (name == "exponent") return "E in sign-magnitude, its leading magnitude bit implicit";
    if (name == "dot") return "prefix code 11 10 01 001 0001: exponent width 4 3 2 1 0; 0000: denormal";
    if (name == "mantissa" && spec.kind == core::FormatKind::HiFloat8)
        return "significand bits (denormal: the exponent m - 23)";
    return takum ? "mantissa M: bits of the significand 1 + M" : "fraction f: bits of the significand 1 + f";
}

std::string describe_tapered_bit(const core::FormatSpec& spec, std::uint64_t bits, int index,
                                 const std::string& state) {
    const TaperedBit b = tapered_bit(spec, bits, index);
    return fmt::format("{} bit {} of {} ({}): {}", b.field.name, b.position + 1, b.field.width, state,
                       tapered_field_role(spec, b.field.name));
}

}  // namespace

std::string describe_bit(const core::FormatSpec& spec, std::uint64_t bits, int index) {
    const bool set = ((bits >> index) & 1) != 0;
    const std::string state = set ? "set" : "clear";
    if (spec.is_tapered()) return describe_tapered_bit(spec, bits, index, state);
    switch (bit_field(spec, bits, index)) {
        case BitField::Integer: {
            const bool top = spec.has_sign && index == spec.integer_bits - 1;
            return fmt::format("integer bit {} ({}): weight {}2^{}{}", index, state, top ? "-" : "", index,
                               top ? " (two's complement sign)" : "");
        }
        case BitField::Code:
            return fmt::format("code bit {} ({}): adds 2^{} = {} to the code index into the {}-entry table", index,
                               state, index, 1 << index, spec.code_values.size());
        case BitField::Sign: return fmt::format("sign bit ({}): the value is negative when set", state);
        case BitField::Exponent: {
            const int k = index - spec.mantissa_bits;
            return fmt::format("exponent bit {} ({}): adds 2^{} = {} to the biased exponent field (bias {})", k, state,
                               k, 1 << k, spec.bias);
        }
        case BitField::Mantissa: {
            const int j = spec.mantissa_bits - index;  // 1 for the top fraction bit
            const int M = spec.mantissa_bits;
            const int field = static_cast<int>((bits >> M) & ((std::uint64_t{1} << spec.exponent_bits) - 1));
            const int unbiased = (field == 0 ? 1 : field) - spec.bias;
            return fmt::format("mantissa bit {} of {} ({}): weight 2^-{} of the significand, 2^{} at this exponent", j,
                               M, state, j, unbiased - j);
        }
        case BitField::Regime:
        case BitField::Dot: break;  // tapered formats only, described above
    }
    return {};
}

}  // namespace floatscope::gui
