// Tests of emulation/ground_truth: exact dot products, GEMMs and sums rounded once, against hand-computed values.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <thread>
#include <vector>

#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/accumulation/exact_weight_gemm.hpp"
#include "emulation/accumulation/sliced_exact_gemm.hpp"

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

namespace {

/// An MPFR number of `precision` bits: a random significand, exponent in [-spread, spread], sign.
TruthNumber random_number(std::mt19937_64& random, int precision, int spread) {
    TruthNumber x;
    mpfr_ptr v = x.backend().data();
    mpfr_set_prec(v, precision);
    mpz_t bits;  // `precision` random bits, 32 at a time
    mpz_init(bits);
    int drawn = 0;
    for (; drawn < precision; drawn += 32) {
        mpz_mul_2exp(bits, bits, 32);
        mpz_add_ui(bits, bits, static_cast<unsigned long>(random() & 0xFFFF'FFFFu));
    }
    mpz_fdiv_q_2exp(bits, bits, static_cast<mp_bitcnt_t>(drawn - precision));
    mpfr_set_z_2exp(v, bits, -precision, MPFR_RNDN);  // exact: precision bits
    mpfr_mul_2si(v, v, std::uniform_int_distribution<int>(-spread, spread)(random), MPFR_RNDN);
    if (random() & 1) mpfr_neg(v, v, MPFR_RNDN);
    mpz_clear(bits);
    return x;
}

/// The reference: each product exact at the sum of its factors' precisions, mpfr_sum rounding once.
TruthNumber reference_dot(const std::vector<TruthNumber>& x, const std::vector<TruthNumber>& y, int precision) {
    std::vector<TruthNumber> products(x.size());
    std::vector<mpfr_ptr> pointers;
    for (std::size_t i = 0; i < x.size(); ++i) {
        mpfr_ptr p = products[i].backend().data();
        mpfr_set_prec(p, mpfr_get_prec(x[i].backend().data()) + mpfr_get_prec(y[i].backend().data()));
        mpfr_mul(p, x[i].backend().data(), y[i].backend().data(), MPFR_RNDN);
        pointers.push_back(p);
    }
    TruthNumber r;
    mpfr_set_prec(r.backend().data(), precision);
    mpfr_sum(r.backend().data(), pointers.data(), pointers.size(), MPFR_RNDN);
    return r;
}

bool same_number(const TruthNumber& a, const TruthNumber& b) {
    mpfr_srcptr x = a.backend().data(), y = b.backend().data();
    if (mpfr_nan_p(x) || mpfr_nan_p(y)) return mpfr_nan_p(x) && mpfr_nan_p(y);
    return mpfr_equal_p(x, y) && mpfr_signbit(x) == mpfr_signbit(y) && mpfr_get_prec(x) == mpfr_get_prec(y);
}

}  // namespace

TEST_CASE("exact_gemm's fixed-point sums equal MPFR's correctly rounded sums of exact products") {
    std::mt19937_64 random(25);
    std::size_t checks = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const int pa = std::vector<int>{24, 53, 64, 113, 256, 300}[trial % 6];
        const int pb = std::vector<int>{53, 24, 200}[trial % 3];
        const int precision = std::vector<int>{24, 53, 113, 256}[trial % 4];
        const int spread = std::vector<int>{0, 4, 60, 400}[trial % 4];
        const std::size_t k = 1 + trial % 37, m = 2, n = 3;
        std::vector<TruthNumber> a, b;
        for (std::size_t i = 0; i < m * k; ++i) a.push_back(random_number(random, pa, spread));
        for (std::size_t i = 0; i < k * n; ++i) b.push_back(random_number(random, pb, spread));
        // Every fifth trial holds short significands in wide numbers, as the truth holds a model's
        // weights: their low limbs are zero (exact_gemm skips them).
        if (trial % 5 == 2)
            for (TruthNumber& x : trial % 2 == 0 ? a : b) {
                const int wide = mpfr_get_prec(x.backend().data()) < 128 ? 200 : 320;
                mpfr_prec_round(x.backend().data(), wide, MPFR_RNDN);  // exact: more bits
            }
        // Cancellation: in every other trial the second half of row 0 repeats the first with b negated
        // in column 0, plus zeros among the operands.
        if (trial % 2 == 1 && k >= 2) {
            for (std::size_t l = 0; l < k / 2; ++l) {
                mpfr_set(a[k / 2 + l].backend().data(), a[l].backend().data(), MPFR_RNDN);
                mpfr_neg(b[(k / 2 + l) * n].backend().data(), b[l * n].backend().data(), MPFR_RNDN);
            }
            mpfr_set_zero(a[k - 1].backend().data(), trial % 4 == 1 ? 1 : -1);
        }
        const std::vector<TruthNumber> c = exact_gemm(a, b, m, k, n, precision);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                std::vector<TruthNumber> x(a.begin() + static_cast<long>(i * k),
                                           a.begin() + static_cast<long>((i + 1) * k));
                std::vector<TruthNumber> y;
                for (std::size_t l = 0; l < k; ++l) y.push_back(b[l * n + j]);
                INFO("trial " << trial << " entry " << i << "," << j);
                REQUIRE(same_number(c[i * n + j], reference_dot(x, y, precision)));
                ++checks;
            }
    }
    CHECK(checks == 1800);
}

