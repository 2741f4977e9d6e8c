"""Rounding of float64 values to binary formats by MPFR (gmpy2), written without FloatScope.

A binary format here is its precision p (significand bits, hidden bit included), the exponent emin
of its smallest normal (values m 2^(e - p + 1), e >= emin, with subnormals) and whether it has -0.
MPFR rounds with subnormals (subnormalize=True, its emin set so that the smallest subnormal
2^(emin - p + 1) is its smallest value); nearest-away and round-to-odd are read off the two
neighbours MPFR gives toward -inf and +inf, with exact rational arithmetic (fractions).
Inputs are within the format's finite range, so no overflow rule is involved.
"""
import math
from fractions import Fraction

import gmpy2

MODES = ["rne", "rna", "rtz", "rup", "rdn", "rto"]


class Binary:
    def __init__(self, p, emin, negative_zero=True):
        self.p, self.emin, self.negative_zero = p, emin, negative_zero
        # MPFR's exponents are those of 0.1xxx (binary): one more than IEEE's 1.xxx.
        self.context = gmpy2.context(precision=p, emin=emin - p + 2, emax=1 << 20, subnormalize=True)

    def _mpfr_round(self, x, mode):
        exact = gmpy2.mpfr(x)  # in the default context: 53 bits, the double as it is
        with gmpy2.local_context(self.context, round=mode):
            # x * 1 rounds the exact value once in this context, and keeps the sign of a zero.
            return float(gmpy2.mul(exact, 1))

    def quantum(self, v):
        if v == 0:
            return Fraction(2) ** (self.emin - self.p + 1)
        e = math.frexp(v)[1] - 1
        return Fraction(2) ** (max(e, self.emin) - self.p + 1)

    def is_odd(self, v):
        return v != 0 and (Fraction(v) / self.quantum(v)) % 2 == 1

    def round(self, x, mode):
        down = self._mpfr_round(x, gmpy2.RoundDown)
        up = self._mpfr_round(x, gmpy2.RoundUp)
        if mode == "rne":
            r = self._mpfr_round(x, gmpy2.RoundToNearest)
        elif mode == "rtz":
            r = self._mpfr_round(x, gmpy2.RoundToZero)
        elif mode == "rup":
            r = up
        elif mode == "rdn":
            r = down
        elif mode == "rna":
            middle = (Fraction(down) + Fraction(up)) / 2
            if down == up:
                r = down
            elif Fraction(x) == middle:
                r = up if x > 0 else down
            else:
                r = down if Fraction(x) < middle else up
        elif mode == "rto":
            r = down if down == up or self.is_odd(down) else up
        else:
            raise ValueError(mode)
        if r == 0:
            # MPFR keeps the sign of a result rounded to zero; a format without -0 has one zero.
            r = math.copysign(0.0, x) if self.negative_zero else 0.0
        return r

    def values(self, limit):
        """Every non-negative finite value up to `limit`, in order, generated from p and emin."""
        out = [k * 2.0 ** (self.emin - self.p + 1) for k in range(1 << (self.p - 1))]
        e = self.emin
        while True:
            for k in range(1 << (self.p - 1), 1 << self.p):
                v = k * 2.0 ** (e - self.p + 1)
                if v > limit:
                    return out
                out.append(v)
            e += 1
