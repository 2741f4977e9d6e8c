// Tests of emulation/ground_truth: exact dot products, GEMMs and sums rounded once, against hand-computed values.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "emulation/accumulation/exact_kernels.hpp"

using namespace floatscope::emu;

namespace {

double as_double(const TruthNumber& x) { return mpfr_get_d(x.backend().data(), MPFR_RNDN); }

}  // namespace

TEST_CASE("to_truth holds doubles exactly at the precision asked for") {
    const std::vector<double> values = {0.1, -std::ldexp(1.0, -1074), 1e308};
    const std::vector<TruthNumber> t = to_truth(values, 200);
    for (std::size_t i = 0; i < values.size(); ++i) {
        CHECK(mpfr_get_prec(t[i].backend().data()) == 200);
        CHECK(mpfr_cmp_d(t[i].backend().data(), values[i]) == 0);
    }
}

TEST_CASE("exact_sum and exact_dot cancel exactly where doubles lose everything") {
    // 2^100 + 1 - 2^100 is 1; in double the 1 is absorbed and the result is 0.
    const std::vector<TruthNumber> x =
        to_truth(std::vector<double>{std::ldexp(1.0, 100), 1.0, -std::ldexp(1.0, 100)}, 64);
    CHECK(as_double(exact_sum(x, 64)) == 1.0);
    // (1 + 2^-60)(1 - 2^-60) - 1 = -2^-120: the products need 122 bits, each input only 61.
    const std::vector<TruthNumber> a = to_truth(std::vector<double>{1 + std::ldexp(1.0, -52), -1.0}, 61);
    std::vector<TruthNumber> b = to_truth(std::vector<double>{1 - std::ldexp(1.0, -52), 1.0}, 61);
    // (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104, exactly.
    CHECK(as_double(exact_dot(a, b, 53)) == -std::ldexp(1.0, -104));
    const std::vector<double> b_double = {1 - std::ldexp(1.0, -52), 1.0};
    CHECK(as_double(exact_dot(a, b_double, 53)) == -std::ldexp(1.0, -104));
}

TEST_CASE("exact_dot rounds once, to the precision asked for") {
    // 1 + 2^-30 at 24 bits rounds to 1 (2^-30 is below half an ulp, 2^-24); at 53 bits it is exact.
    const std::vector<TruthNumber> x = to_truth(std::vector<double>{1.0, std::ldexp(1.0, -30)}, 64);
    const std::vector<double> ones = {1.0, 1.0};
    CHECK(as_double(exact_dot(x, ones, 24)) == 1.0);
    CHECK(as_double(exact_dot(x, ones, 53)) == 1 + std::ldexp(1.0, -30));
    CHECK(mpfr_get_prec(exact_dot(x, ones, 24).backend().data()) == 24);
    CHECK_THROWS(exact_dot(x, std::vector<double>{1.0}, 53));
}

TEST_CASE("exact_gemm: a 2x3 by 3x2 product by hand") {
    // [1 2 3; 4 5 6] [7 8; 9 10; 11 12] = [58 64; 139 154].
    const std::vector<TruthNumber> a = to_truth(std::vector<double>{1, 2, 3, 4, 5, 6}, 64);
    const std::vector<TruthNumber> b = to_truth(std::vector<double>{7, 8, 9, 10, 11, 12}, 64);
    const std::vector<TruthNumber> c = exact_gemm(a, b, 2, 3, 2, 64);
    REQUIRE(c.size() == 4);
    CHECK(as_double(c[0]) == 58);
    CHECK(as_double(c[1]) == 64);
    CHECK(as_double(c[2]) == 139);
    CHECK(as_double(c[3]) == 154);
    CHECK_THROWS(exact_gemm(a, b, 3, 3, 2, 64));
}

TEST_CASE("TruthPrecisionScope sets the default precision and restores it") {
    const unsigned before = TruthNumber::default_precision();
    {
        TruthPrecisionScope scope(512);
        CHECK(mpfr_get_prec(TruthNumber(1).backend().data()) >= 512);
    }
    CHECK(TruthNumber::default_precision() == before);
}