TEST_CASE("exact_gemm: ties, exact zeros, signed zero sums, specials and far-apart magnitudes") {
    auto gemm_1x2 = [](std::vector<double> a, std::vector<double> b, int precision) {
        return exact_gemm(to_truth(a, 53), to_truth(b, 53), 1, a.size(), 1, precision)[0];
    };
    // 1 + 2^-24 at 24 bits: a tie, to even (1); 1 + 3 2^-25 goes up; -(1 + 2^-24) to -1.
    CHECK(as_double(gemm_1x2({1, 1}, {1, std::ldexp(1.0, -24)}, 24)) == 1);
    CHECK(as_double(gemm_1x2({1, 3}, {1, std::ldexp(1.0, -25)}, 24)) == 1 + std::ldexp(1.0, -23));
    CHECK(as_double(gemm_1x2({-1, -1}, {1, std::ldexp(1.0, -24)}, 24)) == -1);
    // An exact cancellation is +0; all-zero products keep IEEE's sign rule (-0 only if all are -0).
    const TruthNumber zero = gemm_1x2({3, 3}, {0.5, -0.5}, 53);
    CHECK((mpfr_zero_p(zero.backend().data()) && !mpfr_signbit(zero.backend().data())));
    const TruthNumber negative_zero = gemm_1x2({-0.0, 0.0}, {1, -1}, 53);
    CHECK((mpfr_zero_p(negative_zero.backend().data()) && mpfr_signbit(negative_zero.backend().data())));
    // Nonzero factors in the row and in the column, every product still -0: -1 x 0 and 0 x -1.
    const TruthNumber crossed_zero = gemm_1x2({-1, 0}, {0, -1}, 53);
    CHECK((mpfr_zero_p(crossed_zero.backend().data()) && mpfr_signbit(crossed_zero.backend().data())));
    // Magnitudes 2^1000 apart (wider than the fixed-point window): still exact, through mpfr_sum.
    const TruthNumber far = gemm_1x2({std::ldexp(1.0, 600), std::ldexp(1.0, -500)}, {std::ldexp(1.0, 400), 1}, 1200);
    mpfr_t want;
    mpfr_init2(want, 1200);
    mpfr_set_ui_2exp(want, 1, 1000, MPFR_RNDN);
    mpfr_add_d(want, want, std::ldexp(1.0, -500), MPFR_RNDN);
    CHECK(mpfr_equal_p(far.backend().data(), want));
    mpfr_clear(want);
    // Infinities and NaN: the IEEE sum.
    CHECK(std::isinf(as_double(gemm_1x2({INFINITY, 1}, {1, 1}, 53))));
    CHECK(std::isnan(as_double(gemm_1x2({INFINITY, INFINITY}, {1, -1}, 53))));
}

