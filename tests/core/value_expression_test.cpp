// Tests of value_expression.hpp: expressions read exactly, their roundings against MPFR, their errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/exact_value.hpp"
#include "core/rounding.hpp"
#include "core/value_expression.hpp"

using namespace floatscope;
using namespace floatscope::core;

namespace {

/// The expression's value as p/q, written by hand in the test.
bool equals(const std::string& text, long p, unsigned long q) {
    mpq_t got, want;
    mpq_init(got);
    mpq_init(want);
    evaluate_value_expression(text, got);
    mpq_set_si(want, p, q);
    mpq_canonicalize(want);
    const bool same = mpq_equal(got, want) != 0;
    mpq_clear(got);
    mpq_clear(want);
    return same;
}

}  // namespace

TEST_CASE("an expression is told from a number by its operators") {
    for (const char* number : {"1", "-2.5e-3", "+1e+3", "0x1.8p-3", "-0x1p+4", "inf", "nan", " 0.1 ", "--1", "+-1"})
        CHECK_FALSE(is_value_expression(number));
    for (const char* expression : {"1/3", "2^-24", "(1)", "1-3", "1e-3-1", "2*3", "-2^2", "0x1p-14+1"})
        CHECK(is_value_expression(expression));
}

TEST_CASE("expressions are evaluated exactly, with the usual precedence") {
    CHECK(equals("1/3", 1, 3));
    CHECK(equals("0.1", 1, 10));  // a decimal is the rational it spells, not a double
    CHECK(equals("0.1+0.2", 3, 10));
    CHECK(equals("1 + 2 * 3", 7, 1));
    CHECK(equals("(1 + 2) * 3", 9, 1));
    CHECK(equals("2^-3", 1, 8));
    CHECK(equals("-2^2", -4, 1));  // the power binds tighter than the minus
    CHECK(equals("2^3^2", 512, 1));  // right-associative: 2^9
    CHECK(equals("1e-3*1000", 1, 1));
    CHECK(equals("0x1.8p1/3", 1, 1));  // 3 / 3
    CHECK(equals("1/3 - 1/3", 0, 1));
    CHECK(equals("(-3)^3", -27, 1));
}

TEST_CASE("parse_exact_value rounds an expression exactly: 1/3 into fp16 and fp32 as MPFR does") {
    // 1/3 is not a dyadic: its nearest fp16 and fp32 values from MPFR at the formats' precision.
    for (const char* format : {"fp16", "fp32", "bf16", "fp8_e4m3"}) {
        const FormatSpec spec = parse_format(format);
        mpfr_t third;
        mpfr_init2(third, spec.mantissa_bits + 1);
        mpfr_set_ui(third, 1, MPFR_RNDN);
        mpfr_div_ui(third, third, 3, MPFR_RNDN);
        INFO(format);
        CHECK(round_to_format(spec, parse_exact_value("1/3")).value == mpfr_get_d(third, MPFR_RNDN));
        mpfr_clear(third);
    }
    // 2^-24 is fp16's smallest subnormal, 1 + 2^-10 its successor of 1.
    CHECK(round_to_format(parse_format("fp16"), parse_exact_value("2^-24")).bits == 0x0001);
    CHECK(round_to_format(parse_format("fp16"), parse_exact_value("1 + 2^-10")).bits == 0x3C01);
    // A tie worked out by hand: 1 + 2^-11 is half an fp16 ulp above 1, so rne gives 1 (3C00) and
    // the sticky bit of 1 + 2^-11 + 2^-40 pushes it up (3C01).
    CHECK(round_to_format(parse_format("fp16"), parse_exact_value("1 + 2^-11")).bits == 0x3C00);
    CHECK(round_to_format(parse_format("fp16"), parse_exact_value("1 + 2^-11 + 2^-40")).bits == 0x3C01);
    CHECK(parse_exact_value("-1/3").negative);
    // parse_value_to_mpfr gives the same rational at a high precision.
    mpfr_t x, want;
    mpfr_init2(x, 200);
    mpfr_init2(want, 200);
    parse_value_to_mpfr("1/3", x);
    mpfr_set_ui(want, 1, MPFR_RNDN);
    mpfr_div_ui(want, want, 3, MPFR_RNDN);
    CHECK(mpfr_equal_p(x, want));
    mpfr_clear(x);
    mpfr_clear(want);
}

TEST_CASE("a malformed expression says what and where") {
    CHECK_THROWS_WITH(parse_exact_value("1/"),
                      Catch::Contains("malformed expression '1/'") && Catch::Contains("expected a number"));
    CHECK_THROWS_WITH(parse_exact_value("1/0"), Catch::Contains("division by zero"));
    CHECK_THROWS_WITH(parse_exact_value("2^0.5"), Catch::Contains("integer exponent"));
    CHECK_THROWS_WITH(parse_exact_value("(1+2"), Catch::Contains("expected ')'"));
    CHECK_THROWS_WITH(parse_exact_value("0^-1"), Catch::Contains("zero to a negative power"));
    CHECK_THROWS_WITH(parse_exact_value("1e999999*1"), Catch::Contains("decimal exponent beyond"));
    CHECK_THROWS_WITH(parse_exact_value("2^1000000"), Catch::Contains("exponent beyond"));
    CHECK_THROWS_WITH(parse_exact_value("1 + nan"), Catch::Contains("expected a number"));
    CHECK_THROWS_AS(parse_exact_value("3 4/2"), Error);
    // Bounded work whatever is typed: deep nesting and powers of huge values are refused.
    CHECK_THROWS_WITH(parse_exact_value(std::string(1000, '(') + "1" + std::string(1000, ')')),
                      Catch::Contains("nested levels"));
    CHECK_THROWS_WITH(parse_exact_value("(10^100000)^100000"), Catch::Contains("bits"));
    CHECK(equals("(-1)^99999", -1, 1));  // +-1 to any power costs nothing
}
