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
/// Use: a Window over the products (window_of the factors' FactorRanges), begin(), add_products() for every
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

    /// A finite factor as its products read it: the significand's limbs from the lowest nonzero one
    /// (a double held at 256 bits is the one limb it is), the exponent of that limb's lowest bit,
    /// and the sign. A zero has no limbs. The limbs are the number's own or a copy (FactorTable):
    /// a GEMM reads each factor n times, and reading it from MPFR's number each time (precision,
    /// exponent, significand, zero limbs) cost as much as the multiplication.
    struct Factor {
        const mp_limb_t* limbs = nullptr;
        long lowest = 0;
        int count = 0;  ///< nonzero limbs from the lowest nonzero one; 0 for a zero
        bool negative = false;
        static Factor of(mpfr_srcptr x);  ///< x finite
    };

    /// Starts a sum of at most `terms` products within `w` (w.high - w.low bits plus headroom).
    void begin(const Window& w, std::size_t terms);
    /// Adds a_l * b_l (l < count) exactly; the products within the window begun. One call per sum:
    /// a call per product cost as much as its multiplication.
    void add_products(const Factor* a, const Factor* b, std::size_t count);
    /// The sum rounded to nearest (ties to even) to `out`'s precision; an exact zero is +0.
    void round_to(mpfr_ptr out);

    /// A column of the accumulator: the sum of the 64-bit pieces of products that fall on one limb
    /// position, their carries into the next limb left in its high half until round_to.
    using Column = unsigned __int128;

private:
    /// columns += a b 2^shift, both of several limbs.
    void add_wide_product(Column* columns, const Factor& a, const Factor& b, unsigned shift);
    std::vector<Column> positive_;  ///< the positive products' sum, least significant column first
    std::vector<Column> negative_;  ///< the negative products' magnitudes, summed
    std::vector<mp_limb_t> positive_limbs_, negative_limbs_;  ///< the two sums carried, in round_to
    std::vector<mp_limb_t> product_;  ///< scratch for one product
    long low_ = 0;
};

/// Finite MPFR numbers as Factors over one buffer of their nonzero limbs, side by side in the
/// order given: a matrix's rows, or its columns, as the products read them.
class FactorTable {
public:
    /// The numbers number_at(0) ... number_at(count - 1) (mpfr_srcptr); a non-finite number is held
    /// as a zero, for sums that do not read it (they leave non-finite operands to MPFR).
    template <class NumberAt>
    FactorTable(std::size_t count, NumberAt number_at) {
        std::size_t limbs = 0;
        for (std::size_t i = 0; i < count; ++i) limbs += limbs_to_copy(number_at(i));
        limbs_.resize(limbs);
        factors_.reserve(count);
        for (std::size_t i = 0; i < count; ++i) append(number_at(i));
    }
    const ExactProductSum::Factor& operator[](std::size_t i) const { return factors_[i]; }

private:
    static std::size_t limbs_to_copy(mpfr_srcptr x);
    void append(mpfr_srcptr x);  ///< into limbs_, sized by limbs_to_copy beforehand
    std::vector<mp_limb_t> limbs_;
    std::vector<ExactProductSum::Factor> factors_;
    std::size_t used_ = 0;  ///< limbs_ filled so far
};

/// Windows wider than this many bits (numbers of wildly different magnitudes) are left to mpfr_sum.
inline constexpr long max_exact_product_window = 1L << 16;

}  // namespace floatscope::emu
