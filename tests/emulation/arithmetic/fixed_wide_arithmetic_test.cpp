// Tests of emu::FixedWideArithmetic (WideArithmetic's fixed-size path) against WideArithmetic's MPFR
// path, bit for bit, flags and stochastic draws included: random patterns over the whole exponent
// range, and operands built for the hard cases (ties, overflow and underflow boundaries,
// cancellation, tiny fma products, signed zeros, NaN and infinity), in every rounding mode.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/stochastic_source.hpp"
#include "emulation/arithmetic/wide_arithmetic.hpp"
#include "tests/emulation/arithmetic/wide_patterns.hpp"

using namespace floatscope::core;
using floatscope::emu::Operation;
using floatscope::emu::WideArithmetic;
using floatscope::emu::WidePath;
using floatscope::test::PatternSource;

namespace {

constexpr Operation fixed_operations[] = {Operation::Add, Operation::Sub, Operation::Mul, Operation::Fma};

using Operands = std::array<mpz_class, 3>;

/// Operands built for the cases where rounding is hardest to get right, in any binary format.
class HardOperands {
public:
    HardOperands(const FormatSpec& spec, std::uint64_t seed)
        : spec_(spec), random_(spec, seed), nearest_(spec, {}, WidePath::Mpfr) {}

    Operands next(Operation op) {
        const std::int64_t emax = top_ - 1 - spec_.bias;
        switch (random_.pick(9)) {
            case 0: {
                // Ties and near ties: b about half an ulp of a (add), or b = 1 + a few ulps (mul).
                const std::int64_t f = 1 + static_cast<std::int64_t>(random_.pick(top_ - 1));
                const Operands sum{pattern(sign(), f, mantissa()),
                                   pattern(sign(), f - p_ + shift(-2, 2), short_mantissa()),
                                   pattern(sign(), f - p_ + shift(-2, 2), short_mantissa())};
                if (op != Operation::Mul) return sum;
                return {sum[0], pattern(sign(), spec_.bias, mpz_class(static_cast<unsigned long>(random_.pick(4)))),
                        sum[2]};
            }
            case 1: {
                // Just below and above overflow: the largest value plus half an ulp or so, or a
                // product of about 2^emax.
                const mpz_class max = pattern(false, top_ - 1, ones(spec_.mantissa_bits));
                const bool s = sign();
                if (op == Operation::Add || op == Operation::Sub) {
                    const bool sb = op == Operation::Sub ? !s : s;
                    return {with_sign(max, s), pattern(sb, top_ - 1 - p_ + shift(-1, 2), short_mantissa()), 0};
                }
                const std::int64_t h = static_cast<std::int64_t>(random_.pick(static_cast<std::uint64_t>(emax)));
                return {pattern(s, spec_.bias + h, mantissa()),
                        pattern(sign(), spec_.bias + emax - h + shift(-1, 1), mantissa()),
                        random_.pick(2) == 0 ? with_sign(max, sign()) : pattern(sign(), spec_.bias, mantissa())};
            }
            case 2: {
                // Results at and below the subnormal range: products near 2^emin, sums of subnormals.
                if (op == Operation::Add || op == Operation::Sub)
                    return {pattern(sign(), static_cast<std::int64_t>(random_.pick(3)), mantissa()),
                            pattern(sign(), static_cast<std::int64_t>(random_.pick(3)), mantissa()), 0};
                const std::int64_t emin = 1 - spec_.bias;
                const std::int64_t h = static_cast<std::int64_t>(random_.pick(static_cast<std::uint64_t>(emax)));
                const std::int64_t fb = emin + shift(-p_ - 3, 2) - h + spec_.bias;
                const mpz_class b = fb >= 1 ? pattern(sign(), fb, mantissa()) : pattern(sign(), 0, mantissa());
                const Operands product{pattern(sign(), spec_.bias + h, mantissa()), b, 0};
                return {product[0], product[1],
                        random_.pick(2) == 0 ? pattern(sign(), static_cast<std::int64_t>(random_.pick(2)), mantissa())
                                             : opposite_of_product(product[0], product[1], 0)};
            }
            case 3: {
                // Massive cancellation in a sum: b = -(a + k ulps).
                const mpz_class a = pattern(sign(), static_cast<std::int64_t>(random_.pick(top_)), mantissa());
                // k ulps of the magnitude, within the finite values of its sign.
                const mpz_class magnitude = with_sign(a, false) + shift(-3, 3);
                const mpz_class max = pattern(false, top_ - 1, ones(spec_.mantissa_bits));
                mpz_class b =
                    with_sign(magnitude < 0 || magnitude > max ? with_sign(a, false) : magnitude, !negative(a));
                if (op == Operation::Sub) b = with_sign(b, !negative(b));
                return {a, op == Operation::Mul ? pattern(sign(), spec_.bias, mantissa()) : b, b};
            }
            case 4: {
                // fma: c = -(a * b rounded) + k ulps, a * b exact in the wide product.
                const std::int64_t fa = spec_.bias + shift(-static_cast<int>(emax) / 2, static_cast<int>(emax) / 2);
                const std::int64_t fb = 2 * spec_.bias - fa + shift(-20, 20);
                const mpz_class a = pattern(sign(), fa, mantissa()), b = pattern(sign(), fb, mantissa());
                return {a, b, opposite_of_product(a, b, shift(-2, 2))};
            }
            case 5: {
                // fma whose product is tiny against c, down to far below c's last bit.
                const std::int64_t fc = 1 + static_cast<std::int64_t>(random_.pick(top_ - 1));
                const std::int64_t below = random_.pick(4) == 0 ? static_cast<std::int64_t>(random_.pick(3000))
                                                                : static_cast<std::int64_t>(random_.pick(3 * p_ + 70));
                const std::int64_t fa = spec_.bias + shift(-30, 30);
                const std::int64_t fb = fc - below - (fa - spec_.bias);
                return {pattern(sign(), fa, mantissa()),
                        pattern(sign(), std::clamp<std::int64_t>(fb, 0, top_ - 1), mantissa()),
                        pattern(sign(), fc, mantissa())};
            }
            case 6: {
                // Signed zeros: zeros and opposite values, and exact fma cancellations (short significands).
                const mpz_class x = pattern(sign(), spec_.bias + shift(-8, 8), short_mantissa());
                const mpz_class y = pattern(sign(), spec_.bias + shift(-8, 8), short_mantissa());
                const mpz_class choices[] = {pattern(false, 0, 0), pattern(true, 0, 0), x, with_sign(x, !negative(x))};
                if (op == Operation::Fma && random_.pick(2) == 0) return {x, y, opposite_of_product(x, y, 0)};
                return {choices[random_.pick(4)], choices[random_.pick(4)], choices[random_.pick(4)]};
            }
            case 7: {
                // NaNs (quiet and signaling, with payloads), infinities, zeros and extremes.
                auto special = [&] {
                    const int M = spec_.mantissa_bits;
                    switch (random_.pick(6)) {
                        case 0: return pattern(sign(), top_, (mpz_class(1) << (M - 1)) + random_.random_bits(M - 1));
                        case 1: return pattern(sign(), top_, random_.random_bits(M - 1) + 1);  // signaling
                        case 2: return pattern(sign(), top_, 0);
                        case 3: return pattern(sign(), 0, random_.pick(2));
                        case 4: return pattern(sign(), top_ - 1, ones(M));
                        default: return random_.next();
                    }
                };
                return {special(), special(), special()};
            }
            default: return {random_.next(), random_.next(), random_.next()};
        }
    }

private:
    bool sign() { return random_.pick(2) == 0; }
    int shift(int low, int high) {
        return low + static_cast<int>(random_.pick(static_cast<std::uint64_t>(high - low + 1)));
    }
    mpz_class ones(int n) { return (mpz_class(1) << n) - 1; }
    /// A random, all-ones, zero, lowest-bit-only or leading-bits-only mantissa.
    mpz_class mantissa() {
        switch (random_.pick(5)) {
            case 0: return ones(spec_.mantissa_bits);
            case 1: return 0;
            case 2: return 1;
            case 3: return short_mantissa();
            default: return random_.random_bits(spec_.mantissa_bits);
        }
    }
    mpz_class short_mantissa() {
        const int kept = 1 + static_cast<int>(random_.pick(static_cast<std::uint64_t>(spec_.mantissa_bits / 2)));
        return random_.random_bits(kept) << (spec_.mantissa_bits - kept);
    }
    mpz_class pattern(bool negative, std::int64_t field, const mpz_class& mantissa) const {
        field = std::clamp<std::int64_t>(field, 0, top_);
        mpz_class bits = (mpz_class(static_cast<unsigned long>(field)) << spec_.mantissa_bits) + mantissa;
        if (negative) bits += mpz_class(1) << (spec_.exponent_bits + spec_.mantissa_bits);
        return bits;
    }
    bool negative(const mpz_class& bits) const {
        return mpz_tstbit(bits.get_mpz_t(), spec_.exponent_bits + spec_.mantissa_bits) != 0;
    }
    mpz_class with_sign(const mpz_class& bits, bool negative_sign) const {
        mpz_class magnitude = bits;
        mpz_clrbit(magnitude.get_mpz_t(), spec_.exponent_bits + spec_.mantissa_bits);
        return negative_sign ? mpz_class(magnitude + (mpz_class(1) << (spec_.exponent_bits + spec_.mantissa_bits)))
                             : magnitude;
    }
    /// -(a * b rounded to nearest), k ulps further (a finite pattern).
    mpz_class opposite_of_product(const mpz_class& a, const mpz_class& b, int k) const {
        const mpz_class product = nearest_.apply(Operation::Mul, a, b).bits;
        mpz_class c = with_sign(product, !negative(product));
        const ValueClass kind = decode_wide_bits(spec_, c).value_class;
        if (kind == ValueClass::NaN || kind == ValueClass::Infinite) return c;
        const mpz_class stepped = c + k;
        const bool in_width =
            stepped >= 0 && mpz_sizeinbase(stepped.get_mpz_t(), 2) <= static_cast<std::size_t>(spec_.total_bits());
        return in_width && decode_wide_bits(spec_, stepped).value_class == ValueClass::Normal ? stepped : c;
    }