TEST_CASE("TruthThreadsScope sets the exact kernels' threads on its thread and restores them") {
    CHECK(truth_threads() == 1);
    {
        const TruthThreadsScope outer(4);
        CHECK(truth_threads() == 4);
        {
            const TruthThreadsScope inner(0);  // at least 1
            CHECK(truth_threads() == 1);
        }
        CHECK(truth_threads() == 4);
        int elsewhere = 0;
        std::thread([&] { elsewhere = truth_threads(); }).join();
        CHECK(elsewhere == 1);
    }
    CHECK(truth_threads() == 1);
}

TEST_CASE("exact_gemm gives the same numbers on any number of threads") {
    // 23 rows (not a multiple of any chunk), entries of every kind: fixed-point sums, cancellations,
    // a NaN, infinities and far-apart magnitudes (mpfr_sum), an all-zero row with signed zeros.
    std::mt19937_64 random(31);
    const std::size_t m = 23, k = 19, n = 5;
    std::vector<TruthNumber> a, b;
    for (std::size_t i = 0; i < m * k; ++i) a.push_back(random_number(random, 64, 30));
    for (std::size_t i = 0; i < k * n; ++i) b.push_back(random_number(random, 53, 30));
    mpfr_set_nan(a[2 * k + 3].backend().data());
    mpfr_set_inf(a[5 * k].backend().data(), -1);
    mpfr_set_inf(b[1 * n + 2].backend().data(), 1);
    mpfr_mul_2si(a[7 * k + 1].backend().data(), a[7 * k + 1].backend().data(), 100000, MPFR_RNDN);
    for (std::size_t l = 0; l < k; ++l) mpfr_set_zero(a[11 * k + l].backend().data(), l % 2 == 0 ? -1 : 1);
    for (std::size_t l = 0; l < k / 2; ++l) {  // row 13 cancels exactly in column 0
        mpfr_set(a[13 * k + k / 2 + l].backend().data(), a[13 * k + l].backend().data(), MPFR_RNDN);
        mpfr_neg(b[(k / 2 + l) * n].backend().data(), b[l * n].backend().data(), MPFR_RNDN);
    }
    mpfr_set_zero(a[13 * k + k - 1].backend().data(), 1);
    const std::vector<TruthNumber> serial = exact_gemm(a, b, m, k, n, 113);
    for (int threads : {2, 3, 8, 64}) {
        const TruthThreadsScope scope(threads);
        REQUIRE(truth_threads() == threads);
        const std::vector<TruthNumber> parallel = exact_gemm(a, b, m, k, n, 113);
        REQUIRE(parallel.size() == serial.size());
        for (std::size_t e = 0; e < serial.size(); ++e) {
            INFO(threads << " threads, entry " << e / n << "," << e % n);
            REQUIRE(same_number(parallel[e], serial[e]));
        }
    }
    // The serial result itself: a sample of entries against the reference, the specials among them.
    for (std::size_t e : {std::size_t{0}, 2 * n + 1, 5 * n + 2, 7 * n, 11 * n + 4, 13 * n, m * n - 1}) {
        const std::size_t i = e / n, j = e % n;
        std::vector<TruthNumber> x(a.begin() + static_cast<long>(i * k), a.begin() + static_cast<long>((i + 1) * k));
        std::vector<TruthNumber> y;
        for (std::size_t l = 0; l < k; ++l) y.push_back(b[l * n + j]);
        INFO("entry " << i << "," << j);
        CHECK(same_number(serial[e], reference_dot(x, y, 113)));
    }
    // Empty shapes on several threads: no rows, and rows of empty sums (+0).
    const TruthThreadsScope scope(3);
    CHECK(exact_gemm({}, {}, 0, 3, 0, 53).empty());
    const std::vector<TruthNumber> empty_sums = exact_gemm({}, {}, 4, 0, 2, 53);
    REQUIRE(empty_sums.size() == 8);
    for (const TruthNumber& v : empty_sums)
        CHECK((mpfr_zero_p(v.backend().data()) && !mpfr_signbit(v.backend().data())));
}

