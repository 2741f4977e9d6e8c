// Decimal text (core/decimal.hpp): exact digits against GMP integer arithmetic, shortest digits against the MPFR
// reference.
#include <catch2/catch.hpp>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include <fmt/format.h>
#include <gmp.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/decimal.hpp"
#include "mpfr_reference.hpp"
#include "tests/sweep_size.hpp"

using namespace floatscope;
using namespace floatscope::core;
using namespace floatscope::test;

namespace {

std::string mpz_text(const mpz_t n) {
    std::string text(mpz_sizeinbase(n, 10) + 2, '\0');
    mpz_get_str(text.data(), 10, n);
    text.resize(std::strlen(text.c_str()));
    return text;
}

/// Every digit of a finite nonzero double, written from its integer significand with GMP:
/// |x| = m 2^e = m 5^-e / 10^-e. Laid out as documented: plain positional notation unless the
/// decimal exponent is below -4 or above 20, then d.ddd e[+-]XX with at least two exponent digits.
std::string gmp_exact_decimal(double x) {
    int e = 0;
    const double f = std::frexp(std::fabs(x), &e);
    mpz_t n;
    mpz_init_set_ui(n, static_cast<unsigned long>(std::ldexp(f, 53)));
    e -= 53;
    long scale = 0;  // |x| = n / 10^scale
    if (e >= 0) {
        mpz_mul_2exp(n, n, static_cast<mp_bitcnt_t>(e));
    } else {
        mpz_t five;
        mpz_init(five);
        mpz_ui_pow_ui(five, 5, static_cast<unsigned long>(-e));
        mpz_mul(n, n, five);
        mpz_clear(five);
        scale = -e;
    }
    std::string digits = mpz_text(n);
    mpz_clear(n);
    long exponent = static_cast<long>(digits.size()) - 1 - scale;  // of the leading digit
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    std::string body;
    if (exponent < -4 || exponent > 20) {
        body = digits.substr(0, 1);
        if (digits.size() > 1) body.append(".").append(digits, 1, std::string::npos);
        body += fmt::format("e{}{:02d}", exponent < 0 ? '-' : '+', std::labs(exponent));
    } else if (exponent < 0) {
        body = std::string("0.").append(static_cast<std::size_t>(-exponent - 1), '0').append(digits);
    } else if (static_cast<long>(digits.size()) <= exponent + 1) {
        body = digits + std::string(static_cast<std::size_t>(exponent + 1) - digits.size(), '0');
    } else {
        body = digits.substr(0, static_cast<std::size_t>(exponent + 1));
        body.append(".").append(digits, static_cast<std::size_t>(exponent + 1), std::string::npos);
    }
    return std::string(std::signbit(x) ? "-" : "").append(body);
}

/// The format value a decimal string rounds to (nearest-even), by the MPFR reference.
/// The value a decimal reads back as; NaN when reading it overflows, since a decimal beyond max
/// that saturates back to max is not a spelling of max.
double reference_read(const FormatSpec& spec, const std::string& text) {
    RefNumber v(4096);
    mpfr_strtofr(v.get(), text.c_str(), nullptr, 10, MPFR_RNDN);
    const floatscope::test::RefResult r = ref_round(spec, v.get(), RoundingMode::NearestEven);
    return (r.flags & floatscope::test::ref_flags::overflow) != 0 ? std::nan("") : r.value;
}

/// Significant digits of a decimal string (leading and trailing zeros and the exponent excluded).
std::size_t significant_digits(const std::string& text) {
    std::string digits;
    for (char c : text) {
        if (c == 'e') break;
        if (c >= '0' && c <= '9') digits += c;
    }
    const std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) return 0;
    return digits.find_last_not_of('0') - first + 1;
}

/// The decimals of `count` significant digits just below and above |value|.
std::pair<std::string, std::string> neighbours_with_digits(double value, std::size_t count) {
    RefNumber v(64);
    mpfr_set_d(v.get(), value, MPFR_RNDN);
    std::string out[2];
    int i = 0;
    for (mpfr_rnd_t rnd : {MPFR_RNDD, MPFR_RNDU}) {
        mpfr_exp_t exponent = 0;
        char* raw = mpfr_get_str(nullptr, &exponent, 10, count, v.get(), rnd);
        std::string digits(raw);
        mpfr_free_str(raw);
        std::string sign;
        if (digits[0] == '-') {
            sign = "-";
            digits.erase(0, 1);
        }
        out[i++] = sign.append("0.").append(digits).append("e").append(std::to_string(exponent));
    }
    return {out[0], out[1]};
}

}  // namespace

TEST_CASE("exact_decimal prints every digit: published values", "[decimal][published]") {
    CHECK(exact_decimal(65504) == "65504");
    CHECK(exact_decimal(0.1) == "0.1000000000000000055511151231257827021181583404541015625");
    CHECK(exact_decimal(std::ldexp(1.0, -24)) == "5.9604644775390625e-08");
    CHECK(exact_decimal(6.103515625e-05) == "6.103515625e-05");
    CHECK(exact_decimal(448) == "448");
    CHECK(exact_decimal(-0.5) == "-0.5");
    CHECK(exact_decimal(1e20) == "100000000000000000000");
    CHECK(exact_decimal(1e21) == "1e+21");
    CHECK(exact_decimal(0.0001) == "0.000100000000000000004792173602385929598312941379845142364501953125");
    CHECK(exact_decimal(static_cast<double>(0.1f)) == "0.100000001490116119384765625");
    CHECK(exact_decimal(100139008) == "100139008");
    CHECK(exact_decimal(0.0) == "0");
    CHECK(exact_decimal(-0.0) == "-0");
    CHECK(exact_decimal(std::numeric_limits<double>::infinity()) == "inf");
    CHECK(exact_decimal(-std::numeric_limits<double>::infinity()) == "-inf");
    CHECK(exact_decimal(std::numeric_limits<double>::quiet_NaN()) == "nan");
}

