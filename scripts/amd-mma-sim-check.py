#!/usr/bin/python3
"""Cross-checks the AMD presets (amd_mi100_*, amd_mi250_*, amd_mi300_*) against an independent reading of
MMA-Sim's CDNA1-3 models (github.com/microsoft/MMA-Sim: mmasim/simulator/amd.py and the functions
pairwise_dot and amd_fused_dot_add of mmasim/simulator/functions.py), written here again in exact
rational arithmetic, on random and adversarial instructions through `floatscope-cli dot`.

Usage: scripts/amd-mma-sim-check.py [COUNT]   (COUNT instructions per preset and kind, default 300)
Prints, per preset, how many instructions agree bit for bit, and the first disagreements; exits 1
if any preset disagrees beyond the sign of an all-zero result of CDNA2 (MMA-Sim flushes a
subnormal input to +0, the presets keep its sign; docs/tensor-cores.md)."""

import math
import os
import random
import struct
import subprocess
import sys
from fractions import Fraction

CLI = os.environ.get("FLOATSCOPE_CLI", "build/app/cli/floatscope-cli")


class Format:
    def __init__(self, exponent_bits, mantissa_bits, bias, fnuz=False):
        self.e, self.m, self.bias, self.fnuz = exponent_bits, mantissa_bits, bias, fnuz
        self.emin = 1 - bias

    def value(self, code):
        """The value of a code, None for NaN or infinity."""
        sign = -1 if code >> (self.e + self.m) & 1 else 1
        exponent = code >> self.m & ((1 << self.e) - 1)
        mantissa = code & ((1 << self.m) - 1)
        if self.fnuz and code == 1 << (self.e + self.m):
            return None  # FNUZ's NaN at 0x80
        if not self.fnuz and exponent == (1 << self.e) - 1:
            return None
        if exponent == 0:
            return sign * Fraction(mantissa, 1 << self.m) * Fraction(2) ** self.emin
        return sign * (1 + Fraction(mantissa, 1 << self.m)) * Fraction(2) ** (exponent - self.bias)

    def random_value(self, rng, low_exponents=False):
        while True:
            code = rng.randrange(1 << (1 + self.e + self.m))
            if low_exponents:  # subnormal and the smallest normal binades
                code &= (1 << (self.m + 1)) - 1 | 1 << (self.e + self.m)
            v = self.value(code)
            if v is not None:
                return v


FP16 = Format(5, 10, 15)
BF16 = Format(8, 7, 127)
TF32 = Format(8, 10, 127)
E4M3FNUZ = Format(4, 3, 8, fnuz=True)
E5M2FNUZ = Format(5, 2, 16, fnuz=True)
FP32_MIN = Fraction(2) ** -126


def round_fp32(x):
    """x rounded to binary32 with round to nearest even (subnormals, overflow to infinity)."""
    if isinstance(x, float):  # an infinity or NaN already
        return x
    if x == 0:
        return x
    sign = -1 if x < 0 else 1
    a = abs(x)
    e = max(math.floor(math.log2(a)), -126)
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, -126)
    quantum = Fraction(2) ** (e - 23)
    q, r = divmod(a, quantum)
    if r * 2 > quantum or (r * 2 == quantum and q % 2 == 1):
        q += 1
    result = q * quantum
    if result >= Fraction(2) ** 128:
        return sign * math.inf
    if result == 0:
        return -0.0 if sign < 0 else Fraction(0)  # a negative value rounded to zero keeps its sign
    return sign * result


def flush(x, smallest=FP32_MIN):
    """MMA-Sim's flush_denormal: a nonzero below the format's smallest normal becomes a zero (the
    sign of a flushed zero is not tracked here: results that differ only in it are counted apart)."""
    return Fraction(0) if x != 0 and abs(x) < smallest else x


def exact(x):
    """A -0.0 from round_fp32 as an exact zero, for the next operation."""
    return Fraction(0) if x == 0 else x


def pairwise_dot(a, b, flushing):
    """MMA-Sim's pairwise_dot: leaves fma(a, b, 0) in fp32, nodes fma(left, 1, right)."""
    if len(a) == 1:
        s = round_fp32(a[0] * b[0])
    else:
        half = len(a) // 2
        s = round_fp32(exact(pairwise_dot(a[:half], b[:half], flushing)) + exact(pairwise_dot(a[half:], b[half:], flushing)))
    return flush(s) if flushing else s


