// Reference decoding and rounding of tapered formats, independent of core's: string-level reads of
// the definitions (Posit Standard 2022; Hunhold 2024; Luo et al. 2024) and MPFR comparisons.
#include "tapered_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace floatscope::test {

using core::FormatKind;
using core::FormatSpec;
using core::RoundingMode;

namespace {

constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();

/// |x| as the double d below it and whether it is d exactly: every code value and midpoint of these
/// formats is a double, and none lies strictly between d and the next double, so comparing |x| with
/// one needs no MPFR call (the exhaustive arithmetic tests compare millions of times).
struct Magnitude {
    double below = 0;
    bool exact = true;

    explicit Magnitude(mpfr_srcptr x) {
        RefNumber a(mpfr_get_prec(x));
        mpfr_abs(a.get(), x, MPFR_RNDN);
        below = mpfr_get_d(a.get(), MPFR_RNDZ);
        exact = mpfr_cmp_d(a.get(), below) == 0;
    }
    /// -1, 0, +1 as |x| is below, at or above the double v.
    int compare(double v) const {
        if (v > below) return -1;
        if (v < below || !exact) return 1;
        return 0;
    }
};

/// The code's bits as text, most significant first.
std::string bit_text(std::uint64_t bits, int width) {
    std::string text;
    for (int i = width - 1; i >= 0; --i) text += ((bits >> i) & 1) != 0 ? '1' : '0';
    return text;
}

/// Unsigned integer value of a run of binary digits ("" is 0).
long digits_value(const std::string& digits) {
    long v = 0;
    for (char c : digits) v = 2 * v + (c == '1');
    return v;
}

/// A positive posit's body (the n - 1 bits after the sign): regime run, es bits (missing ones are 0), fraction.
double posit_positive(const std::string& body, int es) {
    const char first = body[0];
    std::size_t run = 0;
    while (run < body.size() && body[run] == first) ++run;
    const long k = first == '1' ? static_cast<long>(run) - 1 : -static_cast<long>(run);
    std::string rest = run + 1 <= body.size() ? body.substr(run + 1) : "";
    std::string exponent = rest.substr(0, std::min<std::size_t>(es, rest.size()));
    while (static_cast<int>(exponent.size()) < es) exponent += '0';
    const std::string fraction = rest.size() > static_cast<std::size_t>(es) ? rest.substr(es) : "";
    RefNumber v(128);
    mpfr_set_si(v.get(), digits_value(fraction), MPFR_RNDN);
    mpfr_div_2si(v.get(), v.get(), static_cast<long>(fraction.size()), MPFR_RNDN);
    mpfr_add_ui(v.get(), v.get(), 1, MPFR_RNDN);
    mpfr_mul_2si(v.get(), v.get(), k * (1L << es) + digits_value(exponent), MPFR_RNDN);
    return mpfr_get_d(v.get(), MPFR_RNDN);
}

/// A positive linear takum's body, padded with zeros to 11 bits: D, R, C (r bits), M.
double takum_positive(std::string body) {
    while (body.size() < 11) body += '0';
    const bool d = body[0] == '1';
    const long regime = digits_value(body.substr(1, 3));
    const long r = d ? regime : 7 - regime;
    const long field = digits_value(body.substr(4, r));
    const std::string mantissa = body.substr(4 + r);
    const long c = d ? (1L << r) - 1 + field : -(1L << (r + 1)) + 1 + field;
    RefNumber v(128);
    mpfr_set_si(v.get(), digits_value(mantissa), MPFR_RNDN);
    mpfr_div_2si(v.get(), v.get(), static_cast<long>(mantissa.size()), MPFR_RNDN);
    mpfr_add_ui(v.get(), v.get(), 1, MPFR_RNDN);
    mpfr_mul_2si(v.get(), v.get(), c, MPFR_RNDN);
    return mpfr_get_d(v.get(), MPFR_RNDN);
}

/// HiF8 from the paper's table: dot codes 11 10 01 001 0001 (D = 4..0) and 0000 (denormal).
double hifloat8_value(std::uint64_t bits) {
    const std::string text = bit_text(bits, 8);
    const double sign = text[0] == '1' ? -1.0 : 1.0;
    const std::string m = text.substr(1);
    if (m == "1101111") return sign * std::numeric_limits<double>::infinity();
    if (m.substr(0, 4) == "0000") {
        const long code = digits_value(m.substr(4));
        if (code == 0) return text[0] == '1' ? nan_value : 0.0;
        return sign * std::ldexp(1.0, static_cast<int>(code) - 23);
    }
    const struct {
        const char* dot;
        int width;
    } dots[] = {{"11", 4}, {"10", 3}, {"01", 2}, {"001", 1}, {"0001", 0}};
    for (const auto& dot : dots) {
        const std::string prefix = dot.dot;
        if (m.substr(0, prefix.size()) != prefix) continue;
        const std::string exponent = m.substr(prefix.size(), dot.width);
        const std::string mantissa = m.substr(prefix.size() + dot.width);
        long e = 0;
        if (dot.width > 0) {
            // Sign-magnitude with the leading magnitude bit implicit: |E| = 1 followed by the stored bits.
            std::string size = exponent;
            size[0] = '1';  // the sign bit's place holds the implicit 1
            e = digits_value(size);
            if (exponent[0] == '1') e = -e;
        }
        const double significand =
            1.0 + std::ldexp(static_cast<double>(digits_value(mantissa)), -static_cast<int>(mantissa.size()));
        return sign * std::ldexp(significand, static_cast<int>(e));
    }
    throw std::logic_error("tapered_reference: no dot code matched");
}

bool two_complement_kind(const FormatSpec& spec) { return spec.kind != FormatKind::HiFloat8; }

int width_of(const FormatSpec& spec) { return spec.tapered_bits; }

/// Largest positive code whose value is <= a (a >= 0), by bisection over the ordered codes.
std::uint64_t code_at_or_below(const FormatSpec& spec, const Magnitude& a) {
    std::uint64_t lo = 0, hi = (std::uint64_t{1} << (width_of(spec) - 1)) - 1;
    if (a.compare(tapered_ref_decode(spec, hi)) >= 0) return hi;
    while (hi - lo > 1) {
        const std::uint64_t middle = lo + (hi - lo) / 2;
        (a.compare(tapered_ref_decode(spec, middle)) >= 0 ? lo : hi) = middle;
    }
    return lo;
}

bool nearest_mode(RoundingMode mode) { return mode == RoundingMode::NearestEven || mode == RoundingMode::NearestAway; }

/// Picks between the neighbour codes below (lo) and above (hi), given the side of the midpoint.
bool take_above(RoundingMode mode, bool negative, int side_of_midpoint, bool lo_odd) {
    switch (mode) {
        case RoundingMode::NearestEven: return side_of_midpoint > 0 || (side_of_midpoint == 0 && lo_odd);
        case RoundingMode::NearestAway: return side_of_midpoint >= 0;
        case RoundingMode::TowardZero: return false;
        case RoundingMode::Upward: return !negative;
        case RoundingMode::Downward: return negative;
        case RoundingMode::ToOdd: return !lo_odd;
        default: throw std::logic_error("tapered_reference: stochastic modes are not referenced");
    }
}

RefResult posit_or_takum_round(const FormatSpec& spec, mpfr_srcptr x, RoundingMode mode) {
    const int n = width_of(spec);
    const std::uint64_t max_code = (std::uint64_t{1} << (n - 1)) - 1;
    if (mpfr_nan_p(x)) return {true, nan_value, 0};
    if (mpfr_inf_p(x)) return {true, nan_value, ref_flags::invalid};
    if (mpfr_zero_p(x)) return {false, 0.0, 0};
    const bool negative = mpfr_sgn(x) < 0;
    const Magnitude a(x);
    const std::uint64_t lo = code_at_or_below(spec, a);
    const double lo_value = tapered_ref_decode(spec, lo);
    auto signed_value = [&](std::uint64_t code) {
        const double v = tapered_ref_decode(spec, code);
        return negative ? -v : v;
    };
    if (a.compare(lo_value) == 0) return {false, signed_value(lo), 0};
    std::uint8_t flags = ref_flags::inexact;
    if (lo == max_code) return {false, signed_value(max_code), static_cast<std::uint8_t>(flags | ref_flags::overflow)};
    if (lo == 0) flags |= ref_flags::underflow;
    // The bit-string midpoint between c and c + 1 is the (n+1)-bit code 2c + 1.
    const double midpoint = tapered_ref_decode_width(spec, n + 1, 2 * lo + 1);
    const int side = a.compare(midpoint);
    std::uint64_t code = take_above(mode, negative, side, (lo & 1) != 0) ? lo + 1 : lo;
    if (code == 0 && nearest_mode(mode)) code = 1;  // never to zero
    return {false, code == 0 ? 0.0 : signed_value(code), flags};
}

RefResult hifloat8_round(mpfr_srcptr x, RoundingMode mode, core::Tininess tininess) {
    constexpr double infinity = std::numeric_limits<double>::infinity();
    if (mpfr_nan_p(x)) return {true, nan_value, 0};
    const bool negative = mpfr_sgn(x) < 0;
    if (mpfr_inf_p(x)) return {false, negative ? -infinity : infinity, 0};
    if (mpfr_zero_p(x)) return {false, 0.0, 0};
    // Ascending positive values with their code parity; 49152 (the code of +inf, odd) continues
    // the top binade's grid, so that overflow is decided as with an unbounded exponent.
    static const std::vector<std::pair<double, bool>> grid = [] {
        std::vector<std::pair<double, bool>> g = {{0.0, false}};
        for (std::uint64_t code = 1; code < 0x80; ++code) {
            const double v = hifloat8_value(code);
            g.push_back({std::isinf(v) ? 49152.0 : v, (code & 1) != 0});
        }
        std::sort(g.begin(), g.end());
        return g;
    }();
    const Magnitude a(x);
    auto overflowed = [&](bool to_infinity) {
        const double v = to_infinity ? infinity : 32768.0;
        return RefResult{false, negative ? -v : v, static_cast<std::uint8_t>(ref_flags::overflow | ref_flags::inexact)};
    };
    const bool heads_to_infinity = mode == RoundingMode::NearestEven || mode == RoundingMode::NearestAway ||
                                   (mode == RoundingMode::Upward && !negative) ||
                                   (mode == RoundingMode::Downward && negative);
    if (a.compare(49152.0) >= 0) return overflowed(heads_to_infinity);
    // The last grid value <= |x|: bisection (grid[0] = 0 <= |x| < 49152 = the last).
    std::size_t i = 0, j = grid.size() - 1;
    while (j - i > 1) {
        const std::size_t middle = (i + j) / 2;
        (a.compare(grid[middle].first) >= 0 ? i : j) = middle;
    }
    double result = grid[i].first;
    std::uint8_t flags = 0;
    if (a.compare(result) != 0) {
        flags = ref_flags::inexact;
        const double midpoint = 0.5 * (grid[i].first + grid[i + 1].first);  // exact: both have few bits
        const int side = a.compare(midpoint);
        if (take_above(mode, negative, side, grid[i].second)) result = grid[i + 1].first;
        if (result > 32768) return overflowed(heads_to_infinity);
        const bool tiny = tininess == core::Tininess::BeforeRounding ? a.compare(0x1p-15) < 0 : result < 0x1p-15;
        if (tiny) flags |= ref_flags::underflow;
    }
    if (result == 0) return {false, 0.0, flags};
    return {false, negative ? -result : result, flags};
}

}  // namespace

