// Exact and shortest decimal text through MPFR.
#include "core/decimal.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/exact_value.hpp"
#include "core/mpfr_number.hpp"
#include "core/rounding.hpp"

namespace floatscope::core {

namespace {

/// Lays out significant digits `digits` (no sign, no trailing zeros) with decimal exponent
/// `exponent10` (value = 0.digits * 10^exponent10) the way printf's %g would, with all digits.
std::string layout(const std::string& digits, long exponent10) {
    const long point = exponent10;  // digits before the decimal point
    const long scientific_exponent = point - 1;
    if (scientific_exponent < -4 || scientific_exponent > 20) {
        std::string mantissa = digits.substr(0, 1);
        if (digits.size() > 1) mantissa.append(".").append(digits, 1, std::string::npos);
        return fmt::format("{}e{}{:02d}", mantissa, scientific_exponent < 0 ? '-' : '+',
                           std::labs(scientific_exponent));
    }
    // append() rather than "literal" + string: GCC 12 -O3 warns falsely (-Wrestrict) on the latter.
    if (point <= 0) return std::string("0.").append(static_cast<std::size_t>(-point), '0').append(digits);
    if (static_cast<std::size_t>(point) >= digits.size())
        return digits + std::string(static_cast<std::size_t>(point) - digits.size(), '0');
    return digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
}

std::string special(double x) {
    if (std::isnan(x)) return std::signbit(x) ? "-nan" : "nan";
    if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
    return std::signbit(x) ? "-0" : "0";
}

/// Significant digits of |x| rounded to `count` digits (count 0: all exact digits).
std::string digits_of(mpfr_srcptr x, std::size_t count, long& exponent10, mpfr_rnd_t rounding = MPFR_RNDN) {
    MpfrNumber magnitude(mpfr_get_prec(x));
    mpfr_abs(magnitude.get(), x, MPFR_RNDN);
    mpfr_exp_t exponent = 0;
    char* text = mpfr_get_str(nullptr, &exponent, 10, count, magnitude.get(), rounding);
    std::string digits(text);
    mpfr_free_str(text);
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    exponent10 = exponent;
    return digits;
}

}  // namespace

// x = m 2^k (m of b bits): b log10(2) + 1 digits for k >= 0; for k < 0, x = m 5^-k / 10^-k, so
// b + |k| log2(5) bits.
std::size_t exact_decimal_digit_bound(mpfr_srcptr x) {
    const double bits = static_cast<double>(mpfr_get_prec(x));
    const double exponent = static_cast<double>(mpfr_get_exp(x)) - bits;
    const double significant_bits = exponent >= 0 ? bits + exponent : bits - exponent * std::log2(5.0);
    return static_cast<std::size_t>(significant_bits * std::log10(2.0)) + 2;
}

std::string exact_decimal(mpfr_srcptr x, std::size_t max_exact_digits) {
    if (!mpfr_regular_p(x)) {
        if (mpfr_nan_p(x)) return "nan";  // as the narrow path prints a NaN of either sign: its sign is no value
        if (mpfr_inf_p(x)) return mpfr_signbit(x) ? "-inf" : "inf";
        return mpfr_signbit(x) ? "-0" : "0";
    }
    const std::size_t needed = exact_decimal_digit_bound(x);
    const bool exact = needed <= max_exact_digits;
    long exponent10 = 0;
    const std::string digits = digits_of(x, exact ? needed : max_exact_digits, exponent10);
    return std::string(exact ? "" : "~").append(mpfr_signbit(x) ? "-" : "").append(layout(digits, exponent10));
}

std::string exact_decimal(double x) {
    MpfrNumber value(53);
    mpfr_set_d(value.get(), x, MPFR_RNDN);
    return exact_decimal(value.get());
}

std::string shortest_decimal(mpfr_srcptr x, std::size_t max_digits,
                             const std::function<bool(const std::string& candidate)>& reads_back) {
    if (!mpfr_regular_p(x)) return exact_decimal(x);
    for (std::size_t count = 1; count <= max_digits; ++count) {
        // Fix (core test): the nearest decimal of `count` digits may miss while the one on the
        // other side reads back, because the rounding interval is lopsided at a power of two
        // (fp8_e4m3 0.125: 0.12 misses, 0.13 reads back) or the nearest was a decimal tie.
        // Try the nearest first, then the decimals of `count` digits below and above.
        for (mpfr_rnd_t rounding : {MPFR_RNDN, MPFR_RNDZ, MPFR_RNDA}) {
            long exponent10 = 0;
            const std::string digits = digits_of(x, count, exponent10, rounding);
            std::string candidate = mpfr_signbit(x) ? "-" : "";
            candidate += layout(digits, exponent10);
            if (reads_back(candidate)) return candidate;
        }
    }
    return exact_decimal(x);
}

std::string shortest_decimal(const FormatSpec& spec, double value) {
    if (value == 0 || !std::isfinite(value)) return special(value);
    const Rounder nearest(spec, {});
    MpfrNumber x(53);
    mpfr_set_d(x.get(), value, MPFR_RNDN);
    return shortest_decimal(x.get(), 40, [&](const std::string& candidate) {
        // A decimal beyond max that saturates back to it is not a spelling of max, nor one below a
        // posit's or takum's minpos (underflow there means saturation) a spelling of minpos.
        const Rounded read_back = nearest(parse_exact_value(candidate));
        const bool saturated_up =
            spec.is_tapered() && spec.kind != FormatKind::HiFloat8 && read_back.flags.has(ExceptionFlags::underflow);
        return read_back.value == value && !read_back.flags.has(ExceptionFlags::overflow) && !saturated_up;
    });
}

}  // namespace floatscope::core
