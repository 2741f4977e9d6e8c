// Test-only reference rounding and codec from the definitions, through MPFR (see mpfr_reference.hpp).
#include "mpfr_reference.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "mpfr_reference_support.hpp"
#include "tapered_reference.hpp"

namespace floatscope::test {

using core::FormatKind;
using core::FormatSpec;
using core::NanEncoding;
using core::RoundingMode;

using namespace ref_detail;

namespace {

struct SpecKey {
    std::tuple<int, int, int, int, int, bool, bool, bool, int, int> fields;
    std::vector<double> codes;
    bool operator<(const SpecKey& o) const { return std::tie(fields, codes) < std::tie(o.fields, o.codes); }
};

SpecKey key_of(const FormatSpec& spec) {
    return {{static_cast<int>(spec.kind), spec.exponent_bits, spec.mantissa_bits, spec.bias,
             static_cast<int>(spec.nan_encoding) * 2 + (spec.subnormals == core::SubnormalPolicy::Flush ? 1 : 0),
             spec.has_sign, spec.has_negative_zero, spec.has_infinity, spec.integer_bits, spec.tapered_bits},
            spec.code_values};
}

}  // namespace

std::string hex_double(double x) {
    char text[64];
    std::snprintf(text, sizeof text, "%a", x);
    return text;
}

bool ref_is_nan_pattern(const FormatSpec& spec, std::uint64_t bits) {
    switch (spec.kind) {
        case FormatKind::Binary: return binary_is_nan(spec, bits);
        case FormatKind::ExponentScale:
            return spec.nan_encoding != NanEncoding::None && bits == mask(spec.exponent_bits);
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_ref_is_nan(spec, bits);
        default: return false;
    }
}

double ref_decode(const FormatSpec& spec, std::uint64_t bits) {
    switch (spec.kind) {
        case FormatKind::Binary: return binary_decode(spec, bits);
        case FormatKind::ExponentScale:
            if (ref_is_nan_pattern(spec, bits)) return quiet_nan;
            return std::ldexp(1.0, static_cast<int>(bits) - spec.bias);
        case FormatKind::Integer: {
            const int n = spec.integer_bits;
            const bool negative = spec.has_sign && ((bits >> (n - 1)) & 1) != 0;
            // Two's complement: the top bit weighs -2^(n-1).
            return negative ? static_cast<double>(bits) - std::ldexp(1.0, n) : static_cast<double>(bits);
        }
        case FormatKind::Lookup: return spec.code_values.at(bits);
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_ref_decode(spec, bits);
    }
    return quiet_nan;
}

std::uint64_t ref_encode(const FormatSpec& spec, double value) {
    if (std::isnan(value)) broken("ref_encode of NaN");
    switch (spec.kind) {
        case FormatKind::Binary: return binary_encode(spec, value);
        case FormatKind::ExponentScale: {
            const int e = std::ilogb(value);
            if (value <= 0 || std::ldexp(1.0, e) != value) broken("not a scale: " + hex_double(value));
            return static_cast<std::uint64_t>(e + spec.bias);
        }
        case FormatKind::Integer: {
            if (value != std::floor(value)) broken("not an integer");
            const auto as_int = static_cast<std::int64_t>(value);
            return static_cast<std::uint64_t>(as_int) & mask(spec.integer_bits);
        }
        case FormatKind::Lookup:
            for (std::size_t i = 0; i < spec.code_values.size(); ++i)
                if (spec.code_values[i] == value) return i;
            broken("not a code: " + hex_double(value));
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_ref_encode(spec, value);
    }
    return 0;
}

double ref_max_finite(const FormatSpec& spec) {
    static std::map<SpecKey, double> cache;
    const SpecKey key = key_of(spec);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    double result = 0;
    switch (spec.kind) {
        case FormatKind::Binary: result = binary_max_finite(spec); break;
        case FormatKind::ExponentScale: result = exponent_scale_max(spec); break;
        case FormatKind::Integer:
            result =
                spec.has_sign ? std::ldexp(1.0, spec.integer_bits - 1) - 1 : std::ldexp(1.0, spec.integer_bits) - 1;
            break;
        case FormatKind::Lookup: result = *std::max_element(spec.code_values.begin(), spec.code_values.end()); break;
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: result = tapered_ref_max(spec); break;
    }
    cache.emplace(key, result);
    return result;
}

std::vector<double> ref_sorted_values(const FormatSpec& spec) {
    const int n = spec.total_bits();
    if (n > 20) broken("too many patterns to enumerate");
    std::vector<double> values;
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << n); ++bits) {
        const double v = ref_decode(spec, bits);
        if (!std::isnan(v)) values.push_back(v == 0 ? 0.0 : v);
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

RefResult ref_round(const FormatSpec& spec, mpfr_srcptr x, RoundingMode mode, core::Tininess tininess) {
    switch (spec.kind) {
        case FormatKind::Binary: return binary_round(spec, x, mode, tininess);
        case FormatKind::ExponentScale: return exponent_scale_round(spec, x, mode, tininess);
        case FormatKind::Integer: return integer_round(spec, x, mode);
        case FormatKind::Lookup: return lookup_round(spec, x, mode);
        case FormatKind::Posit:
        case FormatKind::Takum:
        case FormatKind::HiFloat8: return tapered_ref_round(spec, x, mode, tininess);
    }
    broken("unknown kind");
}

RefResult ref_round(const FormatSpec& spec, double x, RoundingMode mode, core::Tininess tininess) {
    RefNumber value(53);
    if (std::isnan(x)) {
        mpfr_set_nan(value.get());
        RefResult r = ref_round(spec, value.get(), mode, tininess);
        // A signaling NaN (quiet bit clear) raises invalid wherever it goes.
        const bool signaling = ((std::bit_cast<std::uint64_t>(x) >> 51) & 1) == 0;
        if (signaling) r.flags |= ref_flags::invalid;
        return r;
    }
    mpfr_set_d(value.get(), x, MPFR_RNDN);
    return ref_round(spec, value.get(), mode, tininess);
}

}  // namespace floatscope::test
