// Parsing FPCore number literals into exact rationals (FPCore 2.0, "Syntax": rational, decnum,
// hexnum and digits are all rationals).
#include "emulation/fpcore/exact_number.hpp"

#include <cctype>
#include <cmath>
#include <string>

#include "core/error.hpp"
#include "core/mpfr_number.hpp"

namespace floatscope::emu::fpcore {

namespace {

/// Reads a signed decimal integer of at most 9 digits (exponents); throws when longer.
long small_integer(std::string_view text, std::string_view literal) {
    std::string digits(text);
    if (digits.empty() || digits.size() > 10)
        throw Error("number '" + std::string(literal) + "' has an exponent out of range");
    return std::stol(digits);
}

/// value *= base^exponent exactly.
void scale_by_power(mpq_ptr value, unsigned long base, long exponent) {
    mpz_t power;
    mpz_init(power);
    mpz_ui_pow_ui(power, base, static_cast<unsigned long>(std::labs(exponent)));
    mpq_t factor;
    mpq_init(factor);
    mpq_set_z(factor, power);
    if (exponent >= 0)
        mpq_mul(value, value, factor);
    else
        mpq_div(value, value, factor);
    mpq_clear(factor);
    mpz_clear(power);
}

void check_exponent_size(long exponent, unsigned long base, std::string_view literal) {
    if (std::fabs(static_cast<double>(exponent)) * std::log2(static_cast<double>(base)) > 100000)
        throw Error("number '" + std::string(literal) + "' is too large or too small (|exponent| too big)");
}

}  // namespace

core::ExactValue Rational::exact() const {
    core::MpfrNumber x(64);
    const int ternary = mpfr_set_q(x.get(), value_, MPFR_RNDZ);
    return exact_from_truncated(x.get(), ternary);
}

core::ExactValue exact_from_truncated(mpfr_srcptr truncated, int ternary) {
    core::ExactValue value = core::ExactValue::from_mpfr(truncated);
    if (ternary != 0 && value.kind == core::ExactValue::Kind::Finite) value.sticky = true;
    return value;
}

Rational parse_number_literal(std::string_view text) {
    const std::string_view literal = text;
    Rational result;
    bool negative = false;
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
        negative = text[0] == '-';
        text.remove_prefix(1);
    }
    const bool hex = text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    if (!hex && text.find('/') != std::string_view::npos) {
        const std::string numerator(text.substr(0, text.find('/'))), denominator(text.substr(text.find('/') + 1));
        mpz_t n, d;
        mpz_init(n);
        mpz_init(d);
        const bool ok = mpz_set_str(n, numerator.c_str(), 10) == 0 && mpz_set_str(d, denominator.c_str(), 10) == 0 &&
                        mpz_sgn(d) != 0;
        if (ok) {
            mpq_set_num(result.get(), n);
            mpq_set_den(result.get(), d);
            mpq_canonicalize(result.get());
        }
        mpz_clear(n);
        mpz_clear(d);
        if (!ok) throw Error("bad rational number '" + std::string(literal) + "'");
    } else {
        if (hex) text.remove_prefix(2);
        const unsigned long base = hex ? 16 : 10;
        const char exponent_letter = hex ? 'p' : 'e';
        std::string digits;
        long fraction_digits = 0;
        long exponent = 0;
        bool seen_dot = false;
        for (std::size_t i = 0; i < text.size(); ++i) {
            const char c = text[i];
            if (std::tolower(static_cast<unsigned char>(c)) == exponent_letter) {
                exponent = small_integer(text.substr(i + 1), literal);
                break;
            }
            if (c == '.') {
                if (seen_dot) throw Error("bad number '" + std::string(literal) + "' (two periods)");
                seen_dot = true;
                continue;
            }
            if ((hex ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c))) == 0)
                throw Error("bad number '" + std::string(literal) + "'");
            digits += c;
            if (seen_dot) ++fraction_digits;
        }
        if (digits.empty()) throw Error("bad number '" + std::string(literal) + "' (no digits)");
        mpz_t n;
        mpz_init(n);
        mpz_set_str(n, digits.c_str(), static_cast<int>(base));
        mpq_set_z(result.get(), n);
        mpz_clear(n);
        // Hex: each fraction digit is 4 bits and the exponent is binary; decimal: powers of ten.
        if (hex) {
            const long binary_exponent = exponent - 4 * fraction_digits;
            check_exponent_size(binary_exponent, 2, literal);
            scale_by_power(result.get(), 2, binary_exponent);
        } else {
            check_exponent_size(exponent - fraction_digits, 10, literal);
            scale_by_power(result.get(), 10, exponent - fraction_digits);
        }
    }
    if (negative) mpq_neg(result.get(), result.get());
    return result;
}

Rational digits_value(std::string_view m, std::string_view e, std::string_view b) {
    const std::string where = "(digits " + std::string(m) + " " + std::string(e) + " " + std::string(b) + ")";
    auto integer = [&](std::string_view text) {
        std::string t(text);
        if (!t.empty() && t[0] == '+') t.erase(0, 1);
        const std::size_t start = !t.empty() && t[0] == '-' ? 1 : 0;
        if (t.size() == start || t.find_first_not_of("0123456789", start) != std::string::npos)
            throw Error(where + ": m, e and b must be integers");
        return t;
    };
    const std::string mantissa = integer(m), exponent = integer(e), base = integer(b);
    if (exponent.size() > 10 || base.size() > 10) throw Error(where + ": exponent or base out of range");
    const long exponent_value = std::stol(exponent), base_value = std::stol(base);
    if (base_value < 2) throw Error(where + ": the base must be at least 2");
    check_exponent_size(exponent_value, static_cast<unsigned long>(base_value), where);
    Rational result;
    mpz_t n;
    mpz_init(n);
    mpz_set_str(n, mantissa.c_str(), 10);
    mpq_set_z(result.get(), n);
    mpz_clear(n);
    scale_by_power(result.get(), static_cast<unsigned long>(base_value), exponent_value);
    return result;
}

}  // namespace floatscope::emu::fpcore
