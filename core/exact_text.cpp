// Exact and compact text of wide values through GMP (hex floats) and MPFR (decimals).
#include "core/exact_text.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/decimal.hpp"
#include "core/mpfr_number.hpp"

namespace floatscope::core {

namespace {

std::string special_text(const WideValue& x) {
    switch (x.kind) {
        case WideValue::Kind::NaN: return "nan";  // as exact_decimal: a NaN's sign is no value
        case WideValue::Kind::Infinite: return x.negative ? "-inf" : "inf";
        default: return x.negative ? "-0" : "0";
    }
}

/// The bits from the significand's leading one to its last one: the least precision that holds x,
/// which exact_decimal_digit_bound then reads.
mpfr_prec_t exact_precision(const WideValue& x) {
    const mpz_srcptr s = x.significand.get_mpz_t();
    const auto bits = static_cast<mpfr_prec_t>(mpz_sizeinbase(s, 2) - mpz_scan1(s, 0));
    return std::max<mpfr_prec_t>(MPFR_PREC_MIN, bits);
}

}  // namespace

std::string hex_float(const WideValue& x) {
    if (x.kind != WideValue::Kind::Finite) return special_text(x);
    // x = s 2^e with s of n bits = 1.f 2^(e + n - 1); f's n - 1 bits padded to whole hex digits.
    const auto n = static_cast<std::int64_t>(mpz_sizeinbase(x.significand.get_mpz_t(), 2));
    const std::int64_t fraction_bits = n - 1;
    const std::int64_t hex_digits = (fraction_bits + 3) / 4;
    mpz_class fraction = x.significand;
    mpz_clrbit(fraction.get_mpz_t(), static_cast<mp_bitcnt_t>(fraction_bits));
    fraction <<= static_cast<mp_bitcnt_t>(4 * hex_digits - fraction_bits);
    std::string digits = hex_digits > 0 ? fraction.get_str(16) : "";
    digits.insert(0, static_cast<std::size_t>(hex_digits) - digits.size(), '0');
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    const std::int64_t exponent = x.exponent + fraction_bits;
    return fmt::format("{}0x1{}{}p{:+d}", x.negative ? "-" : "", digits.empty() ? "" : ".", digits, exponent);
}

std::string exact_text(const WideValue& x, std::size_t max_decimal_digits) {
    if (x.kind != WideValue::Kind::Finite) return special_text(x);
    MpfrNumber value(exact_precision(x));
    x.to_mpfr(value.get());
    if (exact_decimal_digit_bound(value.get()) > max_decimal_digits) return hex_float(x);
    return exact_decimal(value.get(), max_decimal_digits);
}

std::string exact_text_with_magnitude(const WideValue& x, std::size_t max_decimal_digits, int digits) {
    std::string text = exact_text(x, max_decimal_digits);
    if (x.kind != WideValue::Kind::Finite || text != hex_float(x)) return text;
    return text.append(" exactly, about ").append(significant_text(x, digits));
}

std::string count_text(const mpz_class& n, std::size_t max_digits) {
    std::string digits = n.get_str();
    if (digits.size() <= max_digits) return digits;
    WideValue value;
    value.kind = WideValue::Kind::Finite;
    value.significand = abs(n);
    value.negative = n < 0;
    return significant_text(value, 6);
}

std::string significant_text(const WideValue& x, int digits) {
    if (x.kind != WideValue::Kind::Finite) return special_text(x);
    MpfrNumber value(exact_precision(x));
    x.to_mpfr(value.get());
    char buffer[64];
    mpfr_snprintf(buffer, sizeof buffer, "%.*Rg", digits, value.get());
    return buffer;
}

}  // namespace floatscope::core