namespace {

/// A double of every kind the weights of a model may hold: normal numbers over wide exponents,
/// subnormals, the extremes, signed zeros, infinities and NaN (each about one draw in 30).
double adversarial_double(std::mt19937_64& random, int spread) {
    const double normal = std::ldexp(std::uniform_real_distribution<double>(0.5, 1)(random),
                                     std::uniform_int_distribution<int>(-spread, spread)(random));
    const double sign = random() & 1 ? -1 : 1;
    switch (random() % 30) {
        case 0: return sign * 0.0;
        case 1: return sign * std::ldexp(static_cast<double>(random() % 4096 + 1), -1074);  // subnormal
        case 2: return sign * std::numeric_limits<double>::max();
        case 3: return sign * std::numeric_limits<double>::denorm_min();
        case 4: return sign * std::numeric_limits<double>::min();
        default: return sign * normal;
    }
}

}  // namespace

TEST_CASE("exact_gemm_by_doubles equals exact_gemm by the doubles held as 53-bit numbers") {
    // The old path (to_truth(b, 53)) and MPFR's sum of exact products are the references; A holds
    // numbers of the truth's precisions, B doubles of every kind, and some columns cancel exactly.
    std::mt19937_64 random(37);
    std::size_t compared = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const int precision = std::vector<int>{80, 256, 600}[trial % 3];
        const int pa = std::vector<int>{53, 256, 600, 113}[trial % 4];
        const int spread = std::vector<int>{2, 30, 1000}[trial % 3];
        const std::size_t m = 3, k = 1 + trial % 23, n = 4;
        std::vector<TruthNumber> a;
        for (std::size_t i = 0; i < m * k; ++i) a.push_back(random_number(random, pa, trial % 7 == 0 ? 1000 : 20));
        std::vector<double> b;
        for (std::size_t i = 0; i < k * n; ++i) b.push_back(adversarial_double(random, spread));
        if (trial % 2 == 1 && k >= 2)  // column 1's second half cancels its first in row 0
            for (std::size_t l = 0; l < k / 2; ++l) {
                mpfr_set(a[k / 2 + l].backend().data(), a[l].backend().data(), MPFR_RNDN);
                b[(k / 2 + l) * n + 1] = -b[l * n + 1];
            }
        if (trial % 10 == 3) b[(k - 1) * n + 2] = std::numeric_limits<double>::infinity();
        if (trial % 10 == 7) b[3] = std::numeric_limits<double>::quiet_NaN();
        const std::vector<TruthNumber> by_doubles = exact_gemm_by_doubles(a, b, m, k, n, precision);
        const std::vector<TruthNumber> by_numbers = exact_gemm(a, to_truth(b, 53), m, k, n, precision);
        REQUIRE(by_doubles.size() == m * n);
        for (std::size_t e = 0; e < m * n; ++e) {
            INFO("trial " << trial << " entry " << e / n << "," << e % n);
            REQUIRE(same_number(by_doubles[e], by_numbers[e]));
            std::vector<TruthNumber> x(a.begin() + static_cast<long>(e / n * k),
                                       a.begin() + static_cast<long>((e / n + 1) * k));
            std::vector<TruthNumber> y;
            for (std::size_t l = 0; l < k; ++l) y.push_back(to_truth(std::vector<double>{b[l * n + e % n]}, 53)[0]);
            REQUIRE(same_number(by_doubles[e], reference_dot(x, y, precision)));
            ++compared;
        }
    }
    CHECK(compared == 60 * 12);
    // The same numbers on two threads, and the sizes checked.
    std::vector<TruthNumber> a;
    std::vector<double> b;
    for (int i = 0; i < 7 * 9; ++i) a.push_back(random_number(random, 256, 10));
    for (int i = 0; i < 9 * 11; ++i) b.push_back(adversarial_double(random, 40));
    const std::vector<TruthNumber> serial = exact_gemm_by_doubles(a, b, 7, 9, 11, 256);
    const TruthThreadsScope scope(2);
    const std::vector<TruthNumber> parallel = exact_gemm_by_doubles(a, b, 7, 9, 11, 256);
    for (std::size_t e = 0; e < serial.size(); ++e) CHECK(same_number(serial[e], parallel[e]));
    CHECK_THROWS(exact_gemm_by_doubles(a, b, 7, 9, 10, 256));
}

