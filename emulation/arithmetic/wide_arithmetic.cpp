// Arithmetic on wide formats: special cases shared with the narrow path, MPFR rounded to odd, then WideRounder.
#include "emulation/arithmetic/wide_arithmetic.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/mpfr_number.hpp"
#include "emulation/arithmetic/special_operands.hpp"

namespace floatscope::emu {

using core::WideDecoded;
using core::WideRounded;
using core::WideValue;

namespace {

/// MPFR's widest exponent range while it lives: products and quotients of the widest formats'
/// extremes (2^(+-2^30)) lie outside the default range, and rounding to odd must not overflow.
class WidestExponentRange {
public:
    WidestExponentRange() : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
        mpfr_set_emin(mpfr_get_emin_min());
        mpfr_set_emax(mpfr_get_emax_max());
    }
    WidestExponentRange(const WidestExponentRange&) = delete;
    WidestExponentRange& operator=(const WidestExponentRange&) = delete;
    ~WidestExponentRange() {
        mpfr_set_emin(emin_);
        mpfr_set_emax(emax_);
    }

private:
    mpfr_exp_t emin_, emax_;
};

/// Operands and result, reused by every call on a thread (precisions change with the format).
struct Scratch {
    core::MpfrNumber operand[3] = {core::MpfrNumber(2), core::MpfrNumber(2), core::MpfrNumber(2)};
    core::MpfrNumber result{2};

    void set_precision(mpfr_prec_t operands, mpfr_prec_t result_precision) {
        for (core::MpfrNumber& x : operand)
            if (mpfr_get_prec(x.get()) != operands) mpfr_set_prec(x.get(), operands);
        if (mpfr_get_prec(result.get()) != result_precision) mpfr_set_prec(result.get(), result_precision);
    }
};

/// The exact result of op on finite nonzero values, rounded to odd at `precision` bits.
WideValue rounded_to_odd(Operation op, const WideDecoded* const (&operands)[3], int format_precision,
                         core::RoundingMode mode) {
    thread_local Scratch s;
    const WidestExponentRange range;
    s.set_precision(format_precision, format_precision + 65);
    const int n = operand_count(op);
    for (int i = 0; i < n; ++i) operands[i]->value.to_mpfr(s.operand[i].get());
    mpfr_ptr r = s.result.get();
    mpfr_srcptr a = s.operand[0].get(), b = s.operand[1].get(), c = s.operand[2].get();
    int ternary = 0;
    switch (op) {
        case Operation::Add: ternary = mpfr_add(r, a, b, MPFR_RNDZ); break;
        case Operation::Sub: ternary = mpfr_sub(r, a, b, MPFR_RNDZ); break;
        case Operation::Mul: ternary = mpfr_mul(r, a, b, MPFR_RNDZ); break;
        case Operation::Div: ternary = mpfr_div(r, a, b, MPFR_RNDZ); break;
        case Operation::Sqrt: ternary = mpfr_sqrt(r, a, MPFR_RNDZ); break;
        case Operation::Fma: ternary = mpfr_fma(r, a, b, c, MPFR_RNDZ); break;
    }
    // Only a sum of opposite values cancels exactly.
    if (mpfr_zero_p(r)) return WideValue::from_exact(core::ExactValue::zero(zero_sum_sign(false, true, mode)));
    WideValue v = WideValue::from_mpfr(r);  // the significand has all precision bits
    if (ternary != 0) mpz_setbit(v.significand.get_mpz_t(), 0);
    return v;
}

OperandClass operand_class(const WideDecoded& d) { return {d.value_class, d.value.negative, d.value.signaling}; }

}  // namespace

WideArithmetic::WideArithmetic(const core::FormatSpec& spec, core::RoundingOptions options, WidePath preferred)
    : rounder_(spec, options) {
    // The fixed-size path knows the IEEE encoding alone; P3109 formats take MPFR.
    if (preferred != WidePath::FixedLimbs || spec.nan_encoding != core::NanEncoding::Ieee) return;
    if (spec.total_bits() <= 128)
        fixed_.emplace<FixedWideArithmetic<2>>(spec, options);
    else if (spec.total_bits() <= 256)
        fixed_.emplace<FixedWideArithmetic<4>>(spec, options);
}

