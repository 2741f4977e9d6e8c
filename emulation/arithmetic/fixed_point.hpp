// Unsigned fixed-point numbers of a few limbs: what the truth's table-driven functions compute in.
#pragma once

#include <cstdint>  // before mpfr.h: its intmax_t functions (MPFR_USE_INTMAX_T)
#include <span>
#include <vector>

#include <gmp.h>
#include <mpfr.h>

namespace floatscope::emu {

/// A fixed-point number's limbs, lowest first: F + 1 of them, the lowest F below the point (values in
/// [0, 2^64) to a unit of 2^-64F).
using FixedLimbs = std::vector<mp_limb_t>;

/// Conversions and truncated products of fixed-point numbers with `fraction` limbs below the point,
/// with the scratch they use: one per thread (correctly_rounded_exp and correctly_rounded_erf use it).
class FixedPoint {
public:
    explicit FixedPoint(int fraction_limbs);
    FixedPoint(const FixedPoint&) = delete;
    FixedPoint& operator=(const FixedPoint&) = delete;
    ~FixedPoint();

    /// v (0 <= v < 2^64) rounded to nearest.
    FixedLimbs nearest(mpfr_srcptr v);
    /// out = v (0 <= v < 2^64) truncated toward zero.
    void truncate_into(std::span<mp_limb_t> out, mpfr_srcptr v);
    /// out = a b truncated to the fixed point, from a's and b's limbs from `dropped` up: below it by less
    /// than (a + b) 2^(64 dropped) + 1 units (their product below 2^64). out may be a or b.
    void multiply(std::span<mp_limb_t> out, std::span<const mp_limb_t> a, std::span<const mp_limb_t> b,
                  int dropped = 0);
    /// out = v, exact where out has 64 (F + 1) bits or v fewer significant ones.
    void to_mpfr(mpfr_ptr out, std::span<const mp_limb_t> v) const;

    const int fraction, limbs;

private:
    void read_into(std::span<mp_limb_t> out, mpz_srcptr z) const;

    mpz_t integer_;
    FixedLimbs product_;  ///< a product's 2 (F + 1) limbs
};

}  // namespace floatscope::emu
