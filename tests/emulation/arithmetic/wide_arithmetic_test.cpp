// Tests of emu::WideArithmetic: against emu::Arithmetic on narrow formats (bit for bit, flags and
// stochastic draws included), against the TestFloat vectors, and on binary128 against MPFR used
// directly (emin/emax, mpfr_subnormalize) as IEEE 754 binary128. Add, sub, mul and fma take the
// fixed-size path here (the default); fixed_wide_arithmetic_test holds it against the MPFR path.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <zlib.h>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/stochastic_source.hpp"
#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/arithmetic/wide_arithmetic.hpp"
#include "tests/core/mpfr_reference.hpp"
#include "tests/emulation/arithmetic/wide_patterns.hpp"

namespace fs = std::filesystem;
using namespace floatscope::core;
using floatscope::emu::Arithmetic;
using floatscope::emu::Operation;
using floatscope::emu::WideArithmetic;
using floatscope::test::PatternSource;
using floatscope::test::RefNumber;

namespace {

constexpr Operation all_operations[] = {Operation::Add, Operation::Sub,  Operation::Mul,
                                        Operation::Div, Operation::Sqrt, Operation::Fma};

std::uint64_t to_u64(const mpz_class& x) { return mpz_get_ui(x.get_mpz_t()); }

}  // namespace

TEST_CASE("the wide path matches the narrow one on narrow formats, stochastic draws included", "[wide]") {
    const char* formats[] = {"fp16",         "bf16",        "fp32",         "fp64",        "fp8_e5m2",
                             "e4m3",         "e6m9",        "fp16:ftz",     "e4m3:sat",    "binary8p3se",
                             "binary8p1sf",  "binary8p5uf", "binary8p1ue:sat", "binary12p1se", "binary10p4uf:satfinite"};
    RoundingMode modes[std::size(all_rounding_modes)];
    std::copy(all_rounding_modes.begin(), all_rounding_modes.end(), modes);
    constexpr int cases_per_format = 300;
    std::size_t compared = 0;
    for (const char* name : formats) {
        const FormatSpec spec = parse_format(name);
        for (RoundingMode mode : modes) {
            for (Tininess tininess : {Tininess::AfterRounding, Tininess::BeforeRounding}) {
                StochasticSource narrow_random(17), wide_random(17);
                const Arithmetic narrow(spec, {mode, tininess, &narrow_random});
                // Arithmetic's MPFR path hands the Rounder 64 significant bits, so its sr sees only
                // the first 64 - p discarded bits (11 for fp64), where the wide path sees 64: the
                // two agree except with probability 2^-(64 - p) per case, too often to compare here.
                if (mode == RoundingMode::Stochastic && narrow.path() == floatscope::emu::ExactPath::Mpfr) continue;
                const WideArithmetic wide(spec, {mode, tininess, &wide_random});
                PatternSource patterns(spec, 99);
                for (Operation op : all_operations) {
                    const int count = tininess == Tininess::AfterRounding ? cases_per_format : cases_per_format / 5;
                    for (int i = 0; i < count; ++i) {
                        const mpz_class a = patterns.next(), b = patterns.next(), c = patterns.next();
                        const Rounded expected = narrow.apply(op, to_u64(a), to_u64(b), to_u64(c));
                        const WideRounded actual = wide.apply(op, a, b, c);
                        ++compared;
                        if (to_u64(actual.bits) == expected.bits && actual.flags == expected.flags) continue;
                        INFO(name << ' ' << to_string(mode) << ' ' << floatscope::emu::to_string(op) << ' '
                                  << format_bits_hex(spec, to_u64(a)) << ' ' << format_bits_hex(spec, to_u64(b)) << ' '
                                  << format_bits_hex(spec, to_u64(c))
                                  << (tininess == Tininess::AfterRounding ? "" : " before"));
                        CHECK(format_bits_hex(spec, to_u64(actual.bits)) == format_bits_hex(spec, expected.bits));
                        CHECK(flags_hex(actual.flags) == flags_hex(expected.flags));
                    }
                }
            }
        }
    }
    INFO(compared << " operations compared");
    CHECK(compared > 50000);
}