    FormatSpec spec_;
    PatternSource random_;
    WideArithmetic nearest_;
    std::int64_t top_ = (std::int64_t{1} << spec_.exponent_bits) - 1;
    int p_ = spec_.mantissa_bits + 1;
};

/// One rounding set-up: the mode, tininess and, for sr, the rule.
struct Setup {
    RoundingMode mode;
    Tininess tininess;
    StochasticRule rule;
};

std::vector<Setup> all_setups() {
    std::vector<Setup> setups;
    for (RoundingMode mode : all_rounding_modes)
        for (Tininess tininess : {Tininess::AfterRounding, Tininess::BeforeRounding})
            setups.push_back({mode, tininess, {}});
    for (StochasticRule rule : {StochasticRule{StochasticVariant::A, 5}, StochasticRule{StochasticVariant::B, 13},
                                StochasticRule{StochasticVariant::C, 40}})
        setups.push_back({RoundingMode::Stochastic, Tininess::AfterRounding, rule});
    return setups;
}

/// Runs `cases` operand triples of each operation through both paths under every set-up; returns
/// how many were compared. `operands(op)` gives the next triple.
template <typename NextOperands>
std::size_t compare_paths(const FormatSpec& spec, int cases, NextOperands&& operands) {
    std::size_t compared = 0;
    for (const Setup& setup : all_setups()) {
        StochasticSource fixed_random(41, setup.rule), mpfr_random(41, setup.rule);
        const WideArithmetic fixed(spec, {setup.mode, setup.tininess, &fixed_random}, WidePath::FixedLimbs);
        const WideArithmetic mpfr(spec, {setup.mode, setup.tininess, &mpfr_random}, WidePath::Mpfr);
        REQUIRE(fixed.path() == WidePath::FixedLimbs);
        REQUIRE(mpfr.path() == WidePath::Mpfr);
        for (Operation op : fixed_operations) {
            for (int i = 0; i < cases; ++i) {
                const Operands x = operands(op);
                const WideRounded expected = mpfr.apply(op, x[0], x[1], x[2]);
                const WideRounded actual = fixed.apply(op, x[0], x[1], x[2]);
                ++compared;
                if (actual.bits == expected.bits && actual.flags == expected.flags) continue;
                INFO(spec.name << ' ' << to_string(setup.mode) << ' ' << floatscope::emu::to_string(op) << ' '
                               << format_wide_bits_hex(spec, x[0]) << ' ' << format_wide_bits_hex(spec, x[1]) << ' '
                               << format_wide_bits_hex(spec, x[2])
                               << (setup.tininess == Tininess::AfterRounding ? "" : " before") << " rule "
                               << to_string(setup.rule.variant) << setup.rule.random_bits);
                CHECK(format_wide_bits_hex(spec, actual.bits) == format_wide_bits_hex(spec, expected.bits));
                CHECK(flags_hex(actual.flags) == flags_hex(expected.flags));
            }
        }
        // Both paths drew the same number of random words.
        CHECK(fixed_random.next() == mpfr_random.next());
    }
    return compared;
}

// binary128, e11m116, e2m125 and e15m63 (x87's extended precision, whose products fill 128 bits)
// take patterns of two limbs; binary256, e15m240 and e8m200 four (e2m125's sums take the 2P-limb
// frame, the others' P + 1 limbs); the narrow formats check the corners of small exponent ranges,
// flushing and saturation.
const char* const tested_formats[] = {"binary128", "e11m116", "e2m125", "e15m63",   "binary256", "e15m240",
                                      "e8m200",    "fp64",    "fp32",   "fp16:ftz", "e4m3:sat",  "e5m2"};

}  // namespace