TEST_CASE("exact_decimal equals the digits of m 5^k, and reads back exactly", "[decimal]") {
    std::mt19937_64 rng(10);
    std::vector<double> inputs = {std::numeric_limits<double>::denorm_min(),
                                  std::numeric_limits<double>::max(),
                                  std::numeric_limits<double>::min(),
                                  1e-5,
                                  1e-4,
                                  9.999e-5,
                                  123456789012345678901.0,
                                  99999999999999999999.0,
                                  1.5,
                                  3.0517578125e-05};
    for (int i = 0; i < 3000; ++i) {
        double x = 0;
        do x = std::bit_cast<double>(rng());
        while (!std::isfinite(x) || x == 0);
        inputs.push_back(x);
        inputs.push_back(std::ldexp(static_cast<double>(rng() % 100000), static_cast<int>(rng() % 80) - 60));
    }
    std::size_t wrong = 0, unreadable = 0;
    for (double x : inputs) {
        if (x == 0) continue;
        const std::string text = exact_decimal(x);
        if (text != gmp_exact_decimal(x)) {
            ++wrong;
            UNSCOPED_INFO(hex_double(x) << ": " << text << " vs " << gmp_exact_decimal(x));
        }
        RefNumber back(8192);
        const int ternary = mpfr_strtofr(back.get(), text.c_str(), nullptr, 10, MPFR_RNDN);
        if (ternary != 0 || mpfr_cmp_d(back.get(), x) != 0) ++unreadable;
    }
    CHECK(wrong == 0);
    CHECK(unreadable == 0);
}

TEST_CASE("shortest_decimal reads back to the value and no shorter decimal does", "[decimal]") {
    std::vector<std::pair<FormatSpec, std::vector<double>>> cases;
    for (const char* name : {"fp16", "bf16", "fp8_e4m3", "fp8_e5m2", "e4m3fnuz", "fp6_e3m2", "fp4_e2m1", "fp16:ftz"})
        cases.emplace_back(parse_format(name), ref_sorted_values(parse_format(name)));
    std::mt19937_64 rng(11);
    std::vector<double> floats;
    for (std::size_t i = 0; i < floatscope::test::sweep_size(20000); ++i) {
        const float f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
        if (std::isfinite(f)) floats.push_back(f);
    }
    for (float f : {FLT_MAX, FLT_MIN, FLT_TRUE_MIN, 1.0f, 0.1f, 3.4e38f, 1e-45f}) floats.push_back(f);
    cases.emplace_back(parse_format("fp32"), floats);

    for (const auto& [spec, values] : cases) {
        INFO("format " << spec.name);
        std::size_t wrong_value = 0, not_shortest = 0;
        std::string examples;
        for (double v : values) {
            if (!std::isfinite(v) || v == 0) continue;
            const std::string text = shortest_decimal(spec, v);
            if (reference_read(spec, text) != v) {
                ++wrong_value;
                if (wrong_value < 6) examples += hex_double(v) + " -> " + text + "\n";
                continue;
            }
            const std::size_t n = significant_digits(text);
            if (n > 1) {
                const auto [below, above] = neighbours_with_digits(v, n - 1);
                if (reference_read(spec, below) == v || reference_read(spec, above) == v) {
                    ++not_shortest;
                    if (not_shortest < 6)
                        examples +=
                            hex_double(v) + " -> " + text + " but " + below + " / " + above + " reads back too\n";
                }
            }
        }
        INFO(examples);
        CHECK(wrong_value == 0);
        CHECK(not_shortest == 0);
    }
    CHECK(shortest_decimal(parse_format("fp32"), static_cast<double>(0.1f)) == "0.1");
    CHECK(shortest_decimal(parse_format("fp16"), 0.0999755859375) == "0.1");
    CHECK(shortest_decimal(parse_format("fp16"), 65504) == "65500");
    CHECK(shortest_decimal(parse_format("fp16"), std::ldexp(1.0, -24)) == "6e-08");
    CHECK(shortest_decimal(parse_format("fp8_e4m3"), 448) == "450");  // 450 is within half a gap (32) of 448
    CHECK(shortest_decimal(parse_format("fp16"), -0.0) == "-0");
    CHECK(shortest_decimal(parse_format("fp16"), std::numeric_limits<double>::infinity()) == "inf");
}

TEST_CASE("the shortest decimal of max does not lean on saturation", "[decimal]") {
    using floatscope::core::parse_format;
    using floatscope::core::shortest_decimal;
    // 500 would saturate back to 448 in e4m3:sat, but it is no spelling of 448; 450 rounds to it.
    CHECK(shortest_decimal(parse_format("fp8_e4m3:sat"), 448.0) == "450");
    CHECK(shortest_decimal(parse_format("fp8_e4m3"), 448.0) == "450");
    // fp6_e2m3 saturates by definition (no inf, no NaN): 8 is beyond max 7.5.
    CHECK(shortest_decimal(parse_format("fp6_e2m3"), 7.5) == "7.5");
    CHECK(shortest_decimal(parse_format("fp16"), 65504.0) == "65500");
}