namespace {

double decode_by_definition(const FormatSpec& spec, int width, std::uint64_t bits) {
    const std::uint64_t sign = std::uint64_t{1} << (width - 1);
    if (bits == 0) return 0.0;
    if (bits == sign) return nan_value;
    const bool negative = (bits & sign) != 0;
    const std::uint64_t positive = negative ? (sign << 1) - bits : bits;  // two's complement negation
    const std::string body = bit_text(positive, width - 1);
    const double v = spec.kind == FormatKind::Posit ? posit_positive(body, spec.exponent_bits) : takum_positive(body);
    return negative ? -v : v;
}

}  // namespace

double tapered_ref_decode_width(const FormatSpec& spec, int width, std::uint64_t bits) {
    // Up to 17 bits (the midpoints of 16-bit formats), every code read once and kept: the exhaustive
    // arithmetic tests ask for the same values millions of times.
    if (width > 17) return decode_by_definition(spec, width, bits);
    static std::map<std::tuple<int, int, int>, std::vector<double>> tables;
    const std::tuple<int, int, int> key{static_cast<int>(spec.kind), spec.exponent_bits, width};
    thread_local std::tuple<int, int, int> last_key{-1, -1, -1};
    thread_local std::vector<double>* last = nullptr;
    if (last != nullptr && key == last_key) return (*last)[bits];
    std::vector<double>& table = tables[key];
    last_key = key;
    last = &table;
    if (table.empty())
        for (std::uint64_t code = 0; code < (std::uint64_t{1} << width); ++code)
            table.push_back(decode_by_definition(spec, width, code));
    return table[bits];
}

