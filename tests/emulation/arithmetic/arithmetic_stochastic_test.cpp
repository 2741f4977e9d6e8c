// emulation/arithmetic under stochastic rounding: unbiased in expectation, always one of the two
// neighbours of the exact result, reproducible from the seed; sr-equal picks each neighbour with
// probability 1/2. The exact result and its neighbours come from the MPFR reference.
#include "tests/emulation/arithmetic/arithmetic_test_support.hpp"

#include "core/stochastic_source.hpp"

namespace {

using namespace arith_test;
using floatscope::core::RoundingOptions;
using floatscope::core::StochasticSource;

/// An operation whose exact result x lies strictly between two neighbours lo < x < hi of the format.
struct InexactCase {
    std::string format;
    Operation op;
    std::uint64_t bits[3];
    double lo = 0, hi = 0;
    double p_hi = 0;  ///< (x - lo) / (hi - lo): the probability stochastic rounding must give hi
    std::uint8_t flags_lo = 0, flags_hi = 0;  ///< what rounding down / up to lo / hi raises
};

/// Fills the neighbours and the probability from the reference; false when x is exact (or special).
bool describe(const FormatInfo& f, InexactCase& c) {
    const RefOperand a = ref_operand(f, c.bits[0]), b = ref_operand(f, c.bits[1]), d = ref_operand(f, c.bits[2]);
    if (a.nan || b.nan || d.nan || a.inf || b.inf || d.inf) return false;
    if (c.op == Operation::Div && b.zero) return false;
    if (c.op == Operation::Sqrt && a.negative) return false;
    mpfr_srcptr x = ref_exact(f, c.op, a.value, b.value, d.value);
    if (!mpfr_number_p(x) || mpfr_zero_p(x)) return false;
    RefNumber xr(mpfr_get_prec(x));
    mpfr_set(xr.get(), x, MPFR_RNDN);
    const RefResult down = floatscope::test::ref_round(f.spec, xr.get(), RoundingMode::Downward);
    const RefResult up = floatscope::test::ref_round(f.spec, xr.get(), RoundingMode::Upward);
    if (down.nan || up.nan || !std::isfinite(down.value) || !std::isfinite(up.value) || down.value == up.value)
        return false;
    if ((down.flags | up.flags) & ref_flags::overflow) return false;
    c.lo = down.value;
    c.hi = up.value;
    c.flags_lo = down.flags;
    c.flags_hi = up.flags;
    // p = (x - lo) / (hi - lo), in MPFR (the differences are exact at 400 bits).
    RefNumber num(400), den(400), p(64);
    mpfr_sub_d(num.get(), xr.get(), c.lo, MPFR_RNDN);
    mpfr_set_d(den.get(), c.hi, MPFR_RNDN);
    mpfr_sub_d(den.get(), den.get(), c.lo, MPFR_RNDN);
    mpfr_div(p.get(), num.get(), den.get(), MPFR_RNDN);
    c.p_hi = mpfr_get_d(p.get(), MPFR_RNDN);
    return true;
}

/// Hand-picked cases and seeded random ones across formats, operations and paths (double with
/// error term: fp16 bf16 fp32 fp8; MPFR: fp64), including a subnormal result.
std::vector<InexactCase> inexact_cases() {
    std::vector<InexactCase> cases = {
        {"fp16", Operation::Add, {0x3C00, 0x0C00, 0}},  // 1 + 2^-12: p = 1/4
        {"fp16", Operation::Div, {0x3C00, 0x4200, 0}},  // 1 / 3
        {"fp16", Operation::Sqrt, {0x4000, 0, 0}},  // sqrt 2
        {"fp16", Operation::Mul, {0x0155, 0x3555, 0}},  // a subnormal product
        {"fp16", Operation::Fma, {0x3555, 0x3555, 0xB000}},  // 1/3 * 1/3 - 1/8 (approximately)
        {"bf16", Operation::Add, {0x3F80, 0x3B80, 0}},  // 1 + 2^-8: a tie, p = 1/2
        {"bf16", Operation::Mul, {0x3EAB, 0x3EAB, 0}},
        {"bf16", Operation::Div, {0x3F80, 0x4040, 0}},  // 1 / 3
        {"fp32", Operation::Div, {0x3F800000, 0x40400000, 0}},
        {"fp8_e4m3", Operation::Mul, {0x3B, 0x3D, 0}},
        {"fp64", Operation::Div, {0x3FF0000000000000, 0x4008000000000000, 0}},  // 1/3 in fp64 (MPFR path)
        {"fp64", Operation::Add, {0x3FF0000000000000, 0x3C90000000000000, 0}},  // 1 + 2^-54: p = 1/4
    };
    std::mt19937_64 random(77);
    for (const char* name : {"fp16", "bf16", "e6m9"})
        for (Operation op : {Operation::Add, Operation::Mul, Operation::Div, Operation::Fma}) {
            const FormatInfo f(name);
            for (int found = 0; found < 2;) {
                InexactCase c{name, op, {random() & f.mask(), random() & f.mask(), random() & f.mask()}};
                if (!describe(f, c) || c.p_hi < 0.02 || c.p_hi > 0.98 || std::fabs(c.lo) < f.min_normal) continue;
                cases.push_back(c);
                ++found;
            }
        }
    for (InexactCase& c : cases) {
        const bool ok = describe(FormatInfo(c.format), c);
        INFO(c.format << " " << op_name(c.op));
        REQUIRE(ok);
    }
    return cases;
}

floatscope::core::Rounded run(const Arithmetic& arith, const InexactCase& c) {
    return arith.apply(c.op, c.bits[0], c.bits[1], c.bits[2]);
}

}  // namespace

