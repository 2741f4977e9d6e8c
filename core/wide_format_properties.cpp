// Limits of a wide format from its geometry's patterns, decoded exactly; the rest as for narrow ones.
#include "core/wide_format_properties.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/catalog.hpp"
#include "core/format_width.hpp"
#include "core/mpfr_number.hpp"

namespace floatscope::core {

namespace {

WideValue power_of_two(std::int64_t exponent) {
    WideValue v;
    v.kind = WideValue::Kind::Finite;
    v.significand = 1;
    v.exponent = exponent;
    return v;
}

/// The double nearest to a finite x (inf or 0 beyond a double's range).
double nearest_double(const WideValue& x) {
    MpfrNumber value(
        std::max<mpfr_prec_t>(MPFR_PREC_MIN, static_cast<mpfr_prec_t>(mpz_sizeinbase(x.significand.get_mpz_t(), 2))));
    x.to_mpfr(value.get());  // exactly, at the significand's width
    return mpfr_get_d(value.get(), MPFR_RNDN);
}

}  // namespace

WideFormatProperties wide_format_properties(const FormatSpec& spec) {
    const WideGeometry g = wide_geometry(spec);  // validates, and refuses encodings the wide path lacks
    const int M = spec.mantissa_bits;
    WideFormatProperties w;
    w.max_finite = decode_wide_bits(spec, g.max_finite_magnitude).value;
    w.lowest = w.max_finite;
    if (spec.has_sign)
        w.lowest.negative = true;
    else
        w.lowest = WideValue{};
    w.min_normal = power_of_two(g.emin);
    const bool has_subnormals = spec.subnormals == SubnormalPolicy::Gradual && M > 0;
    w.min_subnormal = has_subnormals ? power_of_two(g.emin - M) : w.min_normal;
    w.epsilon = power_of_two(-M);
    w.unit_roundoff = power_of_two(-M - 1);
    // Magnitude patterns 0 ..= max finite, less the flushed subnormal ones; each nonzero one twice
    // where there is a sign (as binary_finite_values does for narrow formats).
    mpz_class magnitudes = g.max_finite_magnitude + 1;
    if (spec.subnormals == SubnormalPolicy::Flush) magnitudes -= (mpz_class(1) << M) - 1;
    const mpz_class nonzero = magnitudes - 1;
    w.finite_values = 1 + (spec.has_sign ? 2 * nonzero : nonzero);

    FormatProperties& p = w.shape;
    p.total_bits = spec.total_bits();
    p.storage_bits = std::max(p.total_bits, spec.storage_bits);
    p.bytes_per_value = p.storage_bits / 8.0;
    p.gb_per_billion = p.bytes_per_value;
    p.exponent_bits = spec.exponent_bits;
    p.mantissa_bits = M;
    p.bias = spec.bias;
    p.max_finite = nearest_double(w.max_finite);
    p.lowest = spec.has_sign ? -p.max_finite : 0.0;
    p.min_normal = nearest_double(w.min_normal);
    p.min_subnormal = nearest_double(w.min_subnormal);
    p.epsilon = nearest_double(w.epsilon);
    p.unit_roundoff = nearest_double(w.unit_roundoff);
    p.decimal_digits = g.precision * std::log10(2.0);
    p.dynamic_range_decades = (log2_magnitude(w.max_finite) - log2_magnitude(w.min_subnormal)) * std::log10(2.0);
    p.finite_values = w.finite_values.fits_ulong_p() ? w.finite_values.get_ui()
                                                     : std::numeric_limits<std::uint64_t>::max();
    p.has_infinity = spec.has_infinity;
    p.has_nan = spec.has_nan();
    p.has_negative_zero = spec.has_negative_zero;
    p.has_subnormals = has_subnormals;
    return w;
}

std::vector<FormatSpec> named_wide_formats() {
    std::vector<FormatSpec> formats;
    for (const std::string& name : known_format_names()) {
        FormatSpec f = parse_format(name);
        if (f.name == name && is_wider_than_binary64(f)) formats.push_back(std::move(f));
    }
    std::sort(formats.begin(), formats.end(),
              [](const FormatSpec& a, const FormatSpec& b) { return a.total_bits() > b.total_bits(); });
    return formats;
}

double log2_magnitude(const WideValue& x) {
    long exponent = 0;  // significand = d 2^exponent, 0.5 <= d < 1
    const double d = mpz_get_d_2exp(&exponent, x.significand.get_mpz_t());
    return std::log2(d) + static_cast<double>(exponent + x.exponent);
}

}  // namespace floatscope::core
