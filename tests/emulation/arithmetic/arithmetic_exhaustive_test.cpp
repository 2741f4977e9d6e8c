// emulation/arithmetic, exhaustively on the small formats: every operand pair of + - * /, every
// operand of sqrt, every triple of fma in FP4 (sampled in FP8; the full FP8 fma sweep is behind
// the hidden tag [.exhaustive]), in the six deterministic modes, against the MPFR reference.
#include "tests/emulation/arithmetic/arithmetic_test_support.hpp"
#include "tests/sweep_size.hpp"

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

/// Every operand pair in every mode; with `other_modes_stride` > 1, every pair in rne (ref_modes[0])
/// and every stride-th pair in the other modes.
void sweep_format(const std::string& name, Tininess tininess, Tally& tally, std::size_t other_modes_stride = 1) {
    const FormatInfo f(name);
    const std::vector<RefOperand> operands = all_operands(f);
    const std::vector<Arithmetic> arith = arithmetics(f, tininess);
    const RefOperand none{};
    std::size_t pair = 0;
    for (Operation op : binary_ops) {
        for (const RefOperand& a : operands)
            for (const RefOperand& b : operands) {
                const std::size_t index = pair++;
                if (!floatscope::test::walks(index)) continue;
                const RefOperand triple[3] = {a, b, none};
                const std::uint64_t bits[3] = {a.bits, b.bits, 0};
                const std::size_t modes = index % other_modes_stride == 0 ? arith.size() : 1;
                for (std::size_t m = 0; m < modes; ++m)
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
        std::size_t triple = 0;
        for (const RefOperand& a : operands)
            for (const RefOperand& b : operands)
                for (const RefOperand& c : operands)
                    if (floatscope::test::walks(triple++)) one(a, b, c);
        return;
    }
    std::mt19937_64 random(seed);
    for (std::size_t i = 0; i < floatscope::test::sweep_size(samples); ++i)
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

// ---- tapered formats -------------------------------------------------------------------------------

namespace {

/// The 8-bit formats of the tapered families: the Posit Standard's, a draft's, Hunhold's, Huawei's.
constexpr const char* tapered_8bit[] = {"posit8", "posit8_es0", "takum8", "hifloat8"};

/// Every operand pair of each format, every mode on every `stride`-th pair and rne on the rest.
void sweep_tapered(std::size_t stride) {
    for (const char* name : tapered_8bit) {
        Tally tally;
        sweep_format(name, Tininess::AfterRounding, tally, stride);
        ARITH_REPORT(tally);
    }
}

}  // namespace

TEST_CASE("exhaustive: posit8, posit8_es0, takum8, hifloat8 + - * / sqrt, every pair in rne, a seventh in the rest",
          "[arithmetic][exhaustive-small][tapered]") {
    // The exact result rounded once on the bit string (posits, takums: saturating, x/0 = NaR) or on
    // HiF8's grid, against tests/core/tapered_reference. rne is the Posit Standard's rounding; the
    // other modes see every seventh pair here (ctest time) and every pair under [.exhaustive].
    sweep_tapered(7);
}

TEST_CASE("exhaustive: posit8, posit8_es0, takum8, hifloat8 + - * / sqrt in every mode",
          "[.exhaustive][arithmetic][tapered]") {
    sweep_tapered(1);
}

TEST_CASE("sampled: posit8, takum8, hifloat8 fma in every mode", "[arithmetic][exhaustive-small][tapered]") {
    std::uint64_t seed = 2022;
    for (const char* name : tapered_8bit) {
        Tally tally;
        sweep_fma(name, Tininess::AfterRounding, 8000, seed++, tally);
        ARITH_REPORT(tally);
    }
}

// ---- IEEE P3109 ------------------------------------------------------------------------------------

namespace {

/// Every 8-bit P3109 format: P 1..7 signed and 1..8 unsigned, extended and finite.
std::vector<std::string> p3109_8bit_formats() {
    std::vector<std::string> names;
    for (int P = 1; P <= 8; ++P)
        for (const char* kind : {"se", "sf", "ue", "uf"})
            if (P < 8 || kind[0] == 'u') names.push_back("binary8p" + std::to_string(P) + kind);
    return names;
}

}  // namespace

TEST_CASE("exhaustive: P3109 binary8p3se and binary8p4se + - * / sqrt in every mode",
          "[arithmetic][exhaustive-small][p3109]") {
    // The two 8-bit formats the Interim Report has every implementation support, under each
    // saturation mode.
    for (const char* name : {"binary8p3se", "binary8p4se", "binary8p4se:satfinite", "binary8p3se:satpropagate"}) {
        Tally tally;
        sweep_format(name, Tininess::AfterRounding, tally);
        ARITH_REPORT(tally);
    }
}

TEST_CASE("exhaustive: P3109 corners (P = 1, finite, unsigned) + - * / sqrt in every mode",
          "[arithmetic][exhaustive-small][p3109]") {
    for (const char* name : {"binary8p1se", "binary8p3sf", "binary8p4ue", "binary8p8uf:satfinite"}) {
        Tally tally;
        sweep_format(name, Tininess::AfterRounding, tally);
        ARITH_REPORT(tally);
    }
}

TEST_CASE("sampled: P3109 fma in every mode", "[arithmetic][exhaustive-small][p3109]") {
    std::uint64_t seed = 3109;
    for (const char* name : {"binary8p3se", "binary8p4se", "binary8p1se", "binary8p4uf", "binary8p5ue:satpropagate"}) {
        Tally tally;
        sweep_fma(name, Tininess::AfterRounding, 40000, seed++, tally);
        ARITH_REPORT(tally);
    }
}

TEST_CASE("exhaustive: every 8-bit P3109 format + - * / sqrt in every mode and saturation mode",
          "[.exhaustive][arithmetic][p3109]") {
    // Run by scripts/p3109-exhaustive.sh, with the fma cases below.
    for (const std::string& base : p3109_8bit_formats())
        for (const char* sat : {":satnone", ":satpropagate", ":satfinite"}) {
            Tally tally;
            sweep_format(base + sat, Tininess::AfterRounding, tally);
            ARITH_REPORT(tally);
        }
}

TEST_CASE("exhaustive: P3109 binary8p3se and binary8p4se fma, every triple in every mode",
          "[.exhaustive][arithmetic][p3109]") {
    for (const char* name : {"binary8p3se", "binary8p4se"}) {
        Tally tally;
        sweep_fma(name, Tininess::AfterRounding, 0, 0, tally);
        ARITH_REPORT(tally);
    }
}

TEST_CASE("sampled: every 8-bit P3109 format fma, 10^6 triples per format and saturation mode",
          "[.exhaustive][arithmetic][p3109]") {
    std::uint64_t seed = 31090;
    for (const std::string& base : p3109_8bit_formats())
        for (const char* sat : {":satnone", ":satpropagate", ":satfinite"}) {
            Tally tally;
            sweep_fma(base + sat, Tininess::AfterRounding, 1000000, seed++, tally);
            ARITH_REPORT(tally);
        }
}
