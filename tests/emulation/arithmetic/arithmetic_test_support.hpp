// Test support for emulation/arithmetic: an independent reference for + - * / sqrt fma in any
// binary format (IEEE 754-2019 special cases written from the standard, the exact result from
// MPFR, rounded by tests/core/mpfr_reference), operand generators, and a mismatch tally.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/format.hpp"
#include "core/rounding.hpp"
#include "emulation/arithmetic/arithmetic.hpp"
#include "tests/core/mpfr_reference.hpp"

namespace arith_test {

using floatscope::core::FormatSpec;
using floatscope::core::NanEncoding;
using floatscope::core::RoundingMode;
using floatscope::core::Tininess;
using floatscope::emu::Arithmetic;
using floatscope::emu::Operation;
using floatscope::test::RefNumber;
using floatscope::test::RefResult;
namespace ref_flags = floatscope::test::ref_flags;

inline constexpr std::uint8_t divide_by_zero_flag = 0x08;  // IEEE 754 divideByZero (TestFloat "infinite")
inline constexpr double infinity = std::numeric_limits<double>::infinity();
inline constexpr double quiet_nan = std::numeric_limits<double>::quiet_NaN();

inline const char* op_name(Operation op) {
    switch (op) {
        case Operation::Add: return "add";
        case Operation::Sub: return "sub";
        case Operation::Mul: return "mul";
        case Operation::Div: return "div";
        case Operation::Sqrt: return "sqrt";
        case Operation::Fma: return "fma";
    }
    return "?";
}

inline int arity(Operation op) { return op == Operation::Sqrt ? 1 : op == Operation::Fma ? 3 : 2; }

inline const char* mode_name(RoundingMode mode) { return floatscope::core::to_string(mode); }

/// A binary format's parameters, derived here from the field definitions (not from core's geometry).
struct FormatInfo {
    FormatSpec spec;
    int width = 0;
    int M = 0;
    int precision = 0;
    int emin = 0;  ///< exponent of the smallest normal
    int emax = 0;  ///< exponent of the largest finite value
    double max_finite = 0;
    double min_normal = 0;
    double min_subnormal = 0;
    bool flush = false;

    explicit FormatInfo(const std::string& name) : spec(floatscope::core::parse_format(name)) {
        width = (spec.has_sign ? 1 : 0) + spec.exponent_bits + spec.mantissa_bits;
        M = spec.mantissa_bits;
        precision = M + 1;
        emin = 1 - spec.bias;
        max_finite = floatscope::test::ref_max_finite(spec);
        emax = std::ilogb(max_finite);
        min_normal = std::ldexp(1.0, emin);
        flush = spec.subnormals == floatscope::core::SubnormalPolicy::Flush;
        min_subnormal = flush ? min_normal : std::ldexp(1.0, emin - M);
        if (spec.is_tapered()) {
            // Posits, takums, HiF8: their codes' width; exact sums and products need the range from the
            // smallest value's last bit (at most 40 below it) to the largest value.
            width = spec.total_bits();
            M = 0;
            min_subnormal = floatscope::test::ref_decode(spec, 1);
            emin = std::ilogb(min_subnormal) - 40;
            min_normal = min_subnormal;
        }
    }

    std::uint64_t mask() const { return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1; }

    /// Whether a double is a (non-NaN) value of the format.
    bool representable(double v) const {
        if (std::isnan(v)) return false;
        if (std::isinf(v)) return spec.has_infinity;
        if (v == 0) return true;
        if (v < 0 && !spec.has_sign) return false;
        const double a = std::fabs(v);
        if (a > max_finite) return false;
        if (flush && a < min_normal) return false;
        const int e = std::ilogb(a);
        const int quantum = std::max(e, emin) - M;
        const double count = std::ldexp(a, -quantum);
        return count == std::floor(count);
    }

    /// The spacing of the format's grid at |v| (v finite, nonzero or zero: the subnormal quantum).
    double quantum_at(double v) const {
        const int e = v == 0 ? emin : std::max(std::ilogb(std::fabs(v)), emin);
        return std::ldexp(1.0, e - M);
    }

    std::uint64_t encode(double v) const { return floatscope::test::ref_encode(spec, v); }
    double decode(std::uint64_t bits) const { return floatscope::test::ref_decode(spec, bits); }