TEST_CASE("stochastic rounding is unbiased: the mean of many roundings is the exact result",
          "[arithmetic][stochastic]") {
    const std::size_t N = 200000;
    std::uint64_t seed = 1234;
    for (const InexactCase& c : inexact_cases()) {
        const FormatInfo f(c.format);
        StochasticSource source(seed++);
        const Arithmetic arith(f.spec, RoundingOptions{RoundingMode::Stochastic, Tininess::AfterRounding, &source});
        const std::uint64_t lo_bits = f.encode(c.lo), hi_bits = f.encode(c.hi);
        std::size_t count_hi = 0, strays = 0, wrong_flags = 0;
        for (std::size_t i = 0; i < N; ++i) {
            const floatscope::core::Rounded r = run(arith, c);
            if (r.bits == hi_bits && r.value == c.hi) {
                ++count_hi;
                if (r.flags.bits != c.flags_hi) ++wrong_flags;
            } else if (r.bits == lo_bits && r.value == c.lo) {
                if (r.flags.bits != c.flags_lo) ++wrong_flags;
            } else {
                ++strays;
            }
        }
        // mean - x = (hi - lo)(k/N - p); the per-draw variance is (hi - x)(x - lo) = (hi - lo)^2 p (1 - p),
        // so five standard deviations of the mean bound |k/N - p| by 5 sqrt(p (1 - p) / N).
        const double frequency = static_cast<double>(count_hi) / N;
        const double sigma = std::sqrt(c.p_hi * (1 - c.p_hi) / N);
        INFO(c.format << " " << describe_operands(f, c.op, c.bits) << ": lo " << c.lo << " hi " << c.hi << " p(hi) "
                      << c.p_hi << " frequency " << frequency);
        CHECK(strays == 0);
        CHECK(wrong_flags == 0);
        CHECK(std::fabs(frequency - c.p_hi) <= 5 * sigma);
    }
}

