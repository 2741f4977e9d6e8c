#!/usr/bin/python3
"""The P3109 formats whose values leave binary64, decoded code by code from the Interim Report's
definition alone (v4.0, 3.1 and 4.7.2), for tests/core/p3109_wide_test.cpp.

Written from the report, not from FloatScope's C++: Python integers, no floats. The decoder is first
held against the working group's value tables for K = 4 and 8 (tests/data/p3109), every code of
every format there; then every code of the 50 formats with more than 11 exponent bits (signed:
P < K - 11, unsigned: P < K - 10, K <= 16) is written as one canonical line
    "<code, hex, K/4 digits> <value> <class>\\n"
value: nan, inf, -inf, 0, or [-]0x<odd significand, hex>p<exponent> (value = significand * 2^exponent);
class: nan, inf, zero, subnormal, normal. The CRC-32 (zlib) of each format's lines goes to
tests/data/p3109/wide_digests.tsv (name, codes, crc32, and three lines in full for a reader).

Usage: scripts/p3109-wide-digests.py [--check]   (--check: compare with the committed file)
"""
import csv
import pathlib
import sys
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
TABLES = ROOT / "tests" / "data" / "p3109"
OUTPUT = TABLES / "wide_digests.tsv"


def decode(k, p, signed, extended, code):
    """(value, class): value a (sign, significand, exponent) triple of integers meaning
    sign * significand * 2^exponent, or 'nan', 'inf', '-inf'. Report v4.0 3.1: K bits, precision P
    (T = P - 1 trailing bits), W = K - P exponent bits signed / K - P + 1 unsigned, bias 2^(W - 1);
    NaN at 2^(K-1) (signed) or 2^K - 1 (unsigned); extended: +inf at 2^(K-1) - 1 and -inf at 2^K - 1
    (signed), +inf at 2^K - 2 (unsigned); else exponent field E and trailing bits T' give
    2^(1 - bias) * (0 + T' / 2^T) when E = 0 and 2^(E - bias) * (1 + T' / 2^T) when not."""
    t = p - 1
    w = k - p if signed else k - p + 1
    bias = 2 ** (w - 1)
    if signed:
        if code == 2 ** (k - 1):
            return "nan", "nan"
        if extended and code == 2 ** (k - 1) - 1:
            return "inf", "inf"
        if extended and code == 2**k - 1:
            return "-inf", "inf"
        sign = -1 if code >= 2 ** (k - 1) else 1
        magnitude = code % 2 ** (k - 1)
    else:
        if code == 2**k - 1:
            return "nan", "nan"
        if extended and code == 2**k - 2:
            return "inf", "inf"
        sign, magnitude = 1, code
    exponent_field, trailing = divmod(magnitude, 2**t)
    if exponent_field == 0:
        return (sign, trailing, 1 - bias - t), "zero" if trailing == 0 else "subnormal"
    return (sign, 2**t + trailing, exponent_field - bias - t), "normal"


def canonical(value):
    if isinstance(value, str):
        return value
    sign, significand, exponent = value
    if significand == 0:
        return "0"
    while significand % 2 == 0:  # an odd significand: one spelling per value
        significand //= 2
        exponent += 1
    return f"{'-' if sign < 0 else ''}0x{significand:x}p{exponent}"


def table_value(text):
    """A table cell: NaN, Inf, -Inf, or a C99 hex float, read exactly as a (sign, significand,
    exponent) triple."""
    if text in ("NaN", "Inf", "-Inf"):
        return {"NaN": "nan", "Inf": "inf", "-Inf": "-inf"}[text]
    mantissa, exponent = text.lstrip("-").split("p")
    whole, _, fraction = mantissa[2:].partition(".")
    return (-1 if text.startswith("-") else 1, int(whole + fraction, 16), int(exponent) - 4 * len(fraction))


def check_against_tables():
    checked = 0
    for path in sorted(TABLES.glob("K*/P*/*/Binary*.csv")):
        name = path.stem.lower()  # binary8p3se
        k, rest = name[len("binary"):].split("p")
        p, signedness, domain = int(rest[:-2]), rest[-2], rest[-1]
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 2 ** int(k), path
        for row in rows:
            code = int(row["codepoint"], 16)
            value, value_class = decode(int(k), p, signedness == "s", domain == "e", code)
            want = table_value(row["value"])
            if canonical(value) != canonical(want) or (value_class == "subnormal") != (row["subnormal"] == "*"):
                sys.exit(f"{path.name}: code {row['codepoint']} decodes to {canonical(value)} ({value_class}), "
                         f"the table says {row['value']} {row['subnormal']!r}")
            checked += 1
    if checked < 2 * (2**4 * 7 + 2**8 * 15):  # both domains of 7 (K = 4) and 15 (K = 8) formats
        sys.exit(f"only {checked} table rows found under {TABLES}")
    return checked


def wide_formats():
    for k in range(12, 17):
        for signed in (True, False):
            for p in range(1, k if signed else k + 1):
                w = k - p if signed else k - p + 1
                if w <= 11:
                    continue
                for extended in (True, False):
                    yield k, p, signed, extended


def digest_rows():
    rows = []
    for k, p, signed, extended in wide_formats():
        name = f"binary{k}p{p}{'s' if signed else 'u'}{'e' if extended else 'f'}"
        crc = 0
        lines = []
        for code in range(2**k):
            value, value_class = decode(k, p, signed, extended, code)
            line = f"{code:0{(k + 3) // 4}X} {canonical(value)} {value_class}\n"
            crc = zlib.crc32(line.encode(), crc)
            if code in (1, 2 ** (k - 1) - 2, 2**k - 2):
                lines.append(line.strip())
        rows.append([name, str(2**k), f"{crc:08x}"] + lines)
    return rows


def main():
    checked = check_against_tables()
    rows = digest_rows()
    if len(rows) != 50:
        sys.exit(f"{len(rows)} wide formats, the report's count is 50")
    text = "name\tcodes\tcrc32\tcode 1\tcode 2^(K-1) - 2\tcode 2^K - 2\n"
    text += "".join("\t".join(row) + "\n" for row in rows)
    if "--check" in sys.argv:
        if OUTPUT.read_text() != text:
            sys.exit(f"{OUTPUT} differs from what the definition gives")
        print(f"{OUTPUT.name} agrees ({checked} table rows checked first)")
        return
    OUTPUT.write_text(text)
    print(f"{checked} table rows agree with the definition; {len(rows)} formats written to {OUTPUT}")


if __name__ == "__main__":
    main()
