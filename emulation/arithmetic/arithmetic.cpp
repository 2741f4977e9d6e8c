// Arithmetic in any format: IEEE special cases first, then the exact result, rounded once.
#include "emulation/arithmetic/arithmetic.hpp"

#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/mpfr_number.hpp"
#include "emulation/arithmetic/special_operands.hpp"

namespace floatscope::emu {

using core::Decoded;
using core::ExactValue;
using core::ExceptionFlags;
using core::Rounded;
using core::ValueClass;

const char* to_string(Operation op) {
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

Operation parse_operation(std::string_view name) {
    for (Operation op :
         {Operation::Add, Operation::Sub, Operation::Mul, Operation::Div, Operation::Sqrt, Operation::Fma})
        if (name == to_string(op)) return op;
    throw Error(fmt::format("unknown operation '{}'; valid operations: add sub mul div sqrt fma", name));
}

int operand_count(Operation op) {
    switch (op) {
        case Operation::Sqrt: return 1;
        case Operation::Fma: return 3;
        default: return 2;
    }
}

const char* to_string(ExactPath path) {
    return path == ExactPath::DoubleWithErrorTerm ? "double with exact error term" : "MPFR (64 bits + sticky)";
}

namespace {

ExactPath choose_path(const core::FormatSpec& spec) {
    if (spec.kind != core::FormatKind::Binary || spec.mantissa_bits > 25) return ExactPath::Mpfr;
    const core::BinaryGeometry g = core::binary_geometry(spec);
    // Exponents within +-250 keep every sum, product, quotient, remainder and square of two
    // format values a normal double, so the error terms below are exact.
    const bool range_fits = g.emax <= 250 && g.emin - spec.mantissa_bits >= -250;
    return range_fits ? ExactPath::DoubleWithErrorTerm : ExactPath::Mpfr;
}

/// The exact value s + delta where delta is nonzero with the sign `direction` and far smaller
/// than the rounding points of the format (|delta| < ulp(s)/2 <= quantum/4): only its sign matters.
ExactValue nudged(double s, double direction) {
    ExactValue v = ExactValue::from_double(s);
    if (direction == 0) return v;
    v.sticky = true;
    const bool toward_zero = (direction < 0) != (s < 0);
    if (toward_zero) {
        // Just below |s|: take one unit off the 64-bit significand (s has only 53 bits, so the
        // removed unit is below every bit that rounding to p <= 52 looks at).
        v.significand -= 1;
        if ((v.significand >> 63) == 0) {
            v.significand = (v.significand << 1) | 1;
            v.exponent -= 1;
        }
    }
    return v;
}

struct MpfrScratch {
    core::MpfrNumber a{53}, b{53}, c{53}, result{64};
};

ExactValue exact_by_mpfr(Operation op, double a, double b, double c) {
    thread_local MpfrScratch s;
    mpfr_set_d(s.a.get(), a, MPFR_RNDN);
    mpfr_set_d(s.b.get(), b, MPFR_RNDN);
    mpfr_set_d(s.c.get(), c, MPFR_RNDN);
    int ternary = 0;
    switch (op) {
        case Operation::Add: ternary = mpfr_add(s.result.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Sub: ternary = mpfr_sub(s.result.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Mul: ternary = mpfr_mul(s.result.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Div: ternary = mpfr_div(s.result.get(), s.a.get(), s.b.get(), MPFR_RNDZ); break;
        case Operation::Sqrt: ternary = mpfr_sqrt(s.result.get(), s.a.get(), MPFR_RNDZ); break;
        case Operation::Fma: ternary = mpfr_fma(s.result.get(), s.a.get(), s.b.get(), s.c.get(), MPFR_RNDZ); break;
    }
    ExactValue v = ExactValue::from_mpfr(s.result.get());
    v.sticky = v.sticky || ternary != 0;
    return v;
}

OperandClass operand_class(const Decoded& d) { return {d.value_class, d.negative, d.signaling}; }

/// Decoded view of a double that is a value of the format.
Decoded decoded_value(double x) {
    Decoded d;
    d.value = x;
    d.negative = std::signbit(x);
    if (std::isnan(x))
        d.value_class = ValueClass::NaN;
    else if (std::isinf(x))
        d.value_class = ValueClass::Infinite;
    else if (x == 0)
        d.value_class = ValueClass::Zero;
    else
        d.value_class = ValueClass::Normal;
    return d;
}

}  // namespace

Arithmetic::Arithmetic(const core::FormatSpec& spec, core::RoundingOptions options)
    : rounder_(spec, options), path_(choose_path(spec)) {
    if (path_ != ExactPath::DoubleWithErrorTerm) return;
    normal_ = NormalRounding(spec, options.tininess);
    // The fast rounding keeps a negative result's sign, which an unsigned format does not have
    // (there the general rounder decides: NaN, or 0 when P3109 saturates), and reads parity from the
    // last significand bit, which a format without mantissa bits takes from its exponent field.
    if (!core::is_stochastic(options.mode) && spec.has_sign && spec.mantissa_bits > 0)
        fast_ = options.mode == core::RoundingMode::NearestEven ? FastRounding::NearestEven : FastRounding::OnBits;
    mantissa_bits_ = spec.mantissa_bits;
    sign_shift_ = spec.exponent_bits + spec.mantissa_bits;
    field_offset_ = spec.bias - 1023;
}

Rounded Arithmetic::apply(Operation op, std::uint64_t a, std::uint64_t b, std::uint64_t c) const {
    const core::FormatSpec& f = rounder_.spec();
    const int n = operand_count(op);
    const Decoded da = core::decode_bits(f, a);
    const Decoded db = n >= 2 ? core::decode_bits(f, b) : Decoded{};
    const Decoded dc = n >= 3 ? core::decode_bits(f, c) : Decoded{};
    return compute(op, da, db, dc);
}

Rounded Arithmetic::apply_values_slow(Operation op, double a, double b, double c) const {
    return compute(op, decoded_value(a), decoded_value(b), decoded_value(c));
}

Rounded Arithmetic::compute(Operation op, const Decoded& a, const Decoded& b, const Decoded& c) const {
    const core::FormatSpec& f = rounder_.spec();
    const core::RoundingMode mode = rounder_.options().mode;
    const Decoded* operands[3] = {&a, &b, &c};
    const SpecialCase special =
        special_case(op, {operand_class(a), operand_class(b), operand_class(c)}, mode, zero_division(f));
    auto with_flags = [&](Rounded r) {
        r.flags |= special.flags;
        return r;
    };
    auto zero = [&](bool negative) { return with_flags(rounder_(ExactValue::zero(negative))); };
    switch (special.outcome) {
        case SpecialCase::Outcome::Nan: {
            // A NaN operand propagates, quieted.
            ExactValue nan =
                special.nan_source >= 0 ? operands[special.nan_source]->exact() : ExactValue::quiet_nan(true);
            nan.signaling = false;
            return with_flags(rounder_(nan));
        }
        case SpecialCase::Outcome::Infinity: {
            if (f.has_infinity) return with_flags(rounder_(ExactValue::infinity(special.negative)));
            // No infinity: what a nearest rounding of an overflow gives (NaN or +-max), without its flags.
            Rounded r = core::Rounder(f, {})(ExactValue::from_scaled_integer(special.negative, 1, 1 << 20));
            r.flags = special.flags;
            return r;
        }
        case SpecialCase::Outcome::Zero: return zero(special.negative);
        case SpecialCase::Outcome::Addend: return with_flags(rounder_(c.exact()));
        case SpecialCase::Outcome::Compute: break;
    }
    op = special.op;
    const double x = a.value, y = b.value, z = c.value;
    if (path_ == ExactPath::DoubleWithErrorTerm) {
        const NearbyDouble near = nearby_double(op, x, y, z);
        Rounded fast;
        if (round_normal_fast(near, fast)) return fast;
        // Only a sum of opposite values cancels exactly.
        if (near.value == 0) return zero(zero_sum_sign(false, true, mode));
        return rounder_(nudged(near.value, near.direction));
    }
    const ExactValue exact = exact_by_mpfr(op, x, y, z);
    if (exact.kind == ExactValue::Kind::Zero) return zero(zero_sum_sign(false, true, mode));
    return rounder_(exact);
}

}  // namespace floatscope::emu
