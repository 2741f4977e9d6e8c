// Fuzz target: number text (core::parse_exact_value, parse_value_to_mpfr) rounded by core::Rounder.
// Input: a format selector, a mode selector, then the text. With the mode byte's top bit set the
// text "A|B|C" stands for A, B repeated to 10^5 characters, C: very long decimals from small seeds.
// Properties: the 64-bit+sticky value agrees with MPFR reading the same text at 64 bits; fp64
// rounding agrees with MPFR's own correctly rounded reading; a rounded value is representable,
// so printing it as a hex float and parsing and rounding it again gives it back exactly.
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include <fmt/format.h>
#include <mpfr.h>

#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/exact_value.hpp"
#include "core/mpfr_number.hpp"
#include "core/rounding.hpp"
#include "fuzz_support.hpp"

namespace {

using namespace floatscope;

std::string expand(const std::string& text) {
    const std::size_t first = text.find('|');
    const std::size_t second = first == std::string::npos ? first : text.find('|', first + 1);
    if (second == std::string::npos || second == first + 1) return text;
    const std::string repeated = text.substr(first + 1, second - first - 1);
    std::string expanded = text.substr(0, first);
    while (expanded.size() < 100000) expanded += repeated;
    return expanded + text.substr(second + 1);
}

/// The 64 leading bits of `x` (truncated, sticky below) and MPFR's nearest 64-bit reading of the
/// same text differ by at most one unit in the last place, and not at all when nothing was cut.
void check_against_mpfr_64(const std::string& text, const core::ExactValue& x) {
    if (x.kind != core::ExactValue::Kind::Finite || x.exponent > 1000000 || x.exponent < -1000000) return;
    core::MpfrNumber nearest(64), truncated(64);
    core::parse_value_to_mpfr(text, nearest.get());
    // The 64 kept bits alone (to_mpfr would append the sticky bit and round).
    mpfr_set_uj_2exp(truncated.get(), x.significand, static_cast<mpfr_exp_t>(x.exponent - 63), MPFR_RNDN);
    if (x.negative) mpfr_neg(truncated.get(), truncated.get(), MPFR_RNDN);
    if (mpfr_equal_p(nearest.get(), truncated.get())) return;
    if (x.sticky) {
        if (x.negative)
            mpfr_nextbelow(truncated.get());
        else
            mpfr_nextabove(truncated.get());
        if (mpfr_equal_p(nearest.get(), truncated.get())) return;
    }
    fuzz::property_failed("64-bit reading agrees with MPFR", text.substr(0, 200));
}

/// fp64 under round-to-nearest-even agrees with MPFR reading the text itself, rounded once to 53
/// bits in double's exponent range with gradual underflow (mpfr_subnormalize), as MPFR documents.
void check_fp64_against_mpfr(const std::string& text, const core::ExactValue& x) {
    if (x.kind == core::ExactValue::Kind::NaN) return;
    const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-1073);  // MPFR's exponents are one above IEEE's: 2^-1074 = 0.5 * 2^-1073
    mpfr_set_emax(1024);
    core::MpfrNumber reference(53);
    char* end = nullptr;
    const int ternary = mpfr_strtofr(reference.get(), text.c_str(), &end, 0, MPFR_RNDN);
    mpfr_subnormalize(reference.get(), ternary, MPFR_RNDN);
    const double expected = mpfr_get_d(reference.get(), MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    // Only texts MPFR reads whole are compared (it reads "0b1" and "@inf@", we do not; we read "snan").
    for (; *end != '\0'; ++end)
        if (!std::isspace(static_cast<unsigned char>(*end))) return;
    static const core::FormatSpec fp64 = core::parse_format("fp64");
    const double actual = core::round_to_format(fp64, x).value;
    if (!(actual == expected && std::signbit(actual) == std::signbit(expected)))
        fuzz::property_failed("fp64 rounding agrees with MPFR",
                              fmt::format("{} -> {:a}, MPFR {:a}", text.substr(0, 200), actual, expected));
}

/// A rounded value is a value of the format: its bits decode to it, and its hex-float spelling
/// parses and rounds back to the same bits with no flag raised.
void check_round_trip(const core::FormatSpec& f, const core::Rounded& r) {
    const core::Decoded d = core::decode_bits(f, r.bits);
    if (d.value_class == core::ValueClass::NaN) {
        if (!std::isnan(r.value)) fuzz::property_failed("a NaN pattern carries a NaN value", f.name);
        return;
    }
    if (!(d.value == r.value && std::signbit(d.value) == std::signbit(r.value)))
        fuzz::property_failed("the rounded bits decode to the rounded value",
                              fmt::format("{} {:X}: {:a} vs {:a}", f.name, r.bits, d.value, r.value));
    const std::string spelling = std::isinf(r.value) ? (r.value < 0 ? "-inf" : "inf") : fmt::format("{:a}", r.value);
    const core::Rounded again = core::round_to_format(f, core::parse_exact_value(spelling));
    if (again.bits != r.bits || again.flags.bits != 0)
        fuzz::property_failed("decode(encode(x)) == x", fmt::format("{} {} -> {:X} flags {:X}, was {:X}", f.name,
                                                                    spelling, again.bits, again.flags.bits, r.bits));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::FuzzInput input(data, size);
    const core::FormatSpec& format = fuzz::pick_format(input.byte());
    const std::uint8_t mode_byte = input.byte();
    const std::string text = (mode_byte & 0x80) ? expand(input.rest()) : input.rest();
    core::ExactValue x;
    try {
        x = core::parse_exact_value(text);
    } catch (const Error&) {
        // Both readers share one grammar: what one refuses, the other must refuse too.
        core::MpfrNumber unused(64);
        try {
            core::parse_value_to_mpfr(text, unused.get());
        } catch (const Error&) {
            return 0;
        }
        fuzz::property_failed("parse_value_to_mpfr refuses what parse_exact_value refuses", text.substr(0, 200));
    }
    check_against_mpfr_64(text, x);
    check_fp64_against_mpfr(text, x);
    static core::StochasticSource random;
    const core::RoundingOptions options{
        core::all_rounding_modes[mode_byte % core::all_rounding_modes.size()],
        (mode_byte & 0x40) ? core::Tininess::BeforeRounding : core::Tininess::AfterRounding, &random};
    check_round_trip(format, core::Rounder(format, options)(x));
    return 0;
}
