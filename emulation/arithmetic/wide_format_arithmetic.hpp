// One format's arithmetic on patterns (any width): conversions in and out, and counted operations.
#pragma once

#include <cstdint>

#include <mpfr.h>

#include "core/format_rounding.hpp"
#include "core/stochastic_source.hpp"
#include "core/wide_format.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/arithmetic/wide_arithmetic.hpp"

namespace floatscope::emu {

/// The values of one format held as patterns (core::WideBits) and the operations a workload runs on
/// them, each rounded once (emu::WideArithmetic: bit-exact, every mode and flag) and counted into
/// the thread's active OperationCounters (CountingScope), as Emulated counts narrow operations.
/// It takes narrow formats too (WideArithmetic does), so that a workload with one role wider than
/// binary64 runs all its roles on one path; the results on a narrow format are emu::Arithmetic's.
class WideFormatArithmetic {
public:
    /// `random` (not owned) feeds stochastic modes; it may be null for deterministic ones.
    WideFormatArithmetic(const core::FormatRounding& rounding, core::StochasticSource* random);

    const core::FormatSpec& format() const { return arithmetic_.spec(); }
    int precision() const { return arithmetic_.rounder().geometry().precision; }

    /// op on values of the format, rounded once and counted.
    core::WideBits apply(Operation op, const core::WideBits& a, const core::WideBits& b = 0,
                         const core::WideBits& c = 0) const;
    core::WideBits add(const core::WideBits& a, const core::WideBits& b) const { return apply(Operation::Add, a, b); }
    core::WideBits fma(const core::WideBits& a, const core::WideBits& b, const core::WideBits& c) const {
        return apply(Operation::Fma, a, b, c);
    }

    /// An exact value (a double, an MPFR number, a value of another format) rounded into the
    /// format and counted: exact, raising no flag, where the format holds it.
    core::WideBits round(const core::WideValue& x) const;
    core::WideBits round(double x) const;
    core::WideBits round(mpfr_srcptr x) const { return round(core::WideValue::from_mpfr(x)); }
    core::WideBits convert(const WideFormatArithmetic& from, const core::WideBits& x) const {
        return round(from.value(x));
    }

    /// -x, exactly (the sign bit flipped by decoding and encoding, so P3109's unsigned formats and
    /// its single NaN keep their rules); not counted, as negation is no rounding.
    core::WideBits negate(const core::WideBits& x) const;

    /// The exact value of a pattern.
    core::WideValue value(const core::WideBits& x) const { return core::decode_wide_bits(format(), x).value; }
    /// The exact value as an MPFR number at the format's precision.
    TruthNumber exact(const core::WideBits& x) const;
    /// The nearest double (round to nearest even), for plots and double metrics.
    double nearest_double(const core::WideBits& x) const;
    /// The pattern's class: from its fields in IEEE encodings with infinities and gradual
    /// subnormals (no decoding: counting every operation asks it), decode_wide_bits' otherwise.
    core::ValueClass value_class(const core::WideBits& x) const;

private:
    core::WideBits counted(core::WideRounded r) const;

    WideArithmetic arithmetic_;
    bool plain_ieee_;  ///< value_class may read the fields
};

}  // namespace floatscope::emu