def exponent_of(x, emin):
    """MMA-Sim's extract_significand_exponent: floor(log2 |x|), at least emin; None for zero."""
    if x == 0:
        return None
    e = math.floor(math.log2(abs(x)))
    while Fraction(2) ** e > abs(x):
        e -= 1
    while Fraction(2) ** (e + 1) <= abs(x):
        e += 1
    return max(e, emin)


def fused_sum(terms, fraction_bits):
    """Each significand truncated to fraction_bits below the largest exponent, summed: (sum, largest)."""
    live = [(s, e) for s, e in terms if e is not None]
    if not live:
        return Fraction(0), None
    top = max(e for _, e in live)
    total = sum(Fraction(math.trunc(s * Fraction(2) ** (fraction_bits + e - top))) / 2**fraction_bits for s, e in live)
    return total, top


def floor_to(s, bits):
    return Fraction(math.floor(s * 2**bits)) / 2**bits


def amd_fused_dot_add(a, b, c, fmt, is_fp8):
    """MMA-Sim's CDNA3 fused dot-add of one group onto c (24 fraction bits, join rounded down)."""
    products = [x * y for x, y in zip(a, b)]
    for p in products:
        if abs(p) >= Fraction(2) ** 128:
            big = [q for q in products if abs(q) >= Fraction(2) ** 128]
            signs = {q > 0 for q in big}
            return math.nan if len(signs) == 2 else (math.inf if True in signs else -math.inf)
    terms = []
    for x, y in zip(a, b):
        ex, ey = exponent_of(x, fmt.emin), exponent_of(y, fmt.emin)
        if ex is None or ey is None:
            continue
        terms.append((x / Fraction(2) ** ex * y / Fraction(2) ** ey, ex + ey))
    ec = exponent_of(c, -126)
    sc = c / Fraction(2) ** ec if ec is not None else Fraction(0)
    if is_fp8:
        even = [t for i, t in enumerate(terms_by_position(a, b, fmt)) if i % 2 == 0 and t is not None]
        odd = [t for i, t in enumerate(terms_by_position(a, b, fmt)) if i % 2 == 1 and t is not None]
        s0, e0 = fused_sum(even, 24)
        s1, e1 = fused_sum(odd, 24)
        exps = [e for e in (e0, e1) if e is not None]
        if not exps and ec is None:
            return Fraction(0)
        if exps:
            top = max(exps)
            s = sum(floor_to(si * Fraction(2) ** (ei - top), 24) for si, ei in ((s0, e0), (s1, e1)) if ei is not None)
            e = top
        else:
            s, e = Fraction(0), None
        join = max(x for x in (e, ec) if x is not None)
        s = floor_to(s * Fraction(2) ** (e - join), 31) if e is not None else Fraction(0)
        sc = floor_to(sc * Fraction(2) ** (ec - join), 24) if ec is not None and ec >= join - 25 else Fraction(0)
        return (s + sc) * Fraction(2) ** join
    s, e = fused_sum(terms, 24)
    if e is None and ec is None:
        return Fraction(0)
    join = max(x for x in (e, ec) if x is not None)
    s = floor_to(s * Fraction(2) ** (e - join), 31) if e is not None else Fraction(0)
    sc = floor_to(sc * Fraction(2) ** (ec - join), 24) if ec is not None else Fraction(0)
    return (s + sc) * Fraction(2) ** join


def terms_by_position(a, b, fmt):
    out = []
    for x, y in zip(a, b):
        ex, ey = exponent_of(x, fmt.emin), exponent_of(y, fmt.emin)
        out.append(None if ex is None or ey is None else (x / Fraction(2) ** ex * y / Fraction(2) ** ey, ex + ey))
    return out


def mma_sim(arch, fmt, group, a, b, c, is_fp8=False):
    """One MFMA instruction's D as mmasim/simulator/amd.py computes it."""
    if arch in ("CDNA1", "CDNA2"):
        flushing = arch == "CDNA2"
        if flushing:
            a = [flush(x, Fraction(2) ** fmt.emin) for x in a]
            b = [flush(x, Fraction(2) ** fmt.emin) for x in b]
            c = flush(c)
        s = c
        for l in range(0, len(a), group):
            s = round_fp32(exact(s) + exact(pairwise_dot(a[l:l + group], b[l:l + group], flushing)))
            if flushing:
                s = flush(s)
        return s
    s = c
    for l in range(0, len(a), group):
        if isinstance(s, float) and s != 0:
            return s
        s = amd_fused_dot_add(a[l:l + group], b[l:l + group], exact(s), fmt, is_fp8)
        if isinstance(s, float) and not math.isfinite(s):
            return s
        s = round_fp32(s)
    return s


