// One format of a wide ONNX run (a role of a node: compute, accumulate, output, a matrix product's
// steps): MPFR values rounded into it once, with the format's exponent range, subnormals, overflow
// rule and rounding mode, for formats of any width (binary128, binary256, e5m120, fp32 beside them).
#pragma once

#include <cstdint>
#include <memory>

#include "core/format_rounding.hpp"
#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/arithmetic/truth_number.hpp"

namespace floatscope::emu::onnx {

/// Rounds into one format as emu::WideArithmetic's MPFR path rounds (the `eval` command's wide
/// arithmetic): the exact result rounded to odd at p + 65 bits, then once by core::WideRounder,
/// which is the correctly rounded result in every mode (Boldo and Melquiond 2008; the 64 bits after
/// the p kept ones are exact for stochastic rounding). Operands need not be values of the format:
/// a sum of an fp32 product and a binary128 accumulator is rounded once, as an fma.
/// Copies share the stochastic source (numerics are handed out by value for one node).
class WideRole {
public:
    /// Throws floatscope::Error where the format has no wide encoding (core::wide_geometry: fn,
    /// fnuz, unsigned and non-binary formats).
    WideRole(const core::FormatRounding& rounding, std::uint64_t seed);

    /// x (any precision, exact) rounded once into the format: a TruthNumber of the format's precision.
    TruthNumber round(const TruthNumber& x) const;
    /// a op b (op c for Fma: a * b + c) of exact operands, rounded once; Sqrt takes a alone.
    TruthNumber apply(Operation op, const TruthNumber& a, const TruthNumber& b = {}, const TruthNumber& c = {}) const;
    /// f(x) rounded once: `evaluate` sets its first argument to f(x) at that argument's precision
    /// rounded toward zero (an MPFR function: mpfr_exp, ...) and returns MPFR's ternary value.
    TruthNumber function(int (*evaluate)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), const TruthNumber& x) const;
    /// As function, of two arguments (mpfr_pow).
    TruthNumber function(int (*evaluate)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t), const TruthNumber& x,
                         const TruthNumber& y) const;
    /// The format's significant bits p.
    int precision() const;
    /// Bits a value computed for this format keeps before its one rounding: p + 65.
    int odd_precision() const { return precision() + 65; }
    const core::FormatRounding& rounding() const;

private:
    struct State;
    std::shared_ptr<State> state_;
    /// `odd` (at odd_precision) made round-to-odd from MPFR's ternary value of a rounding toward zero.
    static void make_odd(mpfr_ptr odd, int ternary);
};

}  // namespace floatscope::emu::onnx
