// Bit-exact add, sub, mul, div, sqrt and fma on formats wider than binary64 (binary128, binary256,
// up to e30m1024) through MPFR, with IEEE flags.
#pragma once

#include "core/rounding.hpp"
#include "core/wide_format.hpp"
#include "core/wide_rounding.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

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
class WideArithmetic {
public:
    /// Any binary format wide_geometry accepts, narrow ones too (tests compare the two paths).
    WideArithmetic(const core::FormatSpec& spec, core::RoundingOptions options);

    core::WideRounded apply(Operation op, const core::WideBits& a, const core::WideBits& b = 0,
                            const core::WideBits& c = 0) const;

    const core::FormatSpec& spec() const { return rounder_.spec(); }
    const core::WideRounder& rounder() const { return rounder_; }

private:
    core::WideRounder rounder_;
};

}  // namespace floatscope::emu
