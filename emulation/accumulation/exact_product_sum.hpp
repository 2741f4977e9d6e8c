// ExactProductSum: a sum of exact products of MPFR numbers in fixed point, rounded once (a Kulisch accumulator).
#pragma once

#include <cstddef>
#include <cstdint>  // before mpfr.h: its intmax_t functions (MPFR_USE_INTMAX_T)
#include <vector>

#include <gmp.h>
#include <mpfr.h>

namespace floatscope::emu {

/// Sums products a_i b_i of finite MPFR numbers exactly in fixed point (Kulisch, "Computer
/// Arithmetic and Validity", 2013: the exact dot product in a long fixed-point accumulator), as
/// two integers over the bits the products span, the positive products' and the negative ones',
/// and rounds their difference once. Each product is one multiplication of the significands (a
/// loop of one-limb products where a factor has one limb), a shift and an addition at its place:
/// about ten times cheaper than an MPFR product and its share of mpfr_sum, and exact by construction.
///
/// Use: a Window over the products (window_of the factors' FactorRanges), begin(), add() every
/// product, round_to().
class ExactProductSum {
public:
    /// The span of a set of products: the lowest bit any of them has (2^low) and a bound above all
    /// their magnitudes (2^high), from the numbers' exponents and precisions alone.
    struct Window {
        long low = 0;
        long high = 0;
        bool empty = true;  ///< no nonzero product
    };
    /// The span of one side's factors (a row of A, a column of B): any product of a factor of
    /// each lies in the window of the two (a superset of their products' own window).
    struct FactorRange {
        long low = 0;  ///< the lowest significand bit of any factor
        long high = 0;  ///< a bound above every factor's magnitude (its exponent)
        bool empty = true;  ///< no nonzero factor seen
        void include(mpfr_srcptr x);  ///< finite; a zero changes nothing
    };
    static Window window_of(const FactorRange& a, const FactorRange& b) {
        return {a.low + b.low, a.high + b.high, a.empty || b.empty};
    }

    /// Starts a sum of at most `terms` products within `w` (w.high - w.low bits plus headroom).
    void begin(const Window& w, std::size_t terms);
    /// Adds a * b exactly; a and b finite, their product within the window begun.
    void add(mpfr_srcptr a, mpfr_srcptr b);
    /// The sum rounded to nearest (ties to even) to `out`'s precision; an exact zero is +0.
    void round_to(mpfr_ptr out);

private:
    std::vector<mp_limb_t> positive_;  ///< the positive products' sum, least significant limb first
    std::vector<mp_limb_t> negative_;  ///< the negative products' magnitudes, summed
    std::vector<mp_limb_t> product_;  ///< scratch for one product and its shift
    long low_ = 0;
};

/// Windows wider than this many bits (numbers of wildly different magnitudes) are left to mpfr_sum.
inline constexpr long max_exact_product_window = 1L << 16;

}  // namespace floatscope::emu
