// Exact FPCore number literals: every decimal, rational, hexadecimal and (digits m e b) literal is
// a rational number, kept exactly as a GMP rational and rounded only where a context says so.
#pragma once

#include <cstdint>  // before gmp.h/mpfr.h, which then declare their intmax_t functions
#include <gmp.h>
#include <mpfr.h>

#include <string_view>

#include "core/exact_value.hpp"

namespace floatscope::emu::fpcore {

/// An owning mpq_t.
class Rational {
public:
    Rational() { mpq_init(value_); }
    Rational(const Rational& other) : Rational() { mpq_set(value_, other.value_); }
    Rational& operator=(const Rational& other) {
        mpq_set(value_, other.value_);
        return *this;
    }
    /// Moves swap, and do not throw: so that a vector of expressions (fpcore::Expr) moves its
    /// elements when it grows instead of copying every subtree, which made parsing a deep
    /// expression quadratic in its depth.
    Rational(Rational&& other) noexcept : Rational() { mpq_swap(value_, other.value_); }
    Rational& operator=(Rational&& other) noexcept {
        mpq_swap(value_, other.value_);
        return *this;
    }
    ~Rational() { mpq_clear(value_); }

    mpq_ptr get() { return value_; }
    mpq_srcptr get() const { return value_; }

    /// The value as rounding needs it: 64 leading bits and a sticky bit (exact to round once).
    core::ExactValue exact() const;
    /// Rounded to nearest into `out` at out's precision.
    void to_mpfr(mpfr_ptr out) const { mpfr_set_q(out, value_, MPFR_RNDN); }
    friend bool operator==(const Rational& a, const Rational& b) { return mpq_equal(a.value_, b.value_) != 0; }

private:
    mpq_t value_;
};

/// The exact value of a number token as FPCore 2.0 spells it: decimal ("-2.5e-3", ".5"), rational
/// ("3969/625") or hexadecimal ("0x1.8p-3"). Throws floatscope::Error naming the text otherwise.
Rational parse_number_literal(std::string_view text);

/// m * b^e for (digits m e b): integers, b >= 2. Throws floatscope::Error otherwise, or when
/// |e| * log2(b) exceeds 100000 bits (nothing FloatScope rounds to is that wide).
Rational digits_value(std::string_view m, std::string_view e, std::string_view b);

/// An ExactValue of an MPFR number computed toward zero whose ternary value was `ternary`: the
/// 64 leading bits plus a sticky bit that is set when the MPFR result was inexact. With at least
/// 64 bits of MPFR precision this is enough to round the exact result correctly to any format of
/// at most 62 significand bits (rounding to odd, Boldo and Melquiond, IEEE TC 2008).
core::ExactValue exact_from_truncated(mpfr_srcptr truncated, int ternary);

}  // namespace floatscope::emu::fpcore
