// Arithmetic::apply_arrays against the MPFR reference of arithmetic_test_support, element by
// element, with the flags of all operations gathered. The arrays mix blocks of values whose results
// are normal (which the vectorized kernel rounds), blocks of random bit patterns (specials,
// subnormals, overflow: the element-by-element fallback) and blocks of normal values with a random
// pattern every 8th element (the kernel's results kept, only the marked ones redone).
#include "tests/emulation/arithmetic/arithmetic_test_support.hpp"

#include <array>

namespace {

using namespace arith_test;

constexpr std::size_t block = 256;  // apply_arrays' block length; the mix below alternates at it
constexpr std::size_t length = 8 * block + 37;  // and a short tail

/// Operand patterns for one operation: blocks 0, 3, 6, ... hold values with exponents in the middle
/// half of the format's range (products and quotients stay normal), blocks 1, 4, ... random
/// patterns, blocks 2, 5, ... middle values with every 8th a random pattern (signaling NaNs left
/// out: a double cannot carry them).
std::array<std::vector<std::uint64_t>, 3> operand_patterns(const FormatInfo& f, Operation op, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    const std::uint64_t width_mask = f.width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << f.width) - 1;
    auto middle_value = [&] {
        const int e = std::uniform_int_distribution<int>(f.emin / 2 + 1, f.emax / 2 - 1)(random);
        const double significand = 1.0 + std::ldexp(static_cast<double>(random() >> (64 - f.M)), -f.M);
        return (random() & 1 ? -1.0 : 1.0) * std::ldexp(significand, e);
    };
    std::array<std::vector<std::uint64_t>, 3> patterns;
    for (auto& p : patterns) {
        p.resize(length);
        for (std::size_t i = 0; i < length; ++i) {
            const std::size_t kind = (i / block) % 3;
            const bool clean = kind == 0 || (kind == 2 && i % 8 != 0);
            do {
                p[i] = clean ? f.encode(middle_value()) : random() & width_mask;
            } while (ref_operand(f, p[i]).signaling);
        }
    }
    if (op == Operation::Sqrt)
        for (std::size_t i = 0; i < length; i += 2) patterns[0][i] &= ~(std::uint64_t{1} << (f.width - 1));
    return patterns;
}

void check_arrays(const std::string& name, Tininess tininess, std::uint64_t seed) {
    const FormatInfo f(name);
    for (Operation op :
         {Operation::Add, Operation::Sub, Operation::Mul, Operation::Div, Operation::Sqrt, Operation::Fma}) {
        const auto patterns = operand_patterns(f, op, seed + static_cast<std::uint64_t>(op));
        std::array<std::vector<RefOperand>, 3> operands;
        std::array<std::vector<double>, 3> values;
        for (int k = 0; k < 3; ++k)
            for (std::uint64_t bits : patterns[k]) {
                operands[k].push_back(ref_operand(f, bits));
                values[k].push_back(operands[k].back().value);
            }
        for (RoundingMode mode : floatscope::test::ref_modes) {
            const Arithmetic arithmetic(f.spec, {mode, tininess, nullptr});
            std::vector<double> out(length);
            const std::uint8_t flags = arithmetic.apply_arrays(op, values[0], values[1], values[2], out).bits;
            Tally tally;
            std::uint8_t want_flags = 0;
            for (std::size_t i = 0; i < length; ++i) {
                const RefResult want =
                    ref_operation(f, op, operands[0][i], operands[1][i], operands[2][i], mode, tininess);
                want_flags |= want.flags;
                ++tally.checks;
                if (!same_double(out[i], want.nan ? quiet_nan : want.value)) {
                    const std::uint64_t bits[3] = {patterns[0][i], patterns[1][i], patterns[2][i]};
                    tally.fail("value", describe_operands(f, op, bits) + " gave " +
                                            floatscope::test::hex_double(out[i]) + ", want " +
                                            floatscope::test::hex_double(want.value));
                }
            }
            INFO(name << " " << op_name(op) << " " << mode_name(mode));
            ARITH_REPORT(tally);
            CHECK(flags_text(flags) == flags_text(want_flags));
            // A mixed block alone: its flags are the kernel's results' and the redone ones' together.
            const std::size_t mixed = 2 * block;
            auto slice = [&](const std::vector<double>& v) { return std::span<const double>(v).subspan(mixed, block); };
            std::vector<double> block_out(block);
            const std::uint8_t block_flags =
                arithmetic.apply_arrays(op, slice(values[0]), slice(values[1]), slice(values[2]), block_out).bits;
            std::uint8_t want_block_flags = 0;
            for (std::size_t i = mixed; i < mixed + block; ++i)
                want_block_flags |=
                    ref_operation(f, op, operands[0][i], operands[1][i], operands[2][i], mode, tininess).flags;
            CHECK(flags_text(block_flags) == flags_text(want_block_flags));
        }
    }
}

}  // namespace

TEST_CASE("apply_arrays: the MPFR reference, element by element, with the flags gathered", "[arithmetic][arrays]") {
    // fp16 sums and e4m3 fmas are exact in double (no error term); bf16, e6m9 and e5m2 need one;
    // fp32 is on the same path; fp64 and e9m10 take MPFR, so every block goes element by element.
    const char* formats[] = {"fp16", "bf16", "fp8_e4m3", "fp8_e5m2", "e6m9", "fp16:ftz", "fp32", "fp64", "e9m10"};
    std::uint64_t seed = 11;
    for (const char* name : formats) check_arrays(name, Tininess::AfterRounding, seed += 100);
    check_arrays("fp16", Tininess::BeforeRounding, 7);
    check_arrays("e6m9", Tininess::BeforeRounding, 8);
}

TEST_CASE("apply_arrays refuses arrays of different lengths and results that overlap the operands",
          "[arithmetic][arrays]") {
    const Arithmetic arithmetic(floatscope::core::parse_format("fp16"), {});
    std::vector<double> a(8, 1.0), b(7, 1.0), out(8);
    CHECK_THROWS_WITH(arithmetic.apply_arrays(Operation::Add, a, b, {}, out),
                      Catch::Contains("add over arrays: operands of 8, 7 and 0 elements for 8 results"));
    CHECK_THROWS_WITH(arithmetic.apply_arrays(Operation::Sqrt, a, {}, {}, std::span<double>(a).subspan(1)),
                      Catch::Contains("one element per result"));
    CHECK_THROWS_WITH(arithmetic.apply_arrays(Operation::Sqrt, a, {}, {}, a), Catch::Contains("must not overlap"));
    // Operands the operation does not take may be empty: sqrt reads a only.
    CHECK(arithmetic.apply_arrays(Operation::Sqrt, a, {}, {}, out).bits == 0);
    CHECK(out == a);
}
