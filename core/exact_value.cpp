// Construction of ExactValue from doubles, MPFR numbers and text.
#include "core/exact_value.hpp"

#include <bit>
#include <cctype>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/mpfr_number.hpp"
#include "core/value_expression.hpp"

namespace floatscope::core {

ExactValue ExactValue::zero(bool negative) {
    ExactValue v;
    v.kind = Kind::Zero;
    v.negative = negative;
    return v;
}

ExactValue ExactValue::infinity(bool negative) {
    ExactValue v;
    v.kind = Kind::Infinite;
    v.negative = negative;
    return v;
}

ExactValue ExactValue::quiet_nan(bool negative) {
    ExactValue v;
    v.kind = Kind::NaN;
    v.negative = negative;
    return v;
}

ExactValue ExactValue::from_scaled_integer(bool negative, std::uint64_t magnitude, std::int64_t scale) {
    if (magnitude == 0) return zero(negative);
    ExactValue v;
    v.kind = Kind::Finite;
    v.negative = negative;
    const int leading = std::countl_zero(magnitude);
    v.significand = magnitude << leading;
    v.exponent = scale + 63 - leading;
    return v;
}

ExactValue ExactValue::from_double(double x) {
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const bool negative = (bits >> 63) != 0;
    const auto field = static_cast<std::int64_t>((bits >> 52) & 0x7FF);
    const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
    if (field == 0x7FF) {
        if (fraction == 0) return infinity(negative);
        ExactValue v = quiet_nan(negative);
        v.signaling = (fraction >> 51) == 0;
        v.nan_payload = (fraction & ((std::uint64_t{1} << 51) - 1)) << 13;
        return v;
    }
    if (field == 0) return from_scaled_integer(negative, fraction, -1074);
    return from_scaled_integer(negative, fraction | (std::uint64_t{1} << 52), field - 1075);
}

ExactValue ExactValue::from_mpfr(mpfr_srcptr x) {
    if (mpfr_nan_p(x)) return quiet_nan(mpfr_signbit(x) != 0);
    if (mpfr_inf_p(x)) return infinity(mpfr_signbit(x) != 0);
    if (mpfr_zero_p(x)) return zero(mpfr_signbit(x) != 0);
    MpfrNumber truncated(64);
    const int ternary = mpfr_set(truncated.get(), x, MPFR_RNDZ);
    mpfr_abs(truncated.get(), truncated.get(), MPFR_RNDN);
    // |x| = m * 2^(e - 64) with m in [2^63, 2^64): read m as an exact 64-bit integer.
    const mpfr_exp_t e = mpfr_get_exp(truncated.get());
    mpfr_set_exp(truncated.get(), 64);
    ExactValue v;
    v.kind = Kind::Finite;
    v.negative = mpfr_signbit(x) != 0;
    v.significand = mpfr_get_uj(truncated.get(), MPFR_RNDZ);
    v.exponent = static_cast<std::int64_t>(e) - 1;
    v.sticky = ternary != 0;
    return v;
}

double ExactValue::to_double() const {
    switch (kind) {
        case Kind::Zero: return negative ? -0.0 : 0.0;
        case Kind::Infinite:
            return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        case Kind::NaN:
            return negative ? -std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::quiet_NaN();
        case Kind::Finite: break;
    }
    MpfrNumber exact(66);
    to_mpfr(exact.get());
    return mpfr_get_d(exact.get(), MPFR_RNDN);
}

void ExactValue::to_mpfr(mpfr_ptr out) const {
    switch (kind) {
        case Kind::Zero: mpfr_set_zero(out, negative ? -1 : 1); return;
        case Kind::Infinite: mpfr_set_inf(out, negative ? -1 : 1); return;
        case Kind::NaN: mpfr_set_nan(out); return;
        case Kind::Finite: break;
    }
    // Append the sticky bit below the 64 kept bits so that any rounding of `out` sees it.
    MpfrNumber exact(66);
    mpfr_set_uj_2exp(exact.get(), significand, 0, MPFR_RNDN);
    mpfr_mul_2ui(exact.get(), exact.get(), 1, MPFR_RNDN);
    if (sticky) mpfr_add_ui(exact.get(), exact.get(), 1, MPFR_RNDN);
    const std::int64_t scale = exponent - 64;
    mpfr_mul_2si(exact.get(), exact.get(), static_cast<long>(scale), MPFR_RNDN);
    if (negative) mpfr_neg(exact.get(), exact.get(), MPFR_RNDN);
    mpfr_set(out, exact.get(), MPFR_RNDN);
}

int compare(const ExactValue& a, const ExactValue& b) {
    using Kind = ExactValue::Kind;
    if (a.kind == Kind::NaN || b.kind == Kind::NaN) return 2;
    // Map to (sign, magnitude order): zero < finite < infinite in magnitude.
    auto sign_of = [](const ExactValue& v) { return v.kind == Kind::Zero ? 0 : (v.negative ? -1 : 1); };
    const int sa = sign_of(a), sb = sign_of(b);
    if (sa != sb) return sa < sb ? -1 : 1;
    if (sa == 0) return 0;
    auto magnitude_compare = [](const ExactValue& x, const ExactValue& y) {
        if (x.kind != y.kind) return x.kind == Kind::Infinite ? 1 : -1;
        if (x.kind == Kind::Infinite) return 0;
        if (x.exponent != y.exponent) return x.exponent < y.exponent ? -1 : 1;
        if (x.significand != y.significand) return x.significand < y.significand ? -1 : 1;
        if (x.sticky != y.sticky) return x.sticky ? 1 : -1;
        return 0;
    };
    const int m = magnitude_compare(a, b);
    return sa > 0 ? m : -m;
}

namespace {

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    return text;
}

[[noreturn]] void malformed(std::string_view text) {
    throw Error(
        fmt::format("malformed number '{}'; expected a decimal (0.1, -2.5e-3), a hex float "
                    "(0x1.8p-3), inf or nan",
                    text));
}

/// A number's text, checked and split: its sign, what it spells, and the digits MPFR reads.
struct NumberText {
    enum class Spelling { Number, Infinity, QuietNaN, SignalingNaN } spelling = Spelling::Number;
    bool negative = false;
    bool is_hex = false;
    std::string digits;  ///< without sign and 0x prefix
};

NumberText split_number_text(std::string_view raw) {
    const std::string_view text = trim(raw);
    if (text.empty()) malformed(raw);
    for (char c : text)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '+' && c != '-') malformed(raw);
    NumberText n;
    n.negative = text.front() == '-';
    const std::string_view unsigned_text = (text.front() == '-' || text.front() == '+') ? text.substr(1) : text;
    std::string lowered;
    for (char c : unsigned_text) lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lowered == "inf" || lowered == "infinity") n.spelling = NumberText::Spelling::Infinity;
    if (lowered == "nan" || lowered == "qnan") n.spelling = NumberText::Spelling::QuietNaN;
    if (lowered == "snan") n.spelling = NumberText::Spelling::SignalingNaN;
    if (n.spelling != NumberText::Spelling::Number) return n;
    // Only plain decimal and hex spellings reach MPFR: its parser would also take "@inf@",
    // "nan(...)" and other bases, which we do not offer.
    n.is_hex = lowered.size() > 2 && lowered[0] == '0' && lowered[1] == 'x';
    n.digits = n.is_hex ? lowered.substr(2) : lowered;
    const char* allowed = n.is_hex ? "0123456789abcdef.p+-" : "0123456789.e+-";
    if (n.digits.empty() || n.digits.find_first_not_of(allowed) != std::string::npos || n.digits.front() == '+' ||
        n.digits.front() == '-')
        malformed(raw);
    return n;
}