double tapered_ref_decode(const FormatSpec& spec, std::uint64_t bits) {
    if (!two_complement_kind(spec)) {
        static const std::vector<double> table = [] {
            std::vector<double> t;
            for (std::uint64_t code = 0; code < 256; ++code) t.push_back(hifloat8_value(code));
            return t;
        }();
        return table.at(bits);
    }
    return tapered_ref_decode_width(spec, width_of(spec), bits);
}

bool tapered_ref_is_nan(const FormatSpec& spec, std::uint64_t bits) {
    return std::isnan(tapered_ref_decode(spec, bits));
}

std::uint64_t tapered_ref_encode(const FormatSpec& spec, double value) {
    const int n = width_of(spec);
    if (!two_complement_kind(spec)) {
        for (std::uint64_t code = 0; code < 256; ++code)
            if (tapered_ref_decode(spec, code) == value) return code;
        throw std::logic_error("tapered_reference: not a HiF8 value");
    }
    RefNumber a(64);
    mpfr_set_d(a.get(), std::fabs(value), MPFR_RNDN);
    const std::uint64_t code = code_at_or_below(spec, Magnitude(a.get()));
    if (tapered_ref_decode(spec, code) != std::fabs(value)) throw std::logic_error("tapered_reference: not a value");
    return value < 0 ? (std::uint64_t{1} << n) - code : code;
}

double tapered_ref_max(const FormatSpec& spec) {
    if (!two_complement_kind(spec)) return 32768.0;
    return tapered_ref_decode(spec, (std::uint64_t{1} << (width_of(spec) - 1)) - 1);
}

RefResult tapered_ref_round(const FormatSpec& spec, mpfr_srcptr x, RoundingMode mode, core::Tininess tininess) {
    if (!two_complement_kind(spec)) return hifloat8_round(x, mode, tininess);
    return posit_or_takum_round(spec, x, mode);
}

}  // namespace floatscope::test
