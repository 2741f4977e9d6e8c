// P3109 formats through the wide path (core/wide_format, core/wide_rounding): the 50 formats whose
// values leave binary64 decode every code as the Interim Report's definition (digests written by
// scripts/p3109-wide-digests.py, which first checks its decoder against the working group's K = 4
// and 8 tables), midpoints round as the modes say, and narrow P3109 formats give the wide path the
// same values, classes, neighbours and roundings as the narrow codec and Rounder.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <zlib.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/format_width.hpp"
#include "core/p3109.hpp"
#include "core/rounding.hpp"
#include "core/wide_format.hpp"
#include "core/wide_rounding.hpp"

using namespace floatscope::core;

namespace {

/// One row of tests/data/p3109/wide_digests.tsv.
struct Digest {
    std::string name;
    std::uint64_t codes = 0;
    std::uint32_t crc = 0;
    std::vector<std::string> sample_lines;  ///< codes 1, 2^(K-1) - 2 and 2^K - 2 in full
};

std::vector<Digest> read_digests() {
    std::ifstream in(std::filesystem::path(FLOATSCOPE_TEST_DATA) / "p3109" / "wide_digests.tsv");
    REQUIRE(in);
    std::string line;
    std::getline(in, line);  // header
    std::vector<Digest> digests;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        Digest d;
        std::string codes, crc, sample;
        std::getline(fields, d.name, '\t');
        std::getline(fields, codes, '\t');
        std::getline(fields, crc, '\t');
        while (std::getline(fields, sample, '\t')) d.sample_lines.push_back(sample);
        d.codes = std::stoull(codes);
        d.crc = static_cast<std::uint32_t>(std::stoul(crc, nullptr, 16));
        digests.push_back(d);
    }
    return digests;
}

/// The script's canonical text of a value: nan, inf, -inf, 0, or [-]0x<odd>p<exponent>.
std::string canonical_value(const WideDecoded& d) {
    const WideValue& v = d.value;
    switch (v.kind) {
        case WideValue::Kind::NaN: return "nan";
        case WideValue::Kind::Infinite: return v.negative ? "-inf" : "inf";
        case WideValue::Kind::Zero: return "0";
        case WideValue::Kind::Finite: break;
    }
    const mp_bitcnt_t zeros = mpz_scan1(v.significand.get_mpz_t(), 0);
    const mpz_class odd = v.significand >> zeros;
    return std::string(v.negative ? "-" : "") + "0x" + odd.get_str(16) + "p" +
           std::to_string(v.exponent + static_cast<std::int64_t>(zeros));
}

std::string canonical_line(const FormatSpec& spec, const mpz_class& code) {
    const WideDecoded d = decode_wide_bits(spec, code);
    std::string hex = code.get_str(16);
    for (char& c : hex) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::size_t digits = static_cast<std::size_t>((spec.p3109.bits + 3) / 4);
    return std::string(digits - hex.size(), '0') + hex + ' ' + canonical_value(d) + ' ' + to_string(d.value_class);
}

bool same_exact(const ExactValue& a, const ExactValue& b) {
    return a.kind == b.kind && a.negative == b.negative && a.significand == b.significand &&
           a.exponent == b.exponent && a.sticky == b.sticky;
}

/// (a + b) / 2 exactly, of two finite or zero values of the same sign.
WideValue midpoint(const WideValue& a, const WideValue& b) {
    const bool a_zero = a.kind == WideValue::Kind::Zero;
    const std::int64_t low = a_zero ? b.exponent : std::min(a.exponent, b.exponent);
    mpz_class sum = b.significand << static_cast<mp_bitcnt_t>(b.exponent - low);
    if (!a_zero) sum += a.significand << static_cast<mp_bitcnt_t>(a.exponent - low);
    WideValue m;
    m.kind = WideValue::Kind::Finite;
    m.negative = b.negative;
    m.significand = sum;
    m.exponent = low - 1;
    return m;
}

}  // namespace

TEST_CASE("P3109 formats beyond binary64 decode every code as the report's definition", "[p3109][wide]") {
    const std::vector<Digest> digests = read_digests();
    REQUIRE(digests.size() == 50);  // the report's formats with more than 11 exponent bits
    for (const Digest& digest : digests) {
        INFO("format " << digest.name);
        const FormatSpec spec = parse_format(digest.name);
        CHECK(is_wider_than_binary64(spec));
        CHECK(spec == parse_format(p3109_gfloat_name(spec.p3109)));
        REQUIRE(digest.codes == std::uint64_t{1} << spec.p3109.bits);
        std::uint32_t crc = 0;
        std::vector<std::string> samples;
        const std::uint64_t sample_codes[] = {1, (digest.codes >> 1) - 2, digest.codes - 2};
        for (std::uint64_t code = 0; code < digest.codes; ++code) {
            const std::string line = canonical_line(spec, code) + '\n';
            crc = static_cast<std::uint32_t>(crc32(crc, reinterpret_cast<const Bytef*>(line.data()),
                                                   static_cast<uInt>(line.size())));
            if (std::find(std::begin(sample_codes), std::end(sample_codes), code) != std::end(sample_codes))
                samples.push_back(line.substr(0, line.size() - 1));
        }
        CHECK(samples == digest.sample_lines);
        CHECK(crc == digest.crc);
    }
}