def f32_hex(x):
    if isinstance(x, float) and math.isnan(x):
        return "7FC00000"
    return "%08X" % struct.unpack("<I", struct.pack("<f", float(x)))[0]


PRESETS = (  # name, arch, format, group, K, fp8
    ("amd_mi100_fp16", "CDNA1", FP16, 4, 8, False),
    ("amd_mi100_bf16", "CDNA1", BF16, 2, 4, False),
    ("amd_mi250_fp16", "CDNA2", FP16, 4, 8, False),
    ("amd_mi250_bf16", "CDNA2", BF16, 2, 4, False),
    ("amd_mi250_bf16_1k", "CDNA2", BF16, 4, 8, False),
    ("amd_mi300_fp16", "CDNA3", FP16, 8, 16, False),
    ("amd_mi300_bf16", "CDNA3", BF16, 8, 16, False),
    ("amd_mi300_xf32", "CDNA3", TF32, 4, 8, False),
    ("amd_mi300_fp8_e4m3fnuz", "CDNA3", E4M3FNUZ, 16, 32, True),
    ("amd_mi300_fp8_e5m2fnuz", "CDNA3", E5M2FNUZ, 16, 32, True),
)


def instruction(rng, fmt, k, kind):
    """random: any values; cancellation: B the negation of A but one; subnormal: the lowest binades;
    mixed: alternating signs with C as large as the products."""
    a = [fmt.random_value(rng, kind == "subnormal") for _ in range(k)]
    b = [fmt.random_value(rng, kind == "subnormal") for _ in range(k)]
    if kind == "cancellation":  # pairs a_i b_i + (-a_i) b_i, one element left alone
        for i in range(1, k, 2):
            a[i], b[i] = -a[i - 1], b[i - 1]
        a[rng.randrange(k)] = fmt.random_value(rng)
    if kind == "mixed":
        a = [abs(x) if i % 2 == 0 else -abs(x) for i, x in enumerate(a)]
    c_bits = rng.getrandbits(32)
    if c_bits & 0x7F800000 == 0x7F800000:
        c_bits &= 0x807FFFFF
    c = Fraction(struct.unpack("<f", struct.pack("<I", c_bits))[0])
    if kind in ("mixed", "cancellation"):
        top = max((abs(x * y) for x, y in zip(a, b)), default=Fraction(1)) or Fraction(1)
        c = -round_fp32(top * Fraction(rng.randrange(1, 1 << 20), 1 << 19))
    if kind == "subnormal" and rng.randrange(2):
        c = Fraction(0)
    return a, b, c


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rng = random.Random(41)
    status = 0
    for name, arch, fmt, group, k, fp8 in PRESETS:
        cases = []
        for kind in ("random", "cancellation", "subnormal", "mixed"):
            for _ in range(count // 4):
                cases.append((kind,) + instruction(rng, fmt, k, kind))
        if arch == "CDNA2":  # its inputs flushed first: the presets' :ftz formats take no subnormal operand
            smallest = Fraction(2) ** fmt.emin
            cases = [(kind, [flush(x, smallest) for x in a], [flush(y, smallest) for y in b], flush(c))
                     for kind, a, b, c in cases]
        lines = "".join("%s ; %s ; %s\n" % (" ".join(f32_hex(x) for x in a), " ".join(f32_hex(y) for y in b),
                                            f32_hex(c)) for _, a, b, c in cases)
        run = subprocess.run([CLI, "dot", "--preset", name], input=lines, capture_output=True, text=True)
        if run.returncode != 0:
            print(name, "dot failed:", run.stderr.strip())
            status = 1
            continue
        got = run.stdout.split()
        same = zero_sign = 0
        misses = []
        for (kind, a, b, c), word in zip(cases, got):
            want = f32_hex(mma_sim(arch, fmt, group, a, b, c, fp8))
            nan = {"7FC00000", "FFC00000", "7FFFFFFF"}
            if word == want or (word in nan and want in nan):
                same += 1
            elif int(word, 16) & 0x7FFFFFFF == 0 and int(want, 16) & 0x7FFFFFFF == 0:
                zero_sign += 1
                if arch != "CDNA2":
                    misses.append((kind, word, want))
            else:
                misses.append((kind, word, want))
        note = " (+%d differ only in the sign of zero)" % zero_sign if zero_sign else ""
        print("%-24s %4d of %d agree%s" % (name, same, len(cases), note))
        for kind, word, want in misses[:3]:
            print("    %s: preset %s, MMA-Sim %s" % (kind, word, want))
        if misses:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
