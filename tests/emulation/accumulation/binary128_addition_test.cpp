// add_binary128's flags against MPFR's ternary value for the same sum at 113 bits (binary128's
// rounding with an exponent range MPFR sets to binary128's), on random and adversarial operands:
// equal and far-apart exponents, carries into the next binade, cancellations, subnormals, the
// largest values.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <mpfr.h>

#include "emulation/accumulation/binary128_addition.hpp"
#include "tests/core/mpfr_reference.hpp"

namespace {

using Bits = unsigned __int128;
using floatscope::core::ExceptionFlags;
using floatscope::test::RefNumber;

__float128 from_fields(bool negative, unsigned field, Bits fraction) {
    const Bits bits = (static_cast<Bits>(negative) << 127) | (static_cast<Bits>(field) << 112) |
                      (fraction & ((static_cast<Bits>(1) << 112) - 1));
    return std::bit_cast<__float128>(bits);
}

/// A binary128 number into MPFR from its fields, exactly (independent of binary128_to_mpfr).
void to_mpfr(__float128 x, mpfr_ptr out) {
    const Bits bits = std::bit_cast<Bits>(x);
    const auto field = static_cast<long>((bits >> 112) & 0x7FFF);
    const Bits fraction = bits & ((static_cast<Bits>(1) << 112) - 1);
    const Bits significand = field == 0 ? fraction : fraction | (static_cast<Bits>(1) << 112);
    mpfr_set_ui(out, static_cast<unsigned long>(significand >> 64), MPFR_RNDN);
    mpfr_mul_2ui(out, out, 64, MPFR_RNDN);
    mpfr_add_ui(out, out, static_cast<unsigned long>(significand), MPFR_RNDN);
    mpfr_mul_2si(out, out, (field == 0 ? 1 : field) - 16383 - 112, MPFR_RNDN);
    if ((bits >> 127) != 0) mpfr_neg(out, out, MPFR_RNDN);
}

/// Whether a + b is inexact in binary128 (rne, subnormals, overflow), by MPFR.
bool mpfr_inexact(__float128 a, __float128 b) {
    RefNumber x(113), y(113), s(113);
    to_mpfr(a, x.get());
    to_mpfr(b, y.get());
    const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-16382 - 113 + 2);
    mpfr_set_emax(16384);
    int ternary = mpfr_add(s.get(), x.get(), y.get(), MPFR_RNDN);
    ternary = mpfr_check_range(s.get(), ternary, MPFR_RNDN);
    ternary = mpfr_subnormalize(s.get(), ternary, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    return ternary != 0;
}

}  // namespace

TEST_CASE("add_binary128 flags inexact exactly where MPFR's sum is inexact", "[accumulation][binary128]") {
    std::mt19937_64 rng(42);
    auto fraction = [&] { return (static_cast<Bits>(rng()) << 64) | rng(); };
    // Fractions with many trailing zeros make exact sums likely; the fields near each other or far apart.
    auto trailing = [&](Bits f) { return f & ~((static_cast<Bits>(1) << (rng() % 113)) - 1); };
    std::vector<std::pair<__float128, __float128>> pairs;
    for (int i = 0; i < 200000; ++i) {
        const unsigned base = 1 + static_cast<unsigned>(rng() % 32765);
        const unsigned kind = static_cast<unsigned>(rng() % 6);
        unsigned other = base;
        if (kind == 1) other = base > 120 ? base - static_cast<unsigned>(rng() % 120) : base;
        if (kind == 2) other = static_cast<unsigned>(rng() % 32767);  // anything, subnormals (0) too
        if (kind == 3) other = base > 1 ? base - 1 : base;
        const unsigned first = kind == 4 ? static_cast<unsigned>(rng() % 3) : base;  // subnormal, tiny
        const unsigned second = kind == 4 ? static_cast<unsigned>(rng() % 3) : other;
        const Bits fa = kind == 5 ? fraction() : trailing(fraction());
        Bits fb = trailing(fraction());
        if (kind == 5) fb = fa ^ (static_cast<Bits>(1) << (rng() % 112));  // near-cancellation
        pairs.push_back({from_fields(rng() & 1, first, fa), from_fields(rng() & 1, second, fb)});
    }
    const __float128 largest = from_fields(false, 32766, ~Bits{0});
    pairs.push_back({largest, largest});  // overflow
    pairs.push_back({largest, from_fields(false, 32766 - 113, 0)});  // exactly half an ulp: rounds to even
    pairs.push_back({from_fields(false, 1, 0), from_fields(true, 0, 1)});  // normal minus subnormal
    pairs.push_back({from_fields(false, 20000, 1), from_fields(true, 20000, 0)});  // exact cancellation
    int wrong = 0, inexact = 0;
    for (const auto& [a, b] : pairs) {
        const floatscope::emu::Binary128Sum r = floatscope::emu::add_binary128(a, b);
        const bool expected = mpfr_inexact(a, b);
        inexact += expected;
        if (r.flags.has(ExceptionFlags::inexact) != expected) ++wrong;
    }
    CHECK(wrong == 0);
    // Both outcomes are common, so that a check that always says one of them fails.
    CHECK(inexact > 10000);
    CHECK(inexact < static_cast<int>(pairs.size()) - 10000);
}

TEST_CASE("binary128_bits::from_double equals GCC's conversion bit for bit", "[accumulation][binary128]") {
    // Random patterns (every class: normal, subnormal, zero, inf, NaN) and each binade's edges.
    std::mt19937_64 rng(7);
    std::vector<double> values;
    for (int i = 0; i < 100000; ++i) values.push_back(std::bit_cast<double>(rng()));
    for (int e = -1074; e <= 1023; ++e)
        for (double sign : {1.0, -1.0}) {
            values.push_back(sign * std::ldexp(1.0, e));
            values.push_back(sign * std::nextafter(std::ldexp(1.0, e), 0.0));
        }
    values.push_back(0.0), values.push_back(-0.0);
    int wrong = 0;
    for (const double x : values)
        wrong += std::bit_cast<Bits>(floatscope::emu::binary128_bits::from_double(x)) !=
                 std::bit_cast<Bits>(static_cast<__float128>(x));
    CHECK(wrong == 0);
}