TEST_CASE("stochastic rounding: the same seed gives the same sequence, apply_values follows apply",
          "[arithmetic][stochastic]") {
    const std::vector<InexactCase> cases = inexact_cases();
    for (RoundingMode mode : {RoundingMode::Stochastic, RoundingMode::StochasticEqual}) {
        for (const InexactCase& c : cases) {
            const FormatInfo f(c.format);
            StochasticSource s1(99), s2(99), s3(99), s4(100);
            const Arithmetic a1(f.spec, RoundingOptions{mode, Tininess::AfterRounding, &s1});
            const Arithmetic a2(f.spec, RoundingOptions{mode, Tininess::AfterRounding, &s2});
            const Arithmetic a3(f.spec, RoundingOptions{mode, Tininess::AfterRounding, &s3});
            const Arithmetic a4(f.spec, RoundingOptions{mode, Tininess::AfterRounding, &s4});
            const double va = f.decode(c.bits[0]), vb = f.decode(c.bits[1]), vc = f.decode(c.bits[2]);
            std::size_t same = 0, by_value_same = 0, other_seed_same = 0;
            const std::size_t n = 2000;
            for (std::size_t i = 0; i < n; ++i) {
                const auto r1 = run(a1, c), r2 = run(a2, c), r4 = run(a4, c);
                const auto r3 = a3.apply_values(c.op, va, vb, vc);
                same += r1.bits == r2.bits && r1.flags == r2.flags;
                by_value_same += r1.bits == r3.bits && r1.value == r3.value && r1.flags == r3.flags;
                other_seed_same += r1.bits == r4.bits;
            }
            INFO(floatscope::core::to_string(mode) << " " << c.format << " " << describe_operands(f, c.op, c.bits));
            CHECK(same == n);
            CHECK(by_value_same == n);
            // Another seed gives another sequence (each draw matches with probability <= 0.98).
            CHECK(other_seed_same < n);
            // Reseeding restarts the sequence.
            s1.reseed(99);
            StochasticSource fresh(99);
            const Arithmetic a5(f.spec, RoundingOptions{mode, Tininess::AfterRounding, &fresh});
            std::size_t restarted = 0;
            for (std::size_t i = 0; i < 100; ++i) restarted += run(a1, c).bits == run(a5, c).bits;
            CHECK(restarted == 100);
        }
    }
}

TEST_CASE("sr-equal picks each neighbour with probability 1/2", "[arithmetic][stochastic]") {
    const std::size_t N = 200000;
    std::uint64_t seed = 4321;
    for (const InexactCase& c : inexact_cases()) {
        const FormatInfo f(c.format);
        StochasticSource source(seed++);
        const Arithmetic arith(f.spec,
                               RoundingOptions{RoundingMode::StochasticEqual, Tininess::AfterRounding, &source});
        const std::uint64_t lo_bits = f.encode(c.lo), hi_bits = f.encode(c.hi);
        std::size_t count_hi = 0, strays = 0;
        for (std::size_t i = 0; i < N; ++i) {
            const floatscope::core::Rounded r = run(arith, c);
            if (r.bits == hi_bits)
                ++count_hi;
            else if (r.bits != lo_bits)
                ++strays;
        }
        // Binomial(N, 1/2): five standard deviations are 5 sqrt(N) / 2.
        INFO(c.format << " " << describe_operands(f, c.op, c.bits) << ": " << count_hi << " of " << N << " up");
        CHECK(strays == 0);
        CHECK(std::fabs(static_cast<double>(count_hi) - N / 2.0) <= 5 * std::sqrt(static_cast<double>(N)) / 2);
    }
}

TEST_CASE("stochastic rounding leaves exact results and special cases alone", "[arithmetic][stochastic]") {
    StochasticSource source(5);
    for (RoundingMode mode : {RoundingMode::Stochastic, RoundingMode::StochasticEqual}) {
        for (const char* name : {"fp16", "bf16", "fp8_e4m3", "fp64"}) {
            const FormatInfo f(name);
            const Arithmetic arith(f.spec, RoundingOptions{mode, Tininess::AfterRounding, &source});
            const std::uint64_t one = f.encode(1.0), two = f.encode(2.0), three = f.encode(3.0), zero = f.encode(0.0);
            INFO(name << " " << floatscope::core::to_string(mode));
            for (int i = 0; i < 200; ++i) {
                const auto sum = arith.apply(Operation::Add, one, two);
                CHECK((sum.bits == three && sum.value == 3.0 && sum.flags.bits == 0));
                const auto product = arith.apply(Operation::Mul, two, f.encode(1.5));
                CHECK((product.bits == three && product.flags.bits == 0));
                const auto root = arith.apply(Operation::Sqrt, f.encode(4.0));
                CHECK((root.bits == two && root.flags.bits == 0));
                // x - x = +0 (never -0: stochastic rounding is not rounding downward).
                const auto difference = arith.apply(Operation::Sub, three, three);
                CHECK((difference.bits == zero && !std::signbit(difference.value) && difference.flags.bits == 0));
            }
            // x / 0: divide-by-zero, the format's infinite result (NaN in fp8_e4m3).
            const RefOperand a = ref_operand(f, one), z = ref_operand(f, zero), none{};
            const RefResult want =
                ref_operation(f, Operation::Div, a, z, none, RoundingMode::NearestEven, Tininess::AfterRounding);
            CHECK(matches(f, arith.apply(Operation::Div, one, zero), want));
        }
    }
}
