// Posits, takums and HiFloat8: specs, names, validation, and reading a code's fields and value.
#include "core/tapered_format.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::core {

namespace {

constexpr double quiet_nan = std::numeric_limits<double>::quiet_NaN();

std::uint64_t low_mask(int bits) {
    return bits <= 0 ? 0 : bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

FormatSpec tapered(std::string name, FormatKind kind, int bits, int exponent_size, std::string description) {
    FormatSpec f;
    f.name = std::move(name);
    f.kind = kind;
    f.tapered_bits = bits;
    f.exponent_bits = exponent_size;
    f.mantissa_bits = 0;
    f.bias = 0;
    f.has_sign = true;
    f.has_infinity = kind == FormatKind::HiFloat8;
    f.nan_encoding = NanEncoding::NegativeZero;  // NaR and HiF8's NaN take the code of -0
    f.has_negative_zero = false;
    f.description = std::move(description);
    return f;
}

/// A code's value, read from its stored bits, and its fields where asked for (decoding needs the
/// value alone, and leaves the list alone: no allocation per decode).
struct Reading {
    std::vector<TaperedField>* fields = nullptr;
    double value = 0;
};

void add_field(Reading& r, const char* name, int width) {
    if (width > 0 && r.fields != nullptr) r.fields->push_back({name, width});
}

/// The Posit Standard's formula on the stored bits: ((1 - 3s) + f) 2^((1 - 2s)(k 2^es + e + s)).
Reading read_posit(const FormatSpec& spec, std::uint64_t bits, std::vector<TaperedField>* fields) {
    const int n = spec.tapered_bits, es = spec.exponent_bits;
    Reading r{fields};
    const int s = static_cast<int>((bits >> (n - 1)) & 1);
    add_field(r, "sign", 1);
    if ((bits & low_mask(n - 1)) == 0) {
        add_field(r, "regime", n - 1);
        r.value = s != 0 ? quiet_nan : 0.0;
        return r;
    }
    const bool first = ((bits >> (n - 2)) & 1) != 0;
    int run = 0;
    for (int i = n - 2; i >= 0 && (((bits >> i) & 1) != 0) == first; --i) ++run;
    const int regime_width = std::min(run + 1, n - 1);
    const int k = first ? run - 1 : -run;
    const int remaining = n - 1 - regime_width;
    const int exponent_width = std::min(es, remaining);
    const int fraction_width = remaining - exponent_width;
    const std::uint64_t exponent = ((bits >> fraction_width) & low_mask(exponent_width)) << (es - exponent_width);
    const std::uint64_t fraction = bits & low_mask(fraction_width);
    add_field(r, "regime", regime_width);
    add_field(r, "exponent", exponent_width);
    add_field(r, "fraction", fraction_width);
    const double significand =
        std::ldexp((1.0 - 3 * s) * std::ldexp(1.0, fraction_width) + static_cast<double>(fraction), -fraction_width);
    const int scale = k * (1 << es) + static_cast<int>(exponent);
    r.value = std::ldexp(significand, (1 - 2 * s) * (scale + s));
    return r;
}

/// Hunhold's linear takum on the stored bits (codes under 12 bits padded with zeros), with the sign
/// folded in as the posit formula folds it: ((1 - 3S) + M) 2^((1 - 2S)(c + S)).
Reading read_takum(const FormatSpec& spec, std::uint64_t bits, std::vector<TaperedField>* fields) {
    const int n = spec.tapered_bits;
    const int padded = std::max(n, 12);
    const std::uint64_t code = bits << (padded - n);
    Reading r{fields};
    const int s = static_cast<int>((code >> (padded - 1)) & 1);
    add_field(r, "sign", 1);
    if ((code & low_mask(padded - 1)) == 0) {
        add_field(r, "direction", 1);
        add_field(r, "regime", 3);
        add_field(r, "characteristic", n - 5);
        r.value = s != 0 ? quiet_nan : 0.0;
        return r;
    }
    const bool direction = ((code >> (padded - 2)) & 1) != 0;
    const int regime = static_cast<int>((code >> (padded - 5)) & 7);
    const int c_bits = direction ? regime : 7 - regime;
    const int m_bits = padded - 5 - c_bits;
    const int characteristic_field = static_cast<int>((code >> m_bits) & low_mask(c_bits));
    const std::uint64_t mantissa = code & low_mask(m_bits);
    const int c = direction ? (1 << c_bits) - 1 + characteristic_field : -(2 << c_bits) + 1 + characteristic_field;
    add_field(r, "direction", 1);
    add_field(r, "regime", 3);
    const int stored_c = std::min(c_bits, n - 5);
    add_field(r, "characteristic", stored_c);
    add_field(r, "mantissa", n - 5 - stored_c);
    const double significand =
        std::ldexp((1.0 - 3 * s) * std::ldexp(1.0, m_bits) + static_cast<double>(mantissa), -m_bits);
    r.value = std::ldexp(significand, (1 - 2 * s) * (c + s));
    return r;
}

/// HiF8 (Luo et al. 2024, section 2): sign-magnitude; the dot prefix gives the exponent width D.
Reading read_hifloat8(std::uint64_t bits, std::vector<TaperedField>* fields = nullptr) {
    Reading r{fields};
    const bool negative = (bits & 0x80) != 0;
    const std::uint64_t magnitude = bits & 0x7F;
    add_field(r, "sign", 1);
    int dot_width = 2, exponent_width = 0;
    if ((magnitude >> 5) != 0) {
        exponent_width = static_cast<int>(magnitude >> 5) + 1;  // 01, 10, 11: D = 2, 3, 4
    } else if ((magnitude >> 4) == 1) {
        dot_width = 3, exponent_width = 1;
    } else {
        dot_width = 4, exponent_width = 0;
    }
    add_field(r, "dot", dot_width);
    const int mantissa_width = 7 - dot_width - exponent_width;
    if ((magnitude >> 3) == 0) {  // 0000: denormal, the three low bits give the exponent
        add_field(r, "mantissa", 3);
        const int m = static_cast<int>(magnitude & 7);
        r.value = m == 0 ? (negative ? quiet_nan : 0.0) : std::ldexp(negative ? -1.0 : 1.0, m - 23);
        return r;
    }
    add_field(r, "exponent", exponent_width);
    add_field(r, "mantissa", mantissa_width);
    if (magnitude == 0x6F) {
        r.value = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        return r;
    }
    int exponent = 0;
    if (exponent_width > 0) {
        const std::uint64_t field = (magnitude >> mantissa_width) & low_mask(exponent_width);
        const int size = (1 << (exponent_width - 1)) | static_cast<int>(field & low_mask(exponent_width - 1));
        exponent = ((field >> (exponent_width - 1)) & 1) != 0 ? -size : size;
    }
    const std::uint64_t mantissa = magnitude & low_mask(mantissa_width);
    const double significand = 1.0 + std::ldexp(static_cast<double>(mantissa), -mantissa_width);
    r.value = std::ldexp(negative ? -significand : significand, exponent);
    return r;
}

Reading read_code(const FormatSpec& spec, std::uint64_t bits, std::vector<TaperedField>* fields = nullptr) {
    switch (spec.kind) {
        case FormatKind::Posit: return read_posit(spec, bits, fields);
        case FormatKind::Takum: return read_takum(spec, bits, fields);
        case FormatKind::HiFloat8: return read_hifloat8(bits, fields);
        default: break;
    }
    throw Error(fmt::format("format '{}' is not a tapered format", spec.name));
}

std::optional<int> digits_of(std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

FormatSpec posit_format(int bits, int exponent_size) {
    const std::string name =
        exponent_size == 2 ? fmt::format("posit{}", bits) : fmt::format("posit{}_es{}", bits, exponent_size);
    if (bits < 8 || bits > 32 || exponent_size < 0 || exponent_size > 4)
        throw Error(
            fmt::format("format '{}' (posit<{},{}>): FloatScope has posits of 8..32 bits with es 0..4 "
                        "(positN is es 2, positN_esK)",
                        name, bits, exponent_size));
    const int scale = (bits - 2) * (1 << exponent_size);
    FormatSpec f =
        tapered(name, FormatKind::Posit, bits, exponent_size,
                fmt::format("posit<{},{}>{}: maxpos 2^{}, minpos 2^-{}, NaR = 0x{:X}; rounds to nearest even "
                            "on the bit string, saturating (never to 0 or NaR)",
                            bits, exponent_size, exponent_size == 2 ? " (Posit Standard 2022)" : "", scale, scale,
                            std::uint64_t{1} << (bits - 1)));
    validate(f);
    return f;
}

FormatSpec takum_format(int bits) {
    if (bits < 8 || bits > 32)
        throw Error(fmt::format("format 'takum{}': FloatScope has linear takums of 8..32 bits", bits));
    FormatSpec f = tapered(fmt::format("takum{}", bits), FormatKind::Takum, bits, 0,
                           fmt::format("linear takum, {} bits (Hunhold 2024): about 2^-255 .. 2^255, NaR = 0x{:X}; "
                                       "saturating bit-string rounding",
                                       bits, std::uint64_t{1} << (bits - 1)));
    validate(f);
    return f;
}

FormatSpec hifloat8_format() {
    FormatSpec f = tapered("hifloat8", FormatKind::HiFloat8, 8, 0,
                           "Huawei HiFloat8 (Luo et al. 2024): tapered 8-bit, 2^-22 .. 32768, +-inf, NaN = 0x80; "
                           "the paper converts with ties away (rna)");
    validate(f);
    return f;
}

std::optional<FormatSpec> parse_tapered_name(std::string_view name) {
    if (name == "hifloat8" || name == "hif8") return hifloat8_format();
    if (name.substr(0, 5) == "takum") {
        const auto bits = digits_of(name.substr(5));
        if (!bits) return std::nullopt;
        return takum_format(*bits);
    }
    if (name.substr(0, 5) != "posit") return std::nullopt;
    const std::string_view rest = name.substr(5);
    const std::size_t es = rest.find("_es");
    const auto bits = digits_of(rest.substr(0, es));
    const auto exponent_size = es == std::string_view::npos ? std::optional<int>(2) : digits_of(rest.substr(es + 3));
    if (!bits || !exponent_size) return std::nullopt;
    return posit_format(*bits, *exponent_size);
}

void validate_tapered(const FormatSpec& spec) {
    auto fail = [&](const std::string& why) { throw Error(fmt::format("invalid format '{}': {}", spec.name, why)); };
    const int n = spec.tapered_bits;
    switch (spec.kind) {
        case FormatKind::Posit:
            if (n < 8 || n > 32 || spec.exponent_bits < 0 || spec.exponent_bits > 4)
                fail(fmt::format("posits have 8..32 bits and es 0..4, not {} and {}", n, spec.exponent_bits));
            break;
        case FormatKind::Takum:
            if (n < 8 || n > 32 || spec.exponent_bits != 0) fail(fmt::format("takums have 8..32 bits, not {}", n));
            break;
        case FormatKind::HiFloat8:
            if (n != 8 || spec.exponent_bits != 0) fail("HiFloat8 has 8 bits");
            break;
        default: fail("not a tapered format");
    }
    const bool fields_fixed = spec.has_sign && spec.mantissa_bits == 0 && spec.bias == 0 &&
                              spec.nan_encoding == NanEncoding::NegativeZero && !spec.has_negative_zero &&
                              spec.has_infinity == (spec.kind == FormatKind::HiFloat8) && !spec.is_p3109() &&
                              spec.integer_bits == 0 && spec.code_values.empty();
    if (!fields_fixed) fail("a tapered format's sign, zero, NaR/NaN and infinities follow from its kind");
    if (spec.subnormals != SubnormalPolicy::Gradual || spec.overflow != OverflowPolicy::Ieee)
        fail("tapered formats take no :ftz or :sat (posits and takums saturate by definition)");
}

std::vector<TaperedField> tapered_fields(const FormatSpec& spec, std::uint64_t bits) {
    std::vector<TaperedField> fields;
    read_code(spec, bits, &fields);
    return fields;
}

double tapered_value(const FormatSpec& spec, std::uint64_t bits) { return read_code(spec, bits).value; }

std::uint64_t tapered_next(const FormatSpec& spec, std::uint64_t bits, bool upward) {
    const std::uint64_t nan = tapered_nan_code(spec);
    if (bits == nan) return bits;
    if (spec.kind == FormatKind::HiFloat8) {
        // Codes in ascending order of value (NaN left out), built once.
        static const std::vector<std::uint64_t> ascending = [] {
            std::vector<std::uint64_t> codes;
            for (std::uint64_t c = 0; c < 256; ++c)
                if (c != 0x80) codes.push_back(c);
            std::sort(codes.begin(), codes.end(),
                      [](std::uint64_t a, std::uint64_t b) { return read_hifloat8(a).value < read_hifloat8(b).value; });
            return codes;
        }();
        const auto at = std::find(ascending.begin(), ascending.end(), bits);
        if (upward) return at + 1 == ascending.end() ? bits : *(at + 1);
        return at == ascending.begin() ? bits : *(at - 1);
    }
    // Two's complement order: 0x80..01 (-maxpos) up to 0x7F..F (maxpos), NaR below them all.
    const std::uint64_t mask = low_mask(spec.tapered_bits);
    if (upward) return bits == nan - 1 ? bits : (bits + 1) & mask;
    return bits == nan + 1 ? bits : (bits - 1) & mask;
}

std::uint64_t tapered_nan_code(const FormatSpec& spec) { return std::uint64_t{1} << (spec.tapered_bits - 1); }

std::uint64_t tapered_max_code(const FormatSpec& spec) {
    return spec.kind == FormatKind::HiFloat8 ? 0x6E : tapered_nan_code(spec) - 1;
}

}  // namespace floatscope::core