namespace {

/// Row i of A and column j of B as vectors of numbers (B's doubles held as 53-bit numbers).
std::vector<TruthNumber> row_of(const std::vector<TruthNumber>& a, std::size_t i, std::size_t k) {
    return {a.begin() + static_cast<long>(i * k), a.begin() + static_cast<long>((i + 1) * k)};
}
template <class B>
std::vector<TruthNumber> column_of(const std::vector<B>& b, std::size_t j, std::size_t k, std::size_t n) {
    std::vector<TruthNumber> y;
    for (std::size_t l = 0; l < k; ++l) {
        if constexpr (std::is_same_v<B, double>)
            y.push_back(to_truth(std::vector<double>{b[l * n + j]}, 53)[0]);
        else
            y.push_back(b[l * n + j]);
    }
    return y;
}

/// Slices every entry it can (Choice::always) and checks each one taken against MPFR's sum of exact
/// products; an entry left must be one the slices cannot take: a zero sum (its sign is mpfr_sum's), a
/// row or column with an infinity or NaN, or one whose magnitudes lie far apart (`far_row`,
/// `far_column`; any column where `far_columns`). Returns the entries taken; none where the
/// magnitudes of A or B as a whole span too many bits to slice (`slices` says whether it sliced).
template <class B>
std::size_t check_slices(const std::vector<TruthNumber>& a, const std::vector<B>& b, std::size_t m, std::size_t k,
                         std::size_t n, int precision, std::size_t far_row, std::size_t far_column,
                         bool far_columns = false, bool* slices = nullptr) {
    const SlicedExactGemm<B> sliced(a, b, m, k, n, SlicedExactGemm<B>::Choice::always);
    if (slices != nullptr) *slices = sliced.slices();
    std::vector<TruthNumber> c(m * n);
    std::vector<char> taken(m * n, 0);
    typename SlicedExactGemm<B>::Scratch scratch;
    sliced.compute_columns(0, n / 2, c, precision, taken, scratch);  // in two calls, as threads take them
    sliced.compute_columns(n / 2, n, c, precision, taken, scratch);
    std::size_t count = 0;
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const TruthNumber want = reference_dot(row_of(a, i, k), column_of(b, j, k, n), precision);
            INFO("entry " << i << "," << j << " of " << m << "x" << k << "x" << n);
            if (taken[i * n + j]) {
                REQUIRE(same_number(c[i * n + j], want));
                ++count;
            } else {
                bool finite = true;
                for (std::size_t l = 0; l < k; ++l)
                    finite = finite && mpfr_number_p(a[i * k + l].backend().data()) &&
                             mpfr_number_p(column_of(b, j, k, n)[l].backend().data());
                REQUIRE((!sliced.slices() || mpfr_zero_p(want.backend().data()) || !finite || i == far_row ||
                         j == far_column || far_columns));
            }
        }
    return count;
}

}  // namespace

