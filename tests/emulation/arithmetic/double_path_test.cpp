// emulation/double_path's floating-point rounding to nearest-even (Veltkamp's splitting, which the
// scalar fast path uses) against MPFR rounding the same double to the format's precision, for every
// precision the double path serves: random doubles, exact ties, doubles one ulp either side of a
// tie, and doubles just below a power of two (which round up into the next binade).
#include <catch2/catch.hpp>
#include <mpfr.h>

#include <cmath>
#include <random>
#include <string>

#include "core/catalog.hpp"
#include "emulation/arithmetic/double_path.hpp"

namespace {

using namespace floatscope;

/// x rounded to nearest-even on `precision` bits by MPFR.
double mpfr_nearest_even(double x, int precision) {
    mpfr_t t;
    mpfr_init2(t, precision);
    mpfr_set_d(t, x, MPFR_RNDN);
    const double rounded = mpfr_get_d(t, MPFR_RNDN);  // exact: precision <= 53
    mpfr_clear(t);
    return rounded;
}

}  // namespace

TEST_CASE("split_high rounds to nearest-even at every precision of the double path") {
    std::mt19937_64 random(20261130);
    std::uniform_int_distribution<int> exponent(-60, 60);
    // e8mM formats: M = 1 ... 25 fraction bits (p <= 26, ExactPath::DoubleWithErrorTerm).
    for (int M = 1; M <= 25; ++M) {
        const emu::NormalRounding plan(core::parse_format("e8m" + std::to_string(M)), core::Tininess::AfterRounding);
        std::uint64_t ties = 0, checked = 0, mismatches = 0;
        auto check = [&](double x) {
            const double expected = mpfr_nearest_even(x, M + 1);
            ++checked;
            if (emu::split_high(x, plan.split_factor) != expected) {
                ++mismatches;
                UNSCOPED_INFO("M = " << M << ": x = " << std::hexfloat << x << ", expected " << expected);
            }
        };
        for (int i = 0; i < 20000; ++i) {
            const double sign = random() & 1 ? -1.0 : 1.0;
            const int e = exponent(random);
            // A significand of 53 random bits, and the same cut to M + 2 bits with its last bit set: an
            // exact tie between two values of M + 1 bits.
            const std::uint64_t bits = (random() >> 11) | (std::uint64_t{1} << 52);
            const double any = sign * std::ldexp(static_cast<double>(bits), e - 52);
            const std::uint64_t tie_bits = ((bits >> (51 - M)) | 1) << (51 - M);
            const double tie = sign * std::ldexp(static_cast<double>(tie_bits), e - 52);
            ties += mpfr_nearest_even(tie, M + 2) == tie && mpfr_nearest_even(tie, M + 1) != tie;
            check(any);
            check(tie);
            check(std::nextafter(tie, 0.0));
            check(std::nextafter(tie, 2 * tie));
            check(sign * std::nextafter(std::ldexp(1.0, e), 0.0));
        }
        CHECK(mismatches == 0);
        CHECK(ties == 20000);  // the cases above are the ties they claim to be
        CHECK(checked == 100000);
    }
}
