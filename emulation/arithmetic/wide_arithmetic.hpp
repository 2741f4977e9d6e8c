// Bit-exact add, sub, mul, div, sqrt and fma on formats wider than binary64 (binary128, binary256,
// up to e30m1024) with IEEE flags: fixed-size significands up to 256 bits, MPFR beyond and for div, sqrt.
#pragma once

#include <variant>

#include "core/rounding.hpp"
#include "core/wide_format.hpp"
#include "core/wide_rounding.hpp"
#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/arithmetic/fixed_wide_arithmetic.hpp"

namespace floatscope::emu {

/// How WideArithmetic computes add, sub, mul and fma; div and sqrt always go through MPFR.
enum class WidePath {
    FixedLimbs,  ///< FixedWideArithmetic, for formats of up to 256 bits (MPFR for wider ones)
    Mpfr,  ///< MPFR rounded to odd: the reference the fixed-size path is tested against
};

/// Arithmetic in one IEEE-encoded binary format of any width, under fixed rounding options: the
/// same results and flags as emu::Arithmetic on every format both take (the special cases are
/// shared: emulation/arithmetic/special_operands.hpp).
///
/// The path: MPFR computes the result of the format's values with an unbounded exponent range
/// (MPFR's widest, set for the call), rounded to odd at p + 65 bits: truncated, with the last bit
/// set when inexact. Round-to-odd at two or more extra bits makes the second rounding (WideRounder,
/// to p bits or fewer below the normal range) correct in every deterministic mode, tininess and
/// overflow included (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums: proved
/// algorithms using rounding to odd", IEEE TC 57(4), 2008); the 64 bits after the p kept ones are
/// exact, so stochastic rounding sees the same 64 discarded bits as core::Rounder.
/// Add, sub, mul and fma on formats of up to 256 bits take FixedWideArithmetic instead (no MPFR,
/// no allocation but the result's), which gives the same results, flags and random draws.
class WideArithmetic {
public:
    /// Any binary format wide_geometry accepts, narrow ones too (tests compare the two paths).
    WideArithmetic(const core::FormatSpec& spec, core::RoundingOptions options,
                   WidePath preferred = WidePath::FixedLimbs);

    core::WideRounded apply(Operation op, const core::WideBits& a, const core::WideBits& b = 0,
                            const core::WideBits& c = 0) const;

    const core::FormatSpec& spec() const { return rounder_.spec(); }
    const core::WideRounder& rounder() const { return rounder_; }
    /// The path add, sub, mul and fma take: FixedLimbs only where the format fits it.
    WidePath path() const { return fixed_.index() == 0 ? WidePath::Mpfr : WidePath::FixedLimbs; }

private:
    core::WideRounded apply_mpfr(Operation op, const core::WideBits& a, const core::WideBits& b,
                                 const core::WideBits& c) const;

    core::WideRounder rounder_;
    std::variant<std::monostate, FixedWideArithmetic<2>, FixedWideArithmetic<4>> fixed_;
};

}  // namespace floatscope::emu
