// emulation/arithmetic, exhaustively on the small formats: every operand pair of + - * /, every
// operand of sqrt, every triple of fma in FP4 (sampled in FP8; the full FP8 fma sweep is behind
// the hidden tag [.exhaustive]), in the six deterministic modes, against the MPFR reference.
#include "tests/emulation/arithmetic/arithmetic_test_support.hpp"

namespace {

using namespace arith_test;

constexpr Operation binary_ops[] = {Operation::Add, Operation::Sub, Operation::Mul, Operation::Div};

/// Arithmetic per reference mode.
std::vector<Arithmetic> arithmetics(const FormatInfo& f, Tininess tininess) {
    std::vector<Arithmetic> out;
    for (RoundingMode mode : floatscope::test::ref_modes)
        out.emplace_back(f.spec, floatscope::core::RoundingOptions{mode, tininess, nullptr});
    return out;
}

std::vector<RefOperand> all_operands(const FormatInfo& f) {
    std::vector<RefOperand> out;
    for (std::uint64_t bits : floatscope::core::all_bit_patterns(f.spec)) out.push_back(ref_operand(f, bits));
    REQUIRE(out.size() == (std::size_t{1} << f.width));
    return out;
}

void sweep_format(const std::string& name, Tininess tininess, Tally& tally) {
    const FormatInfo f(name);
    const std::vector<RefOperand> operands = all_operands(f);
    const std::vector<Arithmetic> arith = arithmetics(f, tininess);
    const RefOperand none{};
    for (Operation op : binary_ops) {
        for (const RefOperand& a : operands)
            for (const RefOperand& b : operands) {
                const RefOperand triple[3] = {a, b, none};
                const std::uint64_t bits[3] = {a.bits, b.bits, 0};
                for (std::size_t m = 0; m < arith.size(); ++m)
                    check_case(f, arith[m], op, bits, triple, floatscope::test::ref_modes[m], tininess, tally);
            }
    }
    for (const RefOperand& a : operands) {
        const RefOperand triple[3] = {a, none, none};
        const std::uint64_t bits[3] = {a.bits, 0, 0};
        for (std::size_t m = 0; m < arith.size(); ++m)
            check_case(f, arith[m], Operation::Sqrt, bits, triple, floatscope::test::ref_modes[m], tininess, tally);
    }
}

void sweep_fma(const std::string& name, Tininess tininess, std::size_t samples, std::uint64_t seed, Tally& tally) {
    const FormatInfo f(name);
    const std::vector<RefOperand> operands = all_operands(f);
    const std::vector<Arithmetic> arith = arithmetics(f, tininess);
    const std::size_t n = operands.size();
    auto one = [&](const RefOperand& a, const RefOperand& b, const RefOperand& c) {
        const RefOperand triple[3] = {a, b, c};
        const std::uint64_t bits[3] = {a.bits, b.bits, c.bits};
        for (std::size_t m = 0; m < arith.size(); ++m)
            check_case(f, arith[m], Operation::Fma, bits, triple, floatscope::test::ref_modes[m], tininess, tally);
    };
    if (samples == 0) {
        for (const RefOperand& a : operands)
            for (const RefOperand& b : operands)
                for (const RefOperand& c : operands) one(a, b, c);
        return;
    }
    std::mt19937_64 random(seed);
    for (std::size_t i = 0; i < samples; ++i)
        one(operands[random() % n], operands[random() % n], operands[random() % n]);
}

}  // namespace

TEST_CASE("exhaustive: fp8_e4m3 + - * / sqrt in every mode", "[arithmetic][exhaustive-small]") {
    Tally tally;
    sweep_format("fp8_e4m3", Tininess::AfterRounding, tally);
    ARITH_REPORT(tally);
}

TEST_CASE("exhaustive: fp8_e5m2 + - * / sqrt in every mode", "[arithmetic][exhaustive-small]") {
    Tally tally;
    sweep_format("fp8_e5m2", Tininess::AfterRounding, tally);
    ARITH_REPORT(tally);
}

TEST_CASE("exhaustive: e4m3fnuz + - * / sqrt in every mode", "[arithmetic][exhaustive-small]") {
    Tally tally;
    sweep_format("e4m3fnuz", Tininess::AfterRounding, tally);
    ARITH_REPORT(tally);
}

TEST_CASE("exhaustive: e5m2fnuz + - * / sqrt in every mode", "[arithmetic][exhaustive-small]") {
    Tally tally;
    sweep_format("e5m2fnuz", Tininess::AfterRounding, tally);
    ARITH_REPORT(tally);
}

TEST_CASE("exhaustive: saturating fp8 (fp8_e4m3:sat, fp8_e5m2:sat) + - * / sqrt in every mode",
          "[arithmetic][exhaustive-small]") {
    for (const char* name : {"fp8_e4m3:sat", "fp8_e5m2:sat"}) {
        Tally tally;
        sweep_format(name, Tininess::AfterRounding, tally);
        ARITH_REPORT(tally);
    }
}

TEST_CASE("exhaustive: fp4_e2m1 + - * / sqrt fma in every mode, both tininess rules",
          "[arithmetic][exhaustive-small]") {
    for (Tininess tininess : {Tininess::AfterRounding, Tininess::BeforeRounding}) {
        Tally tally;
        sweep_format("fp4_e2m1", tininess, tally);
        sweep_fma("fp4_e2m1", tininess, 0, 0, tally);
        ARITH_REPORT(tally);
    }
}

TEST_CASE("exhaustive: fp8 formats with tininess before rounding", "[arithmetic][exhaustive-small]") {
    // The fp8 sweeps again under the other tininess rule, for the two formats with gradual underflow
    // that differ most (one IEEE-like, one fnuz).
    for (const char* name : {"fp8_e5m2", "e4m3fnuz"}) {
        Tally tally;
        sweep_format(name, Tininess::BeforeRounding, tally);
        ARITH_REPORT(tally);
    }
}

TEST_CASE("sampled: fp8 fma in every mode", "[arithmetic][exhaustive-small]") {
    std::uint64_t seed = 41;
    for (const char* name : {"fp8_e4m3", "fp8_e5m2", "e4m3fnuz", "e5m2fnuz"}) {
        Tally tally;
        sweep_fma(name, Tininess::AfterRounding, 60000, seed++, tally);
        sweep_fma(name, Tininess::BeforeRounding, 10000, seed++, tally);
        ARITH_REPORT(tally);
    }
}

TEST_CASE("exhaustive: fp8 fma, every triple in every mode", "[.exhaustive][arithmetic]") {
    for (const char* name : {"fp8_e4m3", "fp8_e5m2", "e4m3fnuz", "e5m2fnuz"}) {
        Tally tally;
        sweep_fma(name, Tininess::AfterRounding, 0, 0, tally);
        ARITH_REPORT(tally);
    }
}