namespace {

/// The limbs of a pattern; throws floatscope::Error as decode_wide_bits does when it does not fit the format.
template <int P>
core::Limbs<P> to_limbs(const core::FormatSpec& spec, const core::WideBits& bits) {
    if (sgn(bits) < 0 || mpz_sizeinbase(bits.get_mpz_t(), 2) > static_cast<std::size_t>(spec.total_bits()))
        core::decode_wide_bits(spec, bits);  // throws, naming the pattern and the format
    core::Limbs<P> limbs{};
    for (int i = 0; i < P; ++i) limbs[i] = mpz_getlimbn(bits.get_mpz_t(), i);
    return limbs;
}

template <int P>
WideRounded apply_fixed(const FixedWideArithmetic<P>& fixed, Operation op, const core::WideBits& a,
                        const core::WideBits& b, const core::WideBits& c) {
    const core::FormatSpec& spec = fixed.rounder().spec();
    const core::FixedRounded<P> r = fixed.apply(op, to_limbs<P>(spec, a), to_limbs<P>(spec, b), to_limbs<P>(spec, c));
    WideRounded out;
    mpz_import(out.bits.get_mpz_t(), P, -1, sizeof(std::uint64_t), 0, 0, r.bits.data());
    out.flags = r.flags;
    return out;
}

}  // namespace

WideRounded WideArithmetic::apply(Operation op, const core::WideBits& a, const core::WideBits& b,
                                  const core::WideBits& c) const {
    if (FixedWideArithmetic<2>::computes(op)) {
        if (const auto* fixed = std::get_if<FixedWideArithmetic<2>>(&fixed_)) return apply_fixed(*fixed, op, a, b, c);
        if (const auto* fixed = std::get_if<FixedWideArithmetic<4>>(&fixed_)) return apply_fixed(*fixed, op, a, b, c);
    }
    return apply_mpfr(op, a, b, c);
}

WideRounded WideArithmetic::apply_mpfr(Operation op, const core::WideBits& a, const core::WideBits& b,
                                       const core::WideBits& c) const {
    const core::FormatSpec& f = rounder_.spec();
    const int n = operand_count(op);
    const WideDecoded da = core::decode_wide_bits(f, a);
    const WideDecoded db = n >= 2 ? core::decode_wide_bits(f, b) : WideDecoded{};
    const WideDecoded dc = n >= 3 ? core::decode_wide_bits(f, c) : WideDecoded{};
    const WideDecoded* const operands[3] = {&da, &db, &dc};
    const core::RoundingMode mode = rounder_.options().mode;
    const SpecialCase special =
        special_case(op, {operand_class(da), operand_class(db), operand_class(dc)}, mode, zero_division(f));
    auto with_flags = [&](WideRounded r) {
        r.flags |= special.flags;
        return r;
    };
    auto exact = [](const core::ExactValue& x) { return WideValue::from_exact(x); };
    switch (special.outcome) {
        case SpecialCase::Outcome::Nan: {
            // A NaN operand propagates, quieted.
            WideValue nan = special.nan_source >= 0 ? operands[special.nan_source]->value
                                                    : exact(core::ExactValue::quiet_nan(true));
            nan.signaling = false;
            return with_flags(rounder_(nan));
        }
        case SpecialCase::Outcome::Infinity: {
            if (f.has_infinity) return with_flags(rounder_(exact(core::ExactValue::infinity(special.negative))));
            // No infinity (P3109 finite): what a nearest rounding of an overflow gives, without its flags.
            WideValue beyond_range;
            beyond_range.kind = WideValue::Kind::Finite;
            beyond_range.negative = special.negative;
            beyond_range.significand = 1;
            beyond_range.exponent = std::int64_t{1} << 40;  // above every wide format's 2^(2^30)
            WideRounded r = core::WideRounder(f, {})(beyond_range);
            r.flags = special.flags;
            return r;
        }
        case SpecialCase::Outcome::Zero: return with_flags(rounder_(exact(core::ExactValue::zero(special.negative))));
        case SpecialCase::Outcome::Addend: return with_flags(rounder_(dc.value));
        case SpecialCase::Outcome::Compute: break;
    }
    return rounder_(rounded_to_odd(special.op, operands, rounder_.geometry().precision, mode));
}

}  // namespace floatscope::emu