namespace {

/// Runs one TestFloat vector file through WideArithmetic; returns the number of cases, failing
/// on any mismatch (a NaN result matches any NaN, as the vectors carry x86's NaN).
std::size_t run_vectors(const fs::path& file, const FormatSpec& spec, Operation op, RoundingMode mode, int stride) {
    const WideArithmetic wide(spec, {mode, Tininess::AfterRounding, nullptr});
    REQUIRE(wide.path() == floatscope::emu::WidePath::FixedLimbs);
    gzFile in = gzopen(file.c_str(), "rb");
    REQUIRE(in != nullptr);
    std::size_t cases = 0, failures = 0;
    char line[512];
    const int n = floatscope::emu::operand_count(op);
    for (int number = 0; gzgets(in, line, sizeof line) != nullptr; ++number) {
        if (number % stride != 0) continue;
        std::istringstream fields(line);
        std::string words[5];
        for (int i = 0; i < n + 2; ++i) fields >> words[i];
        if (words[n + 1].empty()) continue;
        mpz_class operands[3] = {0, 0, 0};
        for (int i = 0; i < n; ++i) operands[i] = parse_wide_bits(spec, words[i]);
        const mpz_class expected = parse_wide_bits(spec, words[n]);
        const WideRounded actual = wide.apply(op, operands[0], operands[1], operands[2]);
        const bool expected_nan = decode_wide_bits(spec, expected).value_class == ValueClass::NaN;
        const bool same_result =
            expected_nan ? decode_wide_bits(spec, actual.bits).value_class == ValueClass::NaN : actual.bits == expected;
        ++cases;
        if (same_result && flags_hex(actual.flags) == words[n + 1]) continue;
        if (++failures <= 5)
            FAIL_CHECK(file.filename().string() << ": " << line << " gave " << format_wide_bits_hex(spec, actual.bits)
                                                << ' ' << flags_hex(actual.flags));
    }
    gzclose(in);
    CHECK(failures == 0);
    return cases;
}

/// Every `stride`-th case of every bundled f16, f32 and f64 arithmetic file, in every mode.
void run_all_vectors(int stride) {
    const fs::path vectors = fs::path(FLOATSCOPE_TEST_DATA) / "testfloat";
    const std::pair<const char*, Operation> functions[] = {{"add", Operation::Add},   {"sub", Operation::Sub},
                                                           {"mul", Operation::Mul},   {"div", Operation::Div},
                                                           {"sqrt", Operation::Sqrt}, {"mulAdd", Operation::Fma}};
    const std::pair<const char*, const char*> formats[] = {{"f16", "fp16"}, {"f32", "fp32"}, {"f64", "fp64"}};
    std::size_t cases = 0, files = 0;
    for (const auto& [prefix, format] : formats)
        for (const auto& [function, op] : functions)
            for (const char* mode : {"rne", "rtz", "rdn", "rup", "rna"}) {
                // The bundled subset has no f32_sub and f64_sub (add covers them, as sub is add of -b).
                const fs::path file = vectors / (std::string(prefix) + "_" + function + "." + mode + ".tv.gz");
                if (!fs::exists(file)) continue;
                cases += run_vectors(file, parse_format(format), op, parse_rounding_mode(mode), stride);
                ++files;
            }
    INFO(cases << " vector cases in " << files << " files");
    CHECK(files == 80);
    CHECK(cases > static_cast<std::size_t>(1000000 / stride));
}

}  // namespace

TEST_CASE("the wide path passes every 16th TestFloat vector of f16, f32 and f64 arithmetic", "[wide][testfloat]") {
    run_all_vectors(16);
}

// All 1.08 million cases take a few seconds: run on demand (wide_arithmetic_test [full]).
TEST_CASE("the wide path passes all TestFloat vectors of f16, f32 and f64 arithmetic", "[.][full]") {
    run_all_vectors(1);
}

