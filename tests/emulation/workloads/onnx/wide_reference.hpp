// Test-only: an ONNX node's values in an IEEE-like binary format of any width, computed straight in
// MPFR (each operation at the format's precision within its exponent range, then mpfr_subnormalize),
// independently of the code under test (WideRole's round to odd and WideRounder).
#pragma once

#include <cstdint>  // before mpfr.h, which then declares its intmax_t functions
#include <functional>
#include <string>
#include <vector>

#include <mpfr.h>

#include "emulation/arithmetic/truth_number.hpp"

namespace floatscope::test::onnx {

using emu::TruthNumber;

/// An IEEE-like binary format eXmY in MPFR's terms: x = m 2^e with 1/2 <= |m| < 1.
struct ReferenceFormat {
    int precision = 0;
    mpfr_exp_t emin = 0;  ///< the smallest subnormal is 2^(emin - 1)
    mpfr_exp_t emax = 0;  ///< values below 2^emax

    static ReferenceFormat ieee_like(int exponent_bits, int mantissa_bits) {
        const mpfr_exp_t bias = (mpfr_exp_t{1} << (exponent_bits - 1)) - 1;
        return {mantissa_bits + 1, 3 - bias - (mantissa_bits + 1), bias + 1};
    }

    /// `operation(out)` (an MPFR call with MPFR_RNDN at out's precision, returning its ternary
    /// value) within the format's exponent range, subnormals rounded again as the format rounds them.
    TruthNumber rounded(const std::function<int(mpfr_ptr)>& operation) const {
        const mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
        TruthNumber r = emu::truth_number(precision);
        mpfr_set_emin(emin);
        mpfr_set_emax(emax);
        int ternary = operation(r.backend().data());
        ternary = mpfr_check_range(r.backend().data(), ternary, MPFR_RNDN);
        mpfr_subnormalize(r.backend().data(), ternary, MPFR_RNDN);
        mpfr_set_emin(old_emin);
        mpfr_set_emax(old_emax);
        return r;
    }
    TruthNumber from_double(double x) const {
        return rounded([&](mpfr_ptr r) { return mpfr_set_d(r, x, MPFR_RNDN); });
    }
    TruthNumber add(const TruthNumber& a, const TruthNumber& b) const {
        return rounded([&](mpfr_ptr r) { return mpfr_add(r, a.backend().data(), b.backend().data(), MPFR_RNDN); });
    }
    TruthNumber div(const TruthNumber& a, const TruthNumber& b) const {
        return rounded([&](mpfr_ptr r) { return mpfr_div(r, a.backend().data(), b.backend().data(), MPFR_RNDN); });
    }
    TruthNumber sub(const TruthNumber& a, const TruthNumber& b) const {
        return rounded([&](mpfr_ptr r) { return mpfr_sub(r, a.backend().data(), b.backend().data(), MPFR_RNDN); });
    }
    /// a * b + c rounded once.
    TruthNumber fma(const TruthNumber& a, const TruthNumber& b, const TruthNumber& c) const {
        return rounded([&](mpfr_ptr r) {
            return mpfr_fma(r, a.backend().data(), b.backend().data(), c.backend().data(), MPFR_RNDN);
        });
    }
    TruthNumber exp(const TruthNumber& a) const {
        return rounded([&](mpfr_ptr r) { return mpfr_exp(r, a.backend().data(), MPFR_RNDN); });
    }
    TruthNumber zero() const { return from_double(0); }
    /// Sequential sum of products from +0, each step one fma (the policies' default accumulation).
    TruthNumber dot(const std::vector<const TruthNumber*>& x, const std::vector<const TruthNumber*>& y) const {
        TruthNumber s = zero();
        for (std::size_t i = 0; i < x.size(); ++i) s = fma(*x[i], *y[i], s);
        return s;
    }
};

/// Bit for bit: the same value and sign, or both NaN.
inline bool same_value(const TruthNumber& a, const TruthNumber& b) {
    mpfr_srcptr x = a.backend().data(), y = b.backend().data();
    if (mpfr_nan_p(x) || mpfr_nan_p(y)) return mpfr_nan_p(x) && mpfr_nan_p(y);
    return mpfr_equal_p(x, y) && mpfr_signbit(x) == mpfr_signbit(y);
}

/// How many of `values` differ from `expected` (sizes must match).
inline std::size_t mismatches(const std::vector<TruthNumber>& values, const std::vector<TruthNumber>& expected) {
    if (values.size() != expected.size()) return values.size() + expected.size();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < values.size(); ++i) wrong += !same_value(values[i], expected[i]);
    return wrong;
}

}  // namespace floatscope::test::onnx