TEST_CASE("P3109 formats beyond binary64: every value encodes back, midpoints round as the modes say",
          "[p3109][wide]") {
    std::size_t midpoints = 0;
    for (const Digest& digest : read_digests()) {
        INFO("format " << digest.name);
        const FormatSpec spec = parse_format(digest.name);
        const WideGeometry g = wide_geometry(spec);
        const WideRounder nearest(spec, {}), away(spec, {RoundingMode::NearestAway}),
            toward_zero(spec, {RoundingMode::TowardZero}), upward(spec, {RoundingMode::Upward});
        const mpz_class sign_bit = spec.has_sign ? mpz_class(1) << (spec.p3109.bits - 1) : mpz_class(0);
        for (bool negative : {false, true}) {
            if (negative && !spec.has_sign) continue;
            const mpz_class sign = negative ? sign_bit : mpz_class(0);
            // Every magnitude of the smallest binades, then a stride through the rest to max finite.
            const std::uint64_t top = mpz_get_ui(g.max_finite_magnitude.get_mpz_t());
            const std::uint64_t stride = top > 4096 ? 97 : 1;
            for (std::uint64_t magnitude = 0; magnitude < top; magnitude += magnitude < 2048 ? 1 : stride) {
                const mpz_class lower = magnitude == 0 ? mpz_class(0) : mpz_class(sign + magnitude);
                const mpz_class upper = sign + magnitude + 1;
                const WideValue a = decode_wide_bits(spec, lower).value, b = decode_wide_bits(spec, upper).value;
                const WideRounded back = nearest(b);
                REQUIRE(back.bits == upper);
                REQUIRE(back.flags.bits == 0);
                const WideValue m = midpoint(a, b);
                const mpz_class& even = magnitude % 2 == 0 ? lower : upper;
                INFO("between " << lower.get_str(16) << " and " << upper.get_str(16));
                REQUIRE(nearest(m).bits == even);
                REQUIRE(away(m).bits == upper);
                REQUIRE(toward_zero(m).bits == lower);
                REQUIRE(upward(m).bits == (negative ? lower : upper));
                REQUIRE(nearest(m).flags.has(ExceptionFlags::inexact));
                ++midpoints;
            }
        }
    }
    CHECK(midpoints > 150000);
}

TEST_CASE("narrow P3109 formats: the wide path decodes, steps and rounds as the narrow codec and Rounder",
          "[p3109][wide]") {
    std::mt19937_64 random(3109);
    std::size_t compared = 0;
    for (int K = 3; K <= 12; ++K)
        for (bool is_signed : {true, false})
            for (int P = 1; P <= (is_signed ? K - 1 : K); ++P)
                for (bool extended : {true, false}) {
                    const P3109Parameters p{K, P, is_signed, extended};
                    const int exponent_bits = is_signed ? K - P : K - P + 1;
                    if (exponent_bits > 11) continue;  // wide: the cases above
                    if (K > 9 && exponent_bits != 11) continue;  // beyond K = 9, binary64's edge alone
                    for (const char* saturation : {"", ":satfinite", ":sat"}) {
                        const FormatSpec spec = parse_format(p3109_name(p) + saturation);
                        INFO("format " << spec.name);
                        REQUIRE_FALSE(is_wider_than_binary64(spec));
                        for (RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::NearestAway,
                                                  RoundingMode::TowardZero, RoundingMode::Upward,
                                                  RoundingMode::Downward, RoundingMode::ToOdd}) {
                            const Rounder narrow(spec, {mode});
                            const WideRounder wide(spec, {mode});
                            for (std::uint64_t code = 0; code < (std::uint64_t{1} << K); ++code) {
                                const Decoded d = decode_bits(spec, code);
                                const WideDecoded w = decode_wide_bits(spec, code);
                                if (mode == RoundingMode::NearestEven) {
                                    REQUIRE(to_string(w.value_class) == std::string(to_string(d.value_class)));
                                    REQUIRE(same_exact(w.value.to_exact(), d.exact()));
                                    REQUIRE(wide_next_up(spec, code) == next_up(spec, code));
                                    REQUIRE(wide_next_down(spec, code) == next_down(spec, code));
                                    REQUIRE(format_wide_bits_fields(spec, code) == format_bits_fields(spec, code));
                                }
                                // The value of the code scaled by a random factor near 1, beyond the
                                // range or into the subnormals: both rounders from the same exact value.
                                ExactValue x = d.exact();
                                if (x.kind == ExactValue::Kind::Finite) {
                                    x.significand |= random() >> 40;
                                    x.exponent += static_cast<std::int64_t>(random() % 9) - 4;
                                    x.sticky = random() % 2 == 0;
                                }
                                const Rounded want = narrow(x);
                                const WideRounded got = wide(WideValue::from_exact(x));
                                if (got.bits == want.bits && got.flags == want.flags) {
                                    ++compared;
                                    continue;
                                }
                                INFO(to_string(mode) << " code " << code);
                                REQUIRE(format_wide_bits_hex(spec, got.bits) == format_bits_hex(spec, want.bits));
                                REQUIRE(flags_hex(got.flags) == flags_hex(want.flags));
                                ++compared;
                            }
                        }
                    }
                }
    CHECK(compared > 500000);
}