TEST_CASE("the fixed-size path matches the MPFR path on random patterns", "[wide][fixed]") {
    for (const char* name : tested_formats) {
        const FormatSpec spec = parse_format(name);
        PatternSource patterns(spec, 7);
        const std::size_t compared = compare_paths(spec, 150, [&](Operation) {
            return Operands{patterns.next(), patterns.next(), patterns.next()};
        });
        CHECK(compared > 10000);
    }
}

TEST_CASE("the fixed-size path matches the MPFR path on hard operands", "[wide][fixed]") {
    for (const char* name : tested_formats) {
        const FormatSpec spec = parse_format(name);
        HardOperands hard(spec, 11);
        const std::size_t compared = compare_paths(spec, 400, [&](Operation op) { return hard.next(op); });
        CHECK(compared > 10000);
    }
}

TEST_CASE("the fixed-size path takes formats of up to 256 bits and refuses bad patterns", "[wide][fixed]") {
    CHECK(WideArithmetic(parse_format("binary128"), {}).path() == WidePath::FixedLimbs);
    CHECK(WideArithmetic(parse_format("e15m240"), {}).path() == WidePath::FixedLimbs);
    CHECK(WideArithmetic(parse_format("e19m300"), {}).path() == WidePath::Mpfr);
    const WideArithmetic quad(parse_format("binary128"), {});
    CHECK_THROWS_AS(quad.apply(Operation::Add, mpz_class(1) << 128, 0), floatscope::Error);
    CHECK_THROWS_AS(quad.apply(Operation::Mul, 1, mpz_class(1) << 200), floatscope::Error);
    CHECK_THROWS_AS(quad.apply(Operation::Add, -1, 0), floatscope::Error);
    const floatscope::emu::FixedWideArithmetic<2> fixed(parse_format("binary128"), {});
    CHECK_THROWS_AS(fixed.apply(Operation::Div, {}, {}), floatscope::Error);
    CHECK_THROWS_AS(floatscope::emu::FixedWideArithmetic<2>(parse_format("binary256"), {}), floatscope::Error);
}
