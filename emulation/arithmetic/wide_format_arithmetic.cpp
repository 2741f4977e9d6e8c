// One format's arithmetic on patterns: WideArithmetic's operations and WideRounder's conversions, counted.
#include "emulation/arithmetic/wide_format_arithmetic.hpp"

#include "emulation/arithmetic/operation_counters.hpp"

namespace floatscope::emu {

WideFormatArithmetic::WideFormatArithmetic(const core::FormatRounding& rounding, core::StochasticSource* random)
    : arithmetic_(rounding.format, {rounding.mode, core::Tininess::AfterRounding, random}),
      plain_ieee_(rounding.format.kind == core::FormatKind::Binary && !rounding.format.is_p3109() &&
                  rounding.format.nan_encoding == core::NanEncoding::Ieee && rounding.format.has_infinity &&
                  rounding.format.has_sign && rounding.format.subnormals == core::SubnormalPolicy::Gradual) {}

core::ValueClass WideFormatArithmetic::value_class(const core::WideBits& x) const {
    if (!plain_ieee_) return core::decode_wide_bits(format(), x).value_class;
    mpz_srcptr bits = x.get_mpz_t();
    const auto mantissa = static_cast<mp_bitcnt_t>(format().mantissa_bits);
    const auto exponent = static_cast<mp_bitcnt_t>(format().exponent_bits);
    bool all_zeros = true, all_ones = true;
    for (mp_bitcnt_t i = mantissa; i < mantissa + exponent; ++i) {
        const bool set = mpz_tstbit(bits, i) != 0;
        all_zeros = all_zeros && !set;
        all_ones = all_ones && set;
    }
    const bool mantissa_zero = mpz_scan1(bits, 0) >= mantissa;  // no set bit below the exponent field
    if (all_ones) return mantissa_zero ? core::ValueClass::Infinite : core::ValueClass::NaN;
    if (all_zeros) return mantissa_zero ? core::ValueClass::Zero : core::ValueClass::Subnormal;
    return core::ValueClass::Normal;
}

core::WideBits WideFormatArithmetic::apply(Operation op, const core::WideBits& a, const core::WideBits& b,
                                           const core::WideBits& c) const {
    return counted(arithmetic_.apply(op, a, b, c));
}

core::WideBits WideFormatArithmetic::round(const core::WideValue& x) const {
    return counted(arithmetic_.rounder()(x));
}

core::WideBits WideFormatArithmetic::round(double x) const {
    return round(core::WideValue::from_exact(core::ExactValue::from_double(x)));
}

core::WideBits WideFormatArithmetic::negate(const core::WideBits& x) const {
    core::WideValue v = value(x);
    v.negative = !v.negative;
    return arithmetic_.rounder()(v).bits;
}

TruthNumber WideFormatArithmetic::exact(const core::WideBits& x) const {
    TruthNumber v = truth_number(precision());
    value(x).to_mpfr(v.backend().data());
    return v;
}

double WideFormatArithmetic::nearest_double(const core::WideBits& x) const {
    const TruthNumber v = exact(x);
    return mpfr_get_d(v.backend().data(), MPFR_RNDN);
}

core::WideBits WideFormatArithmetic::counted(core::WideRounded r) const {
    if (OperationCounters* counters = detail::active_counters) counters->record(r.flags, value_class(r.bits));
    return std::move(r.bits);
}

}  // namespace floatscope::emu
