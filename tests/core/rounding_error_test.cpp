// core/rounding_error: the errors `show` and the Bits view print, against differences worked out
// by hand from the formats' values (and, for a long decimal, against MPFR at 4096 bits).
#include <catch2/catch.hpp>

#include <cmath>

#include "core/exact_value.hpp"
#include "core/mpfr_number.hpp"
#include "core/rounding_error.hpp"
#include "core/wide_format.hpp"

using namespace floatscope::core;

namespace {

WideValue stored_double(double v) {
    MpfrNumber m(53);
    mpfr_set_d(m.get(), v, MPFR_RNDN);
    return WideValue::from_mpfr(m.get());
}

RoundingErrorText errors(const char* text, double stored, double spacing = NAN, int digits = 6) {
    return measure_rounding_error(text, parse_exact_value(text), stored_double(stored), -1074, spacing, digits);
}

}  // namespace

TEST_CASE("0.1 in fp16: errors worked out from its stored value 0.0999755859375", "[rounding_error]") {
    // 0.1 - 0.0999755859375 = 0.0000244140625 = 2^-15 * 0.8 exactly; the fp16 spacing there is 2^-17.
    const RoundingErrorText e = errors("0.1", 0.0999755859375, std::ldexp(1.0, -17));
    CHECK(e.absolute == "2.44141e-05");
    CHECK(e.relative == "0.000244141");
    CHECK(e.ulps == "-3.2");
    CHECK(errors("0.1", 0.0999755859375, NAN, 4).absolute == "2.441e-05");
    CHECK(errors("0.1", 0.0999755859375).ulps == "n/a");
}

TEST_CASE("a decimal longer than 64 bits is measured from its text, not its rounded bits", "[rounding_error]") {
    const char* text = "0.1000000000000000000000000000001";
    const double stored = 0.1;  // binary64 0x3FB999999999999A
    MpfrNumber x(4096), s(4096);
    mpfr_set_str(x.get(), text, 10, MPFR_RNDN);
    mpfr_set_d(s.get(), stored, MPFR_RNDN);
    mpfr_sub(s.get(), s.get(), x.get(), MPFR_RNDN);
    char expected[64];
    mpfr_snprintf(expected, sizeof expected, "%.10Rg", s.get());
    REQUIRE(parse_exact_value(text).sticky);
    CHECK(errors(text, stored, NAN, 10).absolute == expected);
}

TEST_CASE("exact results, zeros, infinities and NaN", "[rounding_error]") {
    CHECK(errors("0.5", 0.5).absolute == "0");
    CHECK(errors("0.5", 0.5).relative == "0");
    CHECK(errors("0", 0.0).relative == "0");
    CHECK(errors("0", 1e-300).relative == "n/a");  // relative to a zero truth is undefined
    CHECK(errors("inf", INFINITY).absolute == "0");
    CHECK(errors("inf", -INFINITY).absolute == "inf");
    CHECK(errors("1e10", INFINITY).relative == "inf");
    CHECK(errors("nan", NAN).absolute == "n/a");
    CHECK(errors("1", NAN).relative == "n/a");
}
