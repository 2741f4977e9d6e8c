// Add, sub, mul and fma on formats of up to 256 bits (binary128, binary256, e15m240) with
// fixed-size integer significands: the results, flags and random draws of WideArithmetic's MPFR path,
// with no allocation.
#pragma once

#include "core/fixed_wide_rounding.hpp"
#include "core/format.hpp"
#include "core/limbs.hpp"
#include "core/rounding.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

/// Where a format's fields lie in a pattern of P limbs, for decoding.
template <int P>
struct FixedLayout {
    int mantissa_bits = 0;
    int sign_position = 0;
    std::uint64_t field_mask = 0;  ///< the exponent field's bits, from bit 0
    std::int64_t bias = 0;
    std::int64_t emin = 0;
    bool flush = false;  ///< subnormal operands read as zeros
    /// The limbs a sum or product is rounded to odd in before FixedWideRounder: P where the
    /// rounding is not stochastic (p + 2 bits keep every other mode's decisions, p <= 64 P - 5),
    /// else P + 1 for add and sub where p + 65 bits fit them, else 2 P (exact products).
    int sum_limbs = 0;
    int product_limbs = 0;
    core::Limbs<P> mantissa_mask;
    core::Limbs<P> width_mask;  ///< the bits a pattern may have
};

/// Arithmetic in one IEEE-encoded binary format of at most 64 P bits (P = 2: binary128 and
/// narrower; P = 4: up to 256 bits), on patterns of P limbs (least significant first).
///
/// The path: the exact product in 2P limbs; sums (and fma's addend) aligned in 2P limbs (add and sub
/// in P + 1 where the format leaves room, p <= 64 P - 4) with the
/// larger operand's leading bit one below the top, the bits of the other shifted out gathered
/// into the last bit (rounding to odd). When bits are shifted out the exponents differ by two or
/// more, so at most one bit cancels and the sum keeps 128 P - 3 >= p + 65 bits; otherwise it is
/// exact. FixedWideRounder then rounds it as WideRounder rounds MPFR's result rounded to odd at
/// p + 65 bits: the same values, flags and stochastic draws (WideArithmetic's comment says why).
/// Stochastic rounding reads the first 64 discarded bits; every other mode only the round bit and
/// whether any bit below it is set, which a value rounded to odd at p + 2 bits or more keeps
/// (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using
/// rounding to odd", IEEE TC 57(4), 2008). For those modes add, sub and mul round to odd in P limbs
/// (64 P - 3 >= p + 2 bits), which halves the rounder's work on binary128; there, two normal
/// operands of add, sub and mul stay in unsigned __int128 from decoding to rounding.
template <int P>
class FixedWideArithmetic {
public:
    /// Throws floatscope::Error when the format is wider than 64 P bits or has no IEEE encoding.
    FixedWideArithmetic(const core::FormatSpec& spec, core::RoundingOptions options);

    /// Add, Sub, Mul and Fma (the others throw floatscope::Error: WideArithmetic computes them).
    /// Throws floatscope::Error when a pattern has bits above the format's width.
    core::FixedRounded<P> apply(Operation op, const core::Limbs<P>& a, const core::Limbs<P>& b = {},
                                const core::Limbs<P>& c = {}) const;

    static bool computes(Operation op) { return op != Operation::Div && op != Operation::Sqrt; }
    const core::FixedWideRounder<P>& rounder() const { return rounder_; }

private:
    core::FixedWideRounder<P> rounder_;
    FixedLayout<P> layout_;
};

extern template class FixedWideArithmetic<2>;
extern template class FixedWideArithmetic<4>;

}  // namespace floatscope::emu