    /// Bits needed to hold exactly any sum, product or fma of format values.
    long exact_precision() const { return 2L * (emax + 2) - 2L * (emin - M) + 8; }
};

// ---- operands -------------------------------------------------------------------------------------

struct RefOperand {
    std::uint64_t bits = 0;
    double value = 0;
    bool nan = false, signaling = false, inf = false, zero = false, negative = false;
};

inline RefOperand ref_operand(const FormatInfo& f, std::uint64_t bits) {
    RefOperand o;
    o.bits = bits;
    o.nan = floatscope::test::ref_is_nan_pattern(f.spec, bits);
    if (o.nan) {
        // IEEE 754-2019 6.2.1: a quiet NaN has the first bit of the trailing significand set. The
        // other encodings have a single NaN pattern, taken as quiet.
        o.signaling = f.spec.nan_encoding == NanEncoding::Ieee && f.M >= 1 && ((bits >> (f.M - 1)) & 1) == 0;
        o.value = quiet_nan;
        return o;
    }
    o.value = f.decode(bits);
    o.inf = std::isinf(o.value);
    o.zero = o.value == 0;
    o.negative = std::signbit(o.value);
    return o;
}

// ---- the reference --------------------------------------------------------------------------------

/// MPFR scratch numbers, reused per thread (precision set per call).
struct RefScratch {
    RefNumber a{53}, b{53}, c{53}, t{64}, x{64};
};
inline RefScratch& scratch() {
    thread_local RefScratch s;
    return s;
}

/// The exact result of a finite-operand operation, or one that rounds like it to any precision
/// below P - 2: computed toward zero at P bits; if inexact, the last bit of a P+1-bit copy is set
/// (round to odd), so the value lies strictly between the same two rounding points as the exact
/// result and is never a midpoint. P is the exact precision for + - * fma, so those are exact.
/// Returns x (in scratch, valid until the next call on this thread).
inline mpfr_srcptr ref_exact(const FormatInfo& f, Operation op, double a, double b, double c) {
    RefScratch& s = scratch();
    mpfr_set_d(s.a.get(), a, MPFR_RNDN);
    mpfr_set_d(s.b.get(), b, MPFR_RNDN);
    mpfr_set_d(s.c.get(), c, MPFR_RNDN);
    const long P = (op == Operation::Div || op == Operation::Sqrt) ? 320 : f.exact_precision();
    mpfr_set_prec(s.t.get(), P);
    int ternary = 0;
    switch (op) {
        case Operation::Add: ternary = mpfr_add(s.t.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Sub: ternary = mpfr_sub(s.t.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Mul: ternary = mpfr_mul(s.t.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Div: ternary = mpfr_div(s.t.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Sqrt: ternary = mpfr_sqrt(s.t.get(), s.a.get(), MPFR_RNDZ); break;
        case Operation::Fma: ternary = mpfr_fma(s.t.get(), s.a.get(), s.b.get(), s.c.get(), MPFR_RNDZ); break;
    }
    if (ternary != 0 && op != Operation::Div && op != Operation::Sqrt)
        throw std::logic_error("arithmetic reference: exact precision too small");
    mpfr_set_prec(s.x.get(), P + 1);
    mpfr_set(s.x.get(), s.t.get(), MPFR_RNDN);  // exact
    if (ternary != 0) {
        if (mpfr_sgn(s.x.get()) > 0)
            mpfr_nextabove(s.x.get());
        else
            mpfr_nextbelow(s.x.get());
    }
    return s.x.get();
}

inline RefResult ref_nan(const FormatInfo& f, RoundingMode mode, Tininess tininess, std::uint8_t flags) {
    RefNumber n(53);
    mpfr_set_nan(n.get());
    RefResult r = floatscope::test::ref_round(f.spec, n.get(), mode, tininess);
    r.flags |= flags;
    return r;
}

/// What IEEE 754 makes an exact infinity (inf operands, x/0), under the generalised rule of
/// DESIGN.md: the infinity rounded to the format when it has infinities (which saturation, P3109's
/// included, may turn into +-max), else what a nearest rounding of an overflow gives (+-max when
/// saturating or without NaN, else NaN) without the overflow's flags; flags as given.
inline RefResult ref_infinite(const FormatInfo& f, bool negative, std::uint8_t flags) {
    if (f.spec.has_infinity) {
        RefResult r = floatscope::test::ref_round(f.spec, negative ? -infinity : infinity, RoundingMode::NearestEven);
        r.flags |= flags;
        return r;
    }
    RefResult r = floatscope::test::ref_round(f.spec, negative ? -std::ldexp(1.0, 1000) : std::ldexp(1.0, 1000),
                                              RoundingMode::NearestEven);
    r.flags = flags;
    return r;
}

inline RefResult ref_zero(const FormatInfo& f, bool negative, RoundingMode mode, Tininess tininess) {
    RefNumber z(53);
    mpfr_set_zero(z.get(), negative ? -1 : 1);
    return floatscope::test::ref_round(f.spec, z.get(), mode, tininess);
}

/// The reference result of one operation on bit patterns (IEEE 754-2019 5.4.1, 6.1-6.3, 7.2-7.3).
inline RefResult ref_operation(const FormatInfo& f, Operation op, const RefOperand& A, const RefOperand& B,
                               const RefOperand& C, RoundingMode mode, Tininess tininess) {
    const int n = arity(op);
    const RefOperand* operands[3] = {&A, &B, &C};
    std::uint8_t flags = 0;
    bool any_nan = false;
    for (int i = 0; i < n; ++i) {
        any_nan = any_nan || operands[i]->nan;
        if (operands[i]->signaling) flags |= ref_flags::invalid;  // 7.2 (a)
    }
    // 7.2 (c): fma(0, inf, c) and fma(inf, 0, c) are invalid; documented: even when c is a quiet NaN.
    if (op == Operation::Fma && ((A.zero && B.inf) || (A.inf && B.zero)))
        return ref_nan(f, mode, tininess, ref_flags::invalid);
    if (any_nan) return ref_nan(f, mode, tininess, flags);  // 6.2: a NaN operand gives a quiet NaN
    auto invalid = [&] { return ref_nan(f, mode, tininess, ref_flags::invalid); };
    switch (op) {
        case Operation::Add:
        case Operation::Sub: {
            const bool b_negative = B.negative != (op == Operation::Sub);
            if (A.inf && B.inf && A.negative != b_negative) return invalid();  // 7.2 (b)
            if (A.inf) return ref_infinite(f, A.negative, 0);
            if (B.inf) return ref_infinite(f, b_negative, 0);
            if (A.zero && B.zero) {
                // 6.3: x + x keeps the sign of x for zeros; opposite zeros give +0, -0 rounding down.
                const bool negative = A.negative == b_negative ? A.negative : mode == RoundingMode::Downward;
                return ref_zero(f, negative, mode, tininess);
            }
            break;
        }
        case Operation::Mul: {
            const bool negative = A.negative != B.negative;
            if ((A.inf && B.zero) || (A.zero && B.inf)) return invalid();  // 7.2 (c)
            if (A.inf || B.inf) return ref_infinite(f, negative, 0);
            if (A.zero || B.zero) return ref_zero(f, negative, mode, tininess);  // 6.3: xor of signs
            break;
        }
        case Operation::Div: {
            const bool negative = A.negative != B.negative;
            if ((A.zero && B.zero) || (A.inf && B.inf)) return invalid();  // 7.2 (d)
            if (A.inf) return ref_infinite(f, negative, 0);  // 6.1: exact infinity
            if (B.inf || A.zero) return ref_zero(f, negative, mode, tininess);
            // P3109 (Interim Report v4.0, 4.10, Divide): x/0 is NaN, as its one zero has no sign.
            if (B.zero && f.spec.is_p3109()) return invalid();
            // Posits and takums: x/0 is NaR (Posit Standard 2022; Hunhold 2024), they have no infinity.
            const bool nar = f.spec.kind == floatscope::core::FormatKind::Posit ||
                             f.spec.kind == floatscope::core::FormatKind::Takum;
            if (B.zero && nar) return invalid();
            if (B.zero) return ref_infinite(f, negative, divide_by_zero_flag);  // 7.3
            break;
        }
        case Operation::Sqrt: {
            if (A.zero) return ref_zero(f, A.negative, mode, tininess);  // 6.3: sqrt(-0) = -0
            if (A.negative) return invalid();  // 7.2 (g)
            if (A.inf) return ref_infinite(f, false, 0);
            break;
        }
        case Operation::Fma: {
            const bool product_negative = A.negative != B.negative;
            const bool product_inf = A.inf || B.inf;
            const bool product_zero = A.zero || B.zero;
            if (product_inf && C.inf && product_negative != C.negative) return invalid();  // 7.2 (c)
            if (product_inf) return ref_infinite(f, product_negative, 0);
            if (C.inf) return ref_infinite(f, C.negative, 0);
            if (product_zero && C.zero) {
                const bool negative = product_negative == C.negative ? C.negative : mode == RoundingMode::Downward;
                return ref_zero(f, negative, mode, tininess);
            }
            break;
        }
    }
    mpfr_srcptr x = ref_exact(f, op, A.value, B.value, C.value);
    if (mpfr_zero_p(x)) {
        // 6.3: an exact zero sum of nonzero operands (opposite values) is +0, or -0 rounding down.
        return ref_zero(f, mode == RoundingMode::Downward, mode, tininess);
    }
    return floatscope::test::ref_round(f.spec, x, mode, tininess);
}

// ---- comparison and reporting --------------------------------------------------------------------

inline bool same_double(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

inline bool matches(const FormatInfo& f, const floatscope::core::Rounded& got, const RefResult& want) {
    if (got.flags.bits != want.flags) return false;
    if (want.nan) return floatscope::test::ref_is_nan_pattern(f.spec, got.bits) && std::isnan(got.value);
    if (got.bits != f.encode(want.value)) return false;
    return same_double(got.value, want.value);
}

inline std::string hex_bits(const FormatInfo& f, std::uint64_t bits) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%0*llX", (f.width + 3) / 4, static_cast<unsigned long long>(bits));
    return text;
}

inline std::string flags_text(std::uint8_t flags) {
    char text[8];
    std::snprintf(text, sizeof text, "%02X", flags);
    return text;
}

inline std::string describe_operands(const FormatInfo& f, Operation op, const std::uint64_t* bits) {
    std::ostringstream out;
    out << op_name(op);
    for (int i = 0; i < arity(op); ++i)
        out << ' ' << hex_bits(f, bits[i]) << " (" << floatscope::test::hex_double(f.decode(bits[i])) << ')';
    return out.str();
}

/// Counts checks and keeps the first few failures, so that millions of comparisons cost one
/// Catch assertion each batch.
struct Tally {
    std::size_t checks = 0;
    std::size_t failures = 0;
    std::vector<std::string> first;

    std::map<std::string, std::size_t> kinds;  ///< failures per "format mode tininess op check"

    void fail(const std::string& kind, std::string why) {
        ++failures;
        ++kinds[kind];
        if (first.size() < 25) first.push_back(std::move(why));
    }
    std::string text() const {
        std::ostringstream out;
        out << failures << " of " << checks << " checks failed";
        for (const auto& [kind, count] : kinds) out << "\n  " << count << " x " << kind;
        for (const std::string& s : first) out << "\n  " << s;
        return out.str();
    }
};

inline std::string describe_failure(const FormatInfo& f, Operation op, const std::uint64_t* bits, RoundingMode mode,
                                    Tininess tininess, const char* what, const floatscope::core::Rounded& got,
                                    const RefResult& want) {
    std::ostringstream out;
    out << f.spec.name << " " << mode_name(mode) << (tininess == Tininess::BeforeRounding ? " tininess=before" : "")
        << " " << describe_operands(f, op, bits) << ": " << what << " got " << hex_bits(f, got.bits) << " "
        << floatscope::test::hex_double(got.value) << " flags " << flags_text(got.flags.bits) << ", expected "
        << (want.nan ? std::string("NaN")
                     : hex_bits(f, f.encode(want.value)) + " " + floatscope::test::hex_double(want.value))
        << " flags " << flags_text(want.flags);
    return out.str();
}

/// apply vs apply_values: the same value (any NaN for NaN), bits and flags.
inline bool agree(const FormatInfo& f, const floatscope::core::Rounded& x, const floatscope::core::Rounded& y) {
    if (x.flags.bits != y.flags.bits) return false;
    if (std::isnan(x.value) || std::isnan(y.value))
        return std::isnan(x.value) && std::isnan(y.value) && floatscope::test::ref_is_nan_pattern(f.spec, y.bits);
    return x.bits == y.bits && same_double(x.value, y.value);
}

/// Checks one operand set in one mode: apply against the reference, and apply_values against apply
/// (skipped when an operand is a signaling NaN, which a double cannot carry).
inline void check_case(const FormatInfo& f, const Arithmetic& arith, Operation op, const std::uint64_t* bits,
                       const RefOperand* operands, RoundingMode mode, Tininess tininess, Tally& tally,
                       const RefResult* precomputed = nullptr) {
    const RefResult want =
        precomputed ? *precomputed : ref_operation(f, op, operands[0], operands[1], operands[2], mode, tininess);
    const floatscope::core::Rounded got =
        arith.apply(op, bits[0], arith_test::arity(op) >= 2 ? bits[1] : 0, arith_test::arity(op) >= 3 ? bits[2] : 0);
    auto kind = [&](const char* what) {
        return f.spec.name + " " + mode_name(mode) + (tininess == Tininess::BeforeRounding ? " before " : " after ") +
               op_name(op) + " " + what;
    };
    ++tally.checks;
    if (!matches(f, got, want))
        tally.fail(kind("apply"), describe_failure(f, op, bits, mode, tininess, "apply", got, want));
    bool signaling = false;
    for (int i = 0; i < arity(op); ++i) signaling = signaling || operands[i].signaling;
    if (signaling) return;
    const floatscope::core::Rounded by_value = arith.apply_values(
        op, operands[0].value, arity(op) >= 2 ? operands[1].value : 0.0, arity(op) >= 3 ? operands[2].value : 0.0);
    ++tally.checks;
    if (!agree(f, got, by_value))
        tally.fail(kind("apply_values"), describe_failure(f, op, bits, mode, tininess, "apply_values", by_value, want));
}

#define ARITH_REPORT(tally)           \
    do {                              \
        INFO((tally).text());         \
        CHECK((tally).failures == 0); \
    } while (false)

}  // namespace arith_test