namespace {

/// The four modes MPFR has, beside FloatScope's names.
constexpr std::pair<RoundingMode, mpfr_rnd_t> mpfr_modes[] = {{RoundingMode::NearestEven, MPFR_RNDN},
                                                              {RoundingMode::TowardZero, MPFR_RNDZ},
                                                              {RoundingMode::Upward, MPFR_RNDU},
                                                              {RoundingMode::Downward, MPFR_RNDD}};

/// op on MPFR numbers rounded to r's precision; MPFR's ternary value.
int mpfr_operation(Operation op, mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, mpfr_srcptr c, mpfr_rnd_t rnd) {
    switch (op) {
        case Operation::Add: return mpfr_add(r, a, b, rnd);
        case Operation::Sub: return mpfr_sub(r, a, b, rnd);
        case Operation::Mul: return mpfr_mul(r, a, b, rnd);
        case Operation::Div: return mpfr_div(r, a, b, rnd);
        case Operation::Sqrt: return mpfr_sqrt(r, a, rnd);
        case Operation::Fma: return mpfr_fma(r, a, b, c, rnd);
    }
    return 0;
}

/// Three patterns and their values; whether all three are finite and nonzero.
bool draw_operands(const FormatSpec& spec, PatternSource& patterns, mpz_class (&operands)[3], RefNumber (&values)[3]) {
    bool finite = true;
    for (int k = 0; k < 3; ++k) {
        operands[k] = patterns.next();
        const WideDecoded d = decode_wide_bits(spec, operands[k]);
        finite = finite && (d.value_class == ValueClass::Normal || d.value_class == ValueClass::Subnormal);
        d.value.to_mpfr(values[k].get());
    }
    return finite;
}

/// binary128 as MPFR itself rounds: precision 113, exponents of 2^-16494 .. 2^16384 (MPFR writes
/// values as 0.1xxx 2^e), then mpfr_subnormalize; IEEE flags derived from MPFR's results.
struct Binary128Reference {
    mpz_class bits;
    std::uint8_t flags = 0;
};

Binary128Reference mpfr_binary128(Operation op, mpfr_srcptr a, mpfr_srcptr b, mpfr_srcptr c, mpfr_rnd_t rnd) {
    auto compute = [&](mpfr_ptr r) { return mpfr_operation(op, r, a, b, c, rnd); };
    // Unbounded exponent (MPFR's default range holds every result here): tininess after rounding.
    RefNumber unbounded(113);
    compute(unbounded.get());
    const bool tiny = mpfr_regular_p(unbounded.get()) && mpfr_get_exp(unbounded.get()) - 1 < -16382;
    const bool huge = mpfr_regular_p(unbounded.get()) && mpfr_get_exp(unbounded.get()) - 1 > 16383;

    const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-16493);
    mpfr_set_emax(16384);
    RefNumber r(113);
    int ternary = compute(r.get());
    ternary = mpfr_check_range(r.get(), ternary, rnd);
    ternary = mpfr_subnormalize(r.get(), ternary, rnd);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);

    Binary128Reference out;
    if (ternary != 0) out.flags |= 0x01;
    if (tiny && ternary != 0) out.flags |= 0x02;
    if (huge) out.flags |= 0x05;
    const mpz_class sign = mpfr_signbit(r.get()) ? mpz_class(1) << 127 : mpz_class(0);
    if (mpfr_inf_p(r.get())) {
        out.bits = sign + (mpz_class(0x7FFF) << 112);
    } else if (mpfr_zero_p(r.get())) {
        out.bits = sign;
    } else {
        mpz_class significand;
        const mpfr_exp_t exponent =
            mpfr_get_z_2exp(significand.get_mpz_t(), r.get());  // |r| = s 2^exponent, s of 113 bits
        significand = abs(significand);
        const long binade = exponent + 112;  // r in [2^binade, 2^(binade+1))
        if (binade >= -16382)
            out.bits = sign + (mpz_class(binade + 16383) << 112) + significand - (mpz_class(1) << 112);
        else
            out.bits = sign + (significand >> (-16494 - exponent));  // subnormal: exact multiple of 2^-16494
    }
    return out;
}

}  // namespace

TEST_CASE("binary128 arithmetic agrees with MPFR's own binary128 rounding", "[wide]") {
    const FormatSpec quad = parse_format("binary128");
    PatternSource patterns(quad, 2026);
    RefNumber values[3] = {RefNumber(113), RefNumber(113), RefNumber(113)};
    std::size_t compared = 0;
    for (const auto& [mode, rnd] : mpfr_modes)
        for (const floatscope::emu::WidePath path :
             {floatscope::emu::WidePath::FixedLimbs, floatscope::emu::WidePath::Mpfr}) {
            const WideArithmetic wide(quad, {mode, Tininess::AfterRounding, nullptr}, path);
            for (Operation op : all_operations) {
                for (int i = 0; i < 400; ++i) {
                    mpz_class operands[3];
                    const bool finite = draw_operands(quad, patterns, operands, values);
                    // Operands of the reference are finite and nonzero (the special cases are checked
                    // against narrow Arithmetic and TestFloat); sqrt takes magnitudes.
                    if (!finite) continue;
                    if (op == Operation::Sqrt) {
                        mpfr_abs(values[0].get(), values[0].get(), MPFR_RNDN);
                        mpz_clrbit(operands[0].get_mpz_t(), 127);
                    }
                    const Binary128Reference expected =
                        mpfr_binary128(op, values[0].get(), values[1].get(), values[2].get(), rnd);
                    const WideRounded actual = wide.apply(op, operands[0], operands[1], operands[2]);
                    ++compared;
                    INFO(to_string(mode) << ' ' << floatscope::emu::to_string(op) << ' '
                                         << format_wide_bits_hex(quad, operands[0]) << ' '
                                         << format_wide_bits_hex(quad, operands[1]) << ' '
                                         << format_wide_bits_hex(quad, operands[2]));
                    CHECK(format_wide_bits_hex(quad, actual.bits) == format_wide_bits_hex(quad, expected.bits));
                    CHECK(static_cast<int>(actual.flags.bits) == static_cast<int>(expected.flags));
                }
            }
        }
    INFO(compared << " operations compared");
    CHECK(compared > 6000);
}

