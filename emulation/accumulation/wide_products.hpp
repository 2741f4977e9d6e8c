// WideProductRounding: sums holding exact products of inputs wider than 26 bits, rounded once.
#pragma once

#include "core/format_rounding.hpp"
#include "core/rounding.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

/// The operations of an accumulation model whose terms are exact products x * y of inputs wider than
/// 26 significant bits (fp64, int32, ...): the product then has up to 106 bits, which no double
/// holds, so Arithmetic's double path (which forms x * y in double) cannot take it. Each result is
/// the exact value, formed by MPFR (products at 106 bits, the sum toward zero at 64 bits with a
/// sticky bit: enough for one correct rounding to any p <= 62), rounded once by core's Rounder. Zero
/// and non-finite operands, whose products double forms exactly, go through Arithmetic, so that
/// IEEE's special cases (0 x inf, the sign of an exact zero) are Arithmetic's.
///
/// Operands: any doubles (values of formats up to binary64, anywhere in its range).
class WideProductRounding {
public:
    explicit WideProductRounding(const core::FormatRounding& rounding);

    /// round(x * y + c)
    double fma(double x, double y, double c) const;
    /// round(x * y)
    double product(double x, double y) const;
    /// round(x1 * y1 + x2 * y2), both products exact: a pairwise sum's pair of leaves.
    double product_pair(double x1, double y1, double x2, double y2) const;

private:
    double exact_zero() const;

    Arithmetic arithmetic_;
    core::Rounder rounder_;
};

}  // namespace floatscope::emu