TEST_CASE("SlicedExactGemm's entries equal MPFR's correctly rounded sums of exact products") {
    // Shapes not multiples of the kernel's row group (4) or panel (8); precisions from float32's to
    // wider than the truth's; magnitudes spread over up to 2^300; rows that cancel exactly; zeros.
    std::mt19937_64 random(41);
    std::size_t taken = 0, entries = 0;  // of the trials it slices
    for (int trial = 0; trial < 48; ++trial) {
        const std::size_t m = std::vector<std::size_t>{1, 3, 5, 13}[trial % 4];
        const std::size_t k = std::vector<std::size_t>{1, 7, 64, 300, 33}[trial % 5];
        const std::size_t n = std::vector<std::size_t>{1, 9, 17, 40}[(trial / 4) % 4];
        const int pa = std::vector<int>{24, 53, 113, 256, 320}[trial % 5];
        const int pb = std::vector<int>{24, 53, 256}[trial % 3];
        const int spread = std::vector<int>{0, 10, 60, 300}[(trial / 3) % 4];
        const int precision = std::vector<int>{24, 53, 113, 256}[(trial / 2) % 4];
        std::vector<TruthNumber> a, b;
        for (std::size_t i = 0; i < m * k; ++i) a.push_back(random_number(random, pa, spread));
        for (std::size_t i = 0; i < k * n; ++i) b.push_back(random_number(random, pb, spread));
        for (std::size_t i = 5; i < m * k; i += 11) mpfr_set_zero(a[i].backend().data(), i % 2 == 0 ? 1 : -1);
        if (k >= 2 && n >= 2)  // row 0 cancels exactly in column 1
            for (std::size_t l = 0; l < k / 2; ++l) {
                mpfr_set(a[k / 2 + l].backend().data(), a[l].backend().data(), MPFR_RNDN);
                mpfr_neg(b[(k / 2 + l) * n + 1].backend().data(), b[l * n + 1].backend().data(), MPFR_RNDN);
                if (k % 2 == 1) mpfr_set_zero(a[k - 1].backend().data(), 1);
            }
        std::size_t far_row = m, far_column = n;
        if (trial % 6 == 5 && m >= 3 && k >= 2 && n >= 2) {  // a row 2^-3000 apart within itself, a column with a NaN
            far_row = 2;
            mpfr_mul_2si(a[2 * k].backend().data(), a[2 * k].backend().data(), -3000, MPFR_RNDN);
            mpfr_set_nan(b[n - 1].backend().data());
        }
        INFO("trial " << trial);
        bool slices = false;
        taken += check_slices(a, b, m, k, n, precision, far_row, far_column, false, &slices);
        // Spans of a few hundred bits are sliced; 2^300 apart on both sides may need too many slices.
        if (spread <= 60) REQUIRE(slices);
        if (slices) entries += m * n;
    }
    CHECK(taken > entries * 9 / 10);
}