namespace {

/// The value of `op` on finite values rounded by MPFR itself to a P3109 format's precision and
/// exponent range (mpfr_subnormalize) into `r`; false where it is zero, beyond max finite or
/// negative in an unsigned format (the projection rules, held against the narrow path above).
bool mpfr_p3109(const FormatSpec& spec, Operation op, mpfr_srcptr a, mpfr_srcptr b, mpfr_srcptr c, mpfr_rnd_t rnd,
                RefNumber& r) {
    const WideGeometry g = wide_geometry(spec);
    auto compute = [&](mpfr_ptr out, mpfr_rnd_t direction) { return mpfr_operation(op, out, a, b, c, direction); };
    if (g.precision == 1 && rnd == MPFR_RNDN) {
        // MPFR breaks a tie at precision 1 away from zero (no significand is even there); P3109's
        // roundTiesToEven takes the even exponent field, as the K = 8 tables show (p3109_test).
        RefNumber two_bits(2);
        if (compute(two_bits.get(), MPFR_RNDZ) == 0 && mpfr_min_prec(two_bits.get()) == 2) return false;
    }
    const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    // MPFR writes values as 0.1xxx 2^e: the smallest subnormal 2^(emin - M) has e = emin - M + 1.
    mpfr_set_emin(g.emin - spec.mantissa_bits + 1);
    mpfr_set_emax(g.emax + 1);
    mpfr_set_prec(r.get(), g.precision);
    int ternary = compute(r.get(), rnd);
    ternary = mpfr_check_range(r.get(), ternary, rnd);
    mpfr_subnormalize(r.get(), ternary, rnd);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    RefNumber max(g.precision);
    decode_wide_bits(spec, g.max_finite_magnitude).value.to_mpfr(max.get());
    return mpfr_number_p(r.get()) && !mpfr_zero_p(r.get()) && mpfr_cmpabs(r.get(), max.get()) <= 0 &&
           (spec.has_sign || !mpfr_signbit(r.get()));
}

}  // namespace

TEST_CASE("P3109 formats beyond binary64: arithmetic agrees with MPFR's own rounding", "[wide][p3109]") {
    std::size_t compared = 0;
    for (const char* name : {"binary16p1se", "binary16p4sf", "binary16p5ue", "binary13p2uf", "binary14p2se"}) {
        const FormatSpec spec = parse_format(name);
        REQUIRE(wide_geometry(spec).emax > 1023);  // values beyond binary64
        PatternSource patterns(spec, 3109);
        RefNumber values[3] = {RefNumber(16), RefNumber(16), RefNumber(16)};
        RefNumber expected(16);
        for (const auto& [mode, rnd] : mpfr_modes) {
            const WideArithmetic wide(spec, {mode, Tininess::AfterRounding, nullptr});
            for (Operation op : all_operations)
                for (int i = 0; i < 400; ++i) {
                    mpz_class operands[3];
                    const bool finite = draw_operands(spec, patterns, operands, values);
                    if (!finite || (op == Operation::Sqrt && mpfr_signbit(values[0].get()))) continue;
                    if (!mpfr_p3109(spec, op, values[0].get(), values[1].get(), values[2].get(), rnd, expected))
                        continue;
                    const WideRounded actual = wide.apply(op, operands[0], operands[1], operands[2]);
                    RefNumber got(16);
                    decode_wide_bits(spec, actual.bits).value.to_mpfr(got.get());
                    INFO(name << ' ' << to_string(mode) << ' ' << floatscope::emu::to_string(op) << ' '
                              << format_wide_bits_hex(spec, operands[0]) << ' ' << format_wide_bits_hex(spec, operands[1])
                              << ' ' << format_wide_bits_hex(spec, operands[2]));
                    CHECK(mpfr_equal_p(got.get(), expected.get()) != 0);
                    ++compared;
                }
        }
    }
    INFO(compared << " operations compared");
    CHECK(compared > 10000);
}