/// Reads the digits into `out` at its precision; returns MPFR's ternary value.
int read_digits(const NumberText& n, std::string_view raw, mpfr_ptr out, mpfr_rnd_t rounding) {
    char* end = nullptr;
    const int ternary = mpfr_strtofr(out, n.digits.c_str(), &end, n.is_hex ? 16 : 10, rounding);
    if (end == nullptr || *end != '\0' || end == n.digits.c_str()) malformed(raw);
    return ternary;
}

}  // namespace

namespace {

/// An expression's exact value (value_expression.hpp) at MPFR's precision of `out`, rounded with
/// `mode`; the ternary value says whether it was exact.
int read_expression(std::string_view text, mpfr_ptr out, mpfr_rnd_t mode) {
    mpq_t q;
    mpq_init(q);
    try {
        evaluate_value_expression(text, q);
    } catch (...) {
        mpq_clear(q);
        throw;
    }
    const int ternary = mpfr_set_q(out, q, mode);
    mpq_clear(q);
    return ternary;
}

}  // namespace

ExactValue parse_exact_value(std::string_view raw) {
    if (is_value_expression(raw)) {
        // 64 bits toward zero and the rest as the sticky bit: exact for rounding, as for a number.
        MpfrNumber parsed(64);
        const int ternary = read_expression(raw, parsed.get(), MPFR_RNDZ);
        if (mpfr_zero_p(parsed.get())) return ExactValue::zero();
        ExactValue v = ExactValue::from_mpfr(parsed.get());
        v.sticky = v.sticky || ternary != 0;
        return v;
    }
    const NumberText n = split_number_text(raw);
    switch (n.spelling) {
        case NumberText::Spelling::Infinity: return ExactValue::infinity(n.negative);
        case NumberText::Spelling::QuietNaN: return ExactValue::quiet_nan(n.negative);
        case NumberText::Spelling::SignalingNaN: {
            ExactValue v = ExactValue::quiet_nan(n.negative);
            v.signaling = true;
            v.nan_payload = std::uint64_t{1} << 63;
            return v;
        }
        case NumberText::Spelling::Number: break;
    }
    MpfrNumber parsed(64);
    mpfr_clear_flags();
    const int ternary = read_digits(n, raw, parsed.get(), MPFR_RNDZ);
    ExactValue v;
    if (mpfr_overflow_p()) {
        // Beyond MPFR's exponent range: a finite number far above any format's maximum.
        v = ExactValue::from_scaled_integer(n.negative, 1, std::int64_t{1} << 50);
        v.sticky = true;
        return v;
    }
    if (mpfr_underflow_p()) {
        v = ExactValue::from_scaled_integer(n.negative, 1, -(std::int64_t{1} << 50));
        v.sticky = true;
        return v;
    }
    if (mpfr_zero_p(parsed.get())) return ExactValue::zero(n.negative);
    v = ExactValue::from_mpfr(parsed.get());
    v.sticky = v.sticky || ternary != 0;
    v.negative = n.negative;
    return v;
}

void parse_value_to_mpfr(std::string_view text, mpfr_ptr out) {
    if (is_value_expression(text)) {
        read_expression(text, out, MPFR_RNDN);
        return;
    }
    const NumberText n = split_number_text(text);
    switch (n.spelling) {
        case NumberText::Spelling::Infinity: mpfr_set_inf(out, n.negative ? -1 : 1); return;
        case NumberText::Spelling::QuietNaN:
        case NumberText::Spelling::SignalingNaN: mpfr_set_nan(out); return;
        case NumberText::Spelling::Number: break;
    }
    read_digits(n, text, out, MPFR_RNDN);
    if (n.negative) mpfr_neg(out, out, MPFR_RNDN);
}

}  // namespace floatscope::core