TEST_CASE("SlicedExactGemm by doubles: subnormals, extremes, chunks of k and every thread count") {
    std::mt19937_64 random(43);
    for (int trial = 0; trial < 12; ++trial) {
        const std::size_t m = 2 + trial % 5, k = 5 + 17 * trial, n = 3 + trial % 11;
        std::vector<TruthNumber> a;
        for (std::size_t i = 0; i < m * k; ++i) a.push_back(random_number(random, 256, 8));
        std::vector<double> b;
        // Subnormal doubles, or normal ones with column 0 holding every kind (zeros, subnormals, the
        // extremes, infinities, NaN: left to the exact products where its magnitudes lie far apart).
        for (std::size_t i = 0; i < k * n; ++i)
            b.push_back(trial % 2 == 0 ? std::ldexp(std::uniform_real_distribution<double>(-1, 1)(random), -1060)
                        : i % n == 0   ? adversarial_double(random, 40)
                                       : std::ldexp(std::uniform_real_distribution<double>(-1, 1)(random), trial));
        INFO("trial " << trial);
        CHECK(check_slices(a, b, m, k, n, 256, m, 0) >= m * (n - 1));
    }
    // k above one chunk (4096 products per exact double sum): the chunks' sums add exactly.
    std::vector<TruthNumber> a;
    std::vector<double> b;
    const std::size_t m = 2, k = 5000, n = 3;
    for (std::size_t i = 0; i < m * k; ++i) a.push_back(random_number(random, 256, 3));
    for (std::size_t i = 0; i < k * n; ++i) b.push_back(std::uniform_real_distribution<double>(0.5, 1)(random));
    CHECK(check_slices(a, b, m, k, n, 256, m, n) == m * n);
    // Every slice at its largest (significands of all ones) over a whole chunk: each exact double sum
    // comes within a factor 2 of 2^53, where a wider slice would round it. 4095 and 4096 products both
    // leave the two slices of a product 53 - 12 = 41 bits.
    for (const std::size_t full : {std::size_t{4095}, std::size_t{4096}}) {
        std::vector<TruthNumber> ones(full);
        for (TruthNumber& x : ones) {
            x = truth_number(256);
            mpfr_set_ui_2exp(x.backend().data(), 1, 0, MPFR_RNDN);
            mpfr_nextbelow(x.backend().data());  // 1 - 2^-256: 256 ones
        }
        const std::vector<double> largest(full, std::nextafter(1.0, 0.0));  // 53 ones
        CHECK(check_slices(ones, largest, 1, full, 1, 256, 1, 1) == 1);
    }
    // exact_gemm at a shape where it slices: the same numbers on 1, 2 and 3 threads, and MPFR's.
    const std::size_t rows = 9, depth = 200, columns = 70;
    std::vector<TruthNumber> x;
    for (std::size_t i = 0; i < rows * depth; ++i) x.push_back(random_number(random, 256, 4));
    std::vector<double> w;
    for (std::size_t i = 0; i < depth * columns; ++i)
        w.push_back(static_cast<float>(std::uniform_real_distribution<double>(-0.1, 0.1)(random)));
    REQUIRE(SlicedExactGemm<double>(x, w, rows, depth, columns).slices());
    const std::vector<TruthNumber> serial = exact_gemm_by_doubles(x, w, rows, depth, columns, 256);
    for (int threads : {2, 3}) {
        const TruthThreadsScope scope(threads);
        const std::vector<TruthNumber> parallel = exact_gemm_by_doubles(x, w, rows, depth, columns, 256);
        for (std::size_t e = 0; e < serial.size(); ++e) REQUIRE(same_number(serial[e], parallel[e]));
    }
    for (std::size_t e = 0; e < serial.size(); e += 37)
        CHECK(same_number(serial[e], reference_dot(row_of(x, e / columns, depth), column_of(w, e % columns, depth, columns),
                                                   256)));
}

TEST_CASE("exact_gemm takes a tall A a block of rows at a time: every entry MPFR's sum of exact products") {
    // 2000 x 300: more factors than one block holds (2^19), so rows 0-1746 and 1747-1999 go apart.
    // Row 1800 holds an infinity and row 1900's column 0 cancels exactly: entries the second block
    // leaves to the exact products and to mpfr_sum.
    std::mt19937_64 random(53);
    const std::size_t m = 2000, k = 300, n = 3;
    const int precision = 256;
    std::vector<TruthNumber> a;
    for (std::size_t i = 0; i < m * k; ++i) a.push_back(random_number(random, 256, 4));
    std::vector<double> b;
    for (std::size_t i = 0; i < k * n; ++i) b.push_back(adversarial_double(random, 30));
    mpfr_set_inf(a[1800 * k + 7].backend().data(), 1);
    for (std::size_t l = 0; l < k / 2; ++l) {
        mpfr_set(a[1900 * k + k / 2 + l].backend().data(), a[1900 * k + l].backend().data(), MPFR_RNDN);
        b[(k / 2 + l) * n] = -b[l * n];
    }
    std::vector<TruthNumber> b_numbers;
    for (double x : b) b_numbers.push_back(to_truth(std::span(&x, 1), 53).front());
    const std::vector<TruthNumber> by_doubles = exact_gemm_by_doubles(a, b, m, k, n, precision);
    const std::vector<TruthNumber> by_numbers = exact_gemm(a, b_numbers, m, k, n, precision);
    std::size_t compared = 0;
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const std::vector<TruthNumber> x(a.begin() + static_cast<long>(i * k),
                                             a.begin() + static_cast<long>((i + 1) * k));
            std::vector<TruthNumber> y;
            for (std::size_t l = 0; l < k; ++l) y.push_back(b_numbers[l * n + j]);
            const TruthNumber expected = reference_dot(x, y, precision);
            INFO("entry " << i << "," << j);
            REQUIRE(same_number(by_doubles[i * n + j], expected));
            REQUIRE(same_number(by_numbers[i * n + j], expected));
            ++compared;
        }
    CHECK(compared == m * n);
    CHECK(mpfr_zero_p(by_doubles[1900 * n].backend().data()));
}

