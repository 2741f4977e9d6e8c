// P3109 formats from their four parameters, and the two spellings of their names.
#include "core/p3109.hpp"

#include <charconv>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::core {

namespace {

/// The binary fields the parameters define, unvalidated.
FormatSpec p3109_layout(const P3109Parameters& p) {
    FormatSpec f;
    f.name = p3109_name(p);
    f.kind = FormatKind::Binary;
    f.p3109 = p;
    f.has_sign = p.is_signed;
    f.exponent_bits = p.is_signed ? p.bits - p.precision : p.bits - p.precision + 1;
    f.mantissa_bits = p.precision - 1;
    f.bias = 1 << (p.is_signed ? p.bits - p.precision - 1 : p.bits - p.precision);
    f.nan_encoding = p.is_signed ? NanEncoding::NegativeZero : NanEncoding::AllOnes;
    f.has_infinity = p.extended;
    f.has_negative_zero = false;
    f.description = fmt::format("IEEE P3109 {}-bit, precision {}, {}, {}", p.bits, p.precision,
                                p.is_signed ? "signed" : "unsigned", p.extended ? "extended (inf)" : "finite");
    return f;
}

std::string suffix(const P3109Parameters& p) {
    return fmt::format("{}p{}{}{}", p.bits, p.precision, p.is_signed ? 's' : 'u', p.extended ? 'e' : 'f');
}

/// Reads "<K>p<P><s|u><e|f>" exactly.
std::optional<P3109Parameters> parse_suffix(std::string_view text) {
    P3109Parameters p;
    const char* end = text.data() + text.size();
    auto [after_k, k_error] = std::from_chars(text.data(), end, p.bits);
    if (k_error != std::errc() || after_k == end || *after_k != 'p') return std::nullopt;
    auto [after_p, p_error] = std::from_chars(after_k + 1, end, p.precision);
    if (p_error != std::errc() || end - after_p != 2) return std::nullopt;
    if ((after_p[0] != 's' && after_p[0] != 'u') || (after_p[1] != 'e' && after_p[1] != 'f')) return std::nullopt;
    p.is_signed = after_p[0] == 's';
    p.extended = after_p[1] == 'e';
    return p;
}

void check_parameters(const P3109Parameters& p) {
    const std::string name = suffix(p);
    if (p.bits < 3 || p.bits > 16) throw Error(fmt::format("P3109 format '{}': K = {} outside 3..16", name, p.bits));
    const int highest = p.is_signed ? p.bits - 1 : p.bits;
    if (p.precision < 1 || p.precision > highest)
        throw Error(fmt::format("P3109 format '{}': P = {} outside 1..{} ({} formats have P {} K)", name, p.precision,
                                highest, p.is_signed ? "signed" : "unsigned", p.is_signed ? "<" : "<="));
}

}  // namespace

std::string p3109_name(const P3109Parameters& parameters) { return "binary" + suffix(parameters); }

std::string p3109_gfloat_name(const P3109Parameters& parameters) { return "p3109_k" + suffix(parameters); }

std::optional<P3109Parameters> parse_p3109_name(std::string_view name) {
    for (std::string_view prefix : {std::string_view("binary"), std::string_view("p3109_k")})
        if (name.substr(0, prefix.size()) == prefix) return parse_suffix(name.substr(prefix.size()));
    return std::nullopt;
}

FormatSpec p3109_format(const P3109Parameters& parameters) {
    check_parameters(parameters);
    FormatSpec f = p3109_layout(parameters);
    validate(f);
    return f;
}

void validate_p3109(const FormatSpec& spec) {
    check_parameters(spec.p3109);
    const FormatSpec layout = p3109_layout(spec.p3109);
    const bool same_layout = spec.kind == layout.kind && spec.has_sign == layout.has_sign &&
                             spec.exponent_bits == layout.exponent_bits && spec.mantissa_bits == layout.mantissa_bits &&
                             spec.bias == layout.bias && spec.nan_encoding == layout.nan_encoding &&
                             spec.has_infinity == layout.has_infinity &&
                             spec.has_negative_zero == layout.has_negative_zero;
    if (!same_layout)
        throw Error(
            fmt::format("invalid format '{}': its fields are not those of P3109 {} (bias, NaN and "
                        "infinities follow from K and P; :bias=N does not apply)",
                        spec.name, p3109_name(spec.p3109)));
    if (spec.subnormals != SubnormalPolicy::Gradual)
        throw Error(fmt::format("invalid format '{}': P3109 formats have subnormals (:ftz does not apply)", spec.name));
}

}  // namespace floatscope::core
