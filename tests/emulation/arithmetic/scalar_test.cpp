// Emulated scalar: one template runs emulated, in double and in MPFR; Eigen; counting; scopes.
#include <catch2/catch.hpp>

#include <boost/multiprecision/mpfr.hpp>
#include <random>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/arithmetic/scalar.hpp"
#include "emulation/arithmetic/scalar_eigen.hpp"
#include "tests/core/mpfr_reference.hpp"

namespace {

using floatscope::core::parse_format;
using floatscope::core::RoundingMode;
using floatscope::emu::CountingScope;
using floatscope::emu::Emulated;
using floatscope::emu::OperationCounters;
using floatscope::emu::PrecisionScope;
using floatscope::test::ref_round;
using floatscope::test::RefNumber;

/// The routine under study, written once for any scalar type: Horner's rule, then a dot product.
template <typename T>
T horner_then_dot(const std::vector<double>& coefficients, double x, const std::vector<double>& u,
                  const std::vector<double>& v) {
    T acc = T(coefficients.front());
    for (std::size_t i = 1; i < coefficients.size(); ++i) acc = acc * T(x) + T(coefficients[i]);
    for (std::size_t i = 0; i < u.size(); ++i) acc += T(u[i]) * T(v[i]);
    return acc;
}

/// The same computation, each step computed exactly in MPFR and rounded by the test reference.
double reference_horner_then_dot(const floatscope::core::FormatSpec& f, const std::vector<double>& coefficients,
                                 double x, const std::vector<double>& u, const std::vector<double>& v) {
    auto round = [&](double value) { return ref_round(f, value, RoundingMode::NearestEven).value; };
    auto exact_op = [&](double a, double b, bool multiply) {
        RefNumber result(2200);
        RefNumber ma(53), mb(53);
        mpfr_set_d(ma.get(), a, MPFR_RNDN);
        mpfr_set_d(mb.get(), b, MPFR_RNDN);
        if (multiply)
            mpfr_mul(result.get(), ma.get(), mb.get(), MPFR_RNDN);
        else
            mpfr_add(result.get(), ma.get(), mb.get(), MPFR_RNDN);
        return ref_round(f, result.get(), RoundingMode::NearestEven).value;
    };
    double acc = round(coefficients.front());
    for (std::size_t i = 1; i < coefficients.size(); ++i)
        acc = exact_op(exact_op(acc, round(x), true), round(coefficients[i]), false);
    for (std::size_t i = 0; i < u.size(); ++i) acc = exact_op(acc, exact_op(round(u[i]), round(v[i]), true), false);
    return acc;
}

}  // namespace

TEST_CASE("one template runs emulated, in double and in MPFR", "[scalar]") {
    std::mt19937_64 generator(11);
    std::uniform_real_distribution<double> coefficient(-2.0, 2.0);
    for (const char* name : {"fp16", "bf16", "fp8_e4m3", "e6m9", "fp32"}) {
        const auto format = parse_format(name);
        for (int trial = 0; trial < 50; ++trial) {
            std::vector<double> c(7), u(9), v(9);
            for (double& a : c) a = coefficient(generator);
            for (double& a : u) a = coefficient(generator);
            for (double& a : v) a = coefficient(generator);
            const double x = coefficient(generator);
            PrecisionScope scope(format);
            const double emulated = horner_then_dot<Emulated>(c, x, u, v).value();
            CAPTURE(name, trial);
            CHECK(emulated == reference_horner_then_dot(format, c, x, u, v));
            const double in_double = horner_then_dot<double>(c, x, u, v);
            using Mpfr = boost::multiprecision::mpfr_float_100;
            const double in_mpfr = horner_then_dot<Mpfr>(c, x, u, v).convert_to<double>();
            CHECK(in_mpfr == Approx(in_double).margin(1e-12));
        }
    }
}

TEST_CASE("Eigen matrices of emulated numbers hold format values within the error bound", "[scalar][eigen]") {
    using Matrix = Eigen::Matrix<Emulated, Eigen::Dynamic, Eigen::Dynamic>;
    const auto fp16 = parse_format("fp16");
    PrecisionScope scope(fp16);
    const int n = 24;
    std::mt19937_64 generator(5);
    std::uniform_real_distribution<double> entry(-1.0, 1.0);
    Matrix a(n, n), b(n, n);
    Eigen::MatrixXd a_exact(n, n), b_exact(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            a(i, j) = entry(generator);
            b(i, j) = entry(generator);
            a_exact(i, j) = a(i, j).value();
            b_exact(i, j) = b(i, j).value();
        }
    const Matrix c = a * b;
    const Eigen::MatrixXd c_exact = a_exact * b_exact;  // exact enough: fp16 products are exact in double
    // Higham's bound for any summation order: |error| <= gamma_n |A||B|, gamma_n = n u / (1 - n u).
    const double u = 0x1p-11, gamma = n * u / (1 - n * u);
    const Eigen::MatrixXd bound = gamma * (a_exact.cwiseAbs() * b_exact.cwiseAbs());
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const double value = c(i, j).value();
            CHECK(ref_round(fp16, value, RoundingMode::NearestEven).value == value);  // a value of fp16
            CHECK(std::fabs(value - c_exact(i, j)) <= bound(i, j));
        }
    CHECK(Eigen::NumTraits<Emulated>::epsilon().value() == 0x1p-10);
    CHECK(Eigen::NumTraits<Emulated>::highest().value() == 65504.0);
}

TEST_CASE("operations are counted into the active counters only", "[scalar][counters]") {
    const auto fp16 = parse_format("fp16");
    PrecisionScope scope(fp16);
    OperationCounters counters;
    {
        CountingScope counting(counters);
        const Emulated big = 60000.0;  // exact conversion
        const Emulated overflowed = big * Emulated(2.0);  // inf, overflow + inexact
        const Emulated nan = overflowed - overflowed;  // inf - inf: invalid
        const Emulated tiny = Emulated(1e-7) * Emulated(1e-3);  // underflow to zero
        (void)nan;
        (void)tiny;
    }
    CHECK(counters.operations == 7);  // conversions 60000, 2, 1e-7, 1e-3; mul, sub, mul
    CHECK(counters.overflow == 1);
    CHECK(counters.infinite_results == 1);
    CHECK(counters.invalid == 1);
    CHECK(counters.nan_results == 1);
    CHECK(counters.underflow == 2);  // 1e-7 is subnormal and inexact in fp16; the product too
    CHECK(counters.zero_results == 1);
    const OperationCounters before = counters;
    const Emulated outside = Emulated(3.0) * Emulated(5.0);  // no CountingScope: not counted
    CHECK(outside.value() == 15.0);
    CHECK(counters == before);
}

TEST_CASE("scopes nest and an operation outside any scope is an error", "[scalar][scope]") {
    CHECK_THROWS_AS(Emulated(1.0), floatscope::Error);
    PrecisionScope outer(parse_format("fp16"));
    const Emulated third_fp16 = Emulated(1.0) / Emulated(3.0);
    CHECK(third_fp16.value() == 0x1.554p-2);
    {
        PrecisionScope inner(parse_format("bf16"), RoundingMode::TowardZero);
        CHECK((Emulated(1.0) / Emulated(3.0)).value() == 0x1.54p-2);
    }
    CHECK((Emulated(1.0) / Emulated(3.0)).value() == third_fp16.value());
    PrecisionScope fnuz(parse_format("e4m3fnuz"));
    CHECK(!std::signbit((-Emulated(0.0)).value()));  // no negative zero in fnuz formats
}