TEST_CASE("exact_gemm_by_doubles with A in doubles too: every entry MPFR's sum of exact products") {
    // A graph's input by its weights: in half the trials float32 values as a network has them (pixels
    // in [0, 1] with zeros among them, weights about 0.1: the sliced path), in the others doubles of
    // every kind (subnormals, max, infinities, NaNs: the exact products); columns that cancel exactly;
    // a tall A (1800 x 300: two blocks of rows); on one thread and on two.
    std::mt19937_64 random(59);
    std::uniform_real_distribution<float> pixel(0, 1);
    std::normal_distribution<float> weight(0, 0.1f);
    std::size_t compared = 0;
    for (int trial = 0; trial < 41; ++trial) {
        const bool tall = trial == 40, plain = trial % 4 < 2 || tall;
        const int precision = std::vector<int>{80, 256, 600}[trial % 3];
        const std::size_t m = tall ? 1800 : 1 + trial % 5, k = tall ? 300 : 1 + trial % 23, n = 3;
        std::vector<double> a, b;
        for (std::size_t i = 0; i < m * k; ++i)
            a.push_back(plain ? (random() % 3 == 0 ? 0.0 : pixel(random))
                              : adversarial_double(random, trial % 2 == 0 ? 8 : 300));
        for (std::size_t i = 0; i < k * n; ++i)
            b.push_back(plain ? weight(random) : adversarial_double(random, trial % 3 == 0 ? 5 : 60));
        if (trial % 2 == 1 && k >= 2)  // column 1's second half cancels its first in the last row
            for (std::size_t l = 0; l < k / 2; ++l) {
                a[(m - 1) * k + k / 2 + l] = a[(m - 1) * k + l];
                b[(k / 2 + l) * n + 1] = -b[l * n + 1];
            }
        if (trial % 10 == 3) a[k - 1] = std::numeric_limits<double>::infinity();
        if (trial % 10 == 7) b[2] = std::numeric_limits<double>::quiet_NaN();
        const std::vector<TruthNumber> a_numbers = to_truth(a, 53);
        const std::vector<TruthNumber> serial =
            exact_gemm_by_doubles(std::span<const double>(a), b, m, k, n, precision);
        const TruthThreadsScope scope(2);
        const std::vector<TruthNumber> parallel =
            exact_gemm_by_doubles(std::span<const double>(a), b, m, k, n, precision);
        REQUIRE(serial.size() == m * n);
        for (std::size_t e = 0; e < m * n; ++e) {
            INFO("trial " << trial << " entry " << e / n << "," << e % n);
            const TruthNumber expected =
                reference_dot(row_of(a_numbers, e / n, k), column_of(b, e % n, k, n), precision);
            REQUIRE(same_number(serial[e], expected));
            REQUIRE(same_number(parallel[e], expected));
            ++compared;
        }
    }
    CHECK(compared == 3 * (1800 + 8 * (1 + 2 + 3 + 4 + 5)));
}
