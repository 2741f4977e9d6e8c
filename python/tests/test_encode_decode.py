"""floatscope.encode and decode: every code of every format of at most 16 bits round-trips, and the
values of fp16, bf16 and the OCP FP8 formats equal the ones their definitions give."""
import collections

import numpy as np
import pytest

import floatscope

SYNTAX_FORMATS = ["e3m4", "e4m3fnuz", "e5m2fnuz", "e2m1fn", "e3m2fn", "e4m3:ftz", "binary8p3se", "binary8p4sf",
                  "binary8p1se", "binary8p4ue", "binary4p2sf", "p3109_k6p3se", "posit8", "posit8_es0", "takum8",
                  "hifloat8", "int8", "uint4", "int16", "e5m10:bias=13", "nf4", "posit16", "takum16"]


def small_formats():
    names = [n for n in floatscope.formats() if floatscope.format(n).bits <= 16]
    return sorted(set(names + SYNTAX_FORMATS))


@pytest.mark.parametrize("name", small_formats())
def test_every_code_round_trips(name):
    fmt = floatscope.format(name)
    codes = np.arange(1 << fmt.bits, dtype=np.uint64).astype(floatscope.encode(0.0, fmt).dtype)
    values = floatscope.decode(codes, fmt)
    assert np.array_equal(values, fmt.values(), equal_nan=True)
    keep = ~np.isnan(values)
    assert keep.sum() >= fmt.finite_values  # a format's finite values, and its infinities
    again = floatscope.encode(values[keep], fmt)
    assert np.array_equal(floatscope.decode(again, fmt), values[keep])
    assert np.array_equal(np.signbit(floatscope.decode(again, fmt)), np.signbit(values[keep]))
    # A value held by one code only (flushed subnormals share zero's value) gives that code back.
    signed = [(float(v), bool(np.signbit(v))) for v in values[keep]]
    count = collections.Counter(signed)
    unique = np.array([count[s] == 1 for s in signed])
    assert np.array_equal(again[unique], codes[keep][unique]), name
    # Each value is a fixed point of rounding in every deterministic mode.
    for mode in ["rne", "rna", "rtz", "rup", "rdn", "rto"]:
        assert np.array_equal(floatscope.round(values[keep], fmt, mode), values[keep])


def test_fp16_values_are_numpy_float16():
    every = np.arange(1 << 16, dtype=np.uint16)
    assert np.array_equal(floatscope.decode(every, "fp16"), every.view(np.float16).astype(np.float64), equal_nan=True)


def test_bf16_values_are_the_top_half_of_float32():
    every = np.arange(1 << 16, dtype=np.uint32)
    with np.errstate(invalid="ignore"):  # NaN patterns, cast as they are
        as_float32 = (every << 16).view(np.float32).astype(np.float64)
    assert np.array_equal(floatscope.format("bf16").values(), as_float32, equal_nan=True)


def ocp_fp8(code, exponent_bits, mantissa_bits, bias):
    """An FP8 code's value as the OCP 8-bit floating point specification (v1.0) tabulates it."""
    sign = -1.0 if code & 0x80 else 1.0
    e = (code >> mantissa_bits) & ((1 << exponent_bits) - 1)
    m = code & ((1 << mantissa_bits) - 1)
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - mantissa_bits)
    return sign * (1 + m / 2**mantissa_bits) * 2.0 ** (e - bias)


def test_fp8_values_follow_the_ocp_definition():
    e4m3 = floatscope.format("fp8_e4m3").values()
    e5m2 = floatscope.format("fp8_e5m2").values()
    for code in range(256):
        if code & 0x7F == 0x7F:
            assert np.isnan(e4m3[code])  # E4M3: S.1111.111 is NaN, no infinity
        else:
            assert e4m3[code] == ocp_fp8(code, 4, 3, 7)
        if code & 0x7C == 0x7C:
            assert np.isinf(e5m2[code]) if code & 0x03 == 0 else np.isnan(e5m2[code])
        else:
            assert e5m2[code] == ocp_fp8(code, 5, 2, 15)


def test_format_properties():
    fp16 = floatscope.format("fp16")
    assert (fp16.bits, fp16.exponent_bits, fp16.mantissa_bits) == (16, 5, 10)
    assert fp16.max == 65504.0 and fp16.lowest == -65504.0
    assert fp16.smallest_normal == 2.0**-14 and fp16.smallest_subnormal == 2.0**-24
    assert fp16.epsilon == 2.0**-10 and fp16.has_infinity and fp16.has_nan
    assert fp16.finite_values == 2 * (31 * 1024) - 1
    assert "half" in fp16.aliases
    e4m3 = floatscope.format("float8_e4m3fn")
    assert e4m3.max == 448.0 and not e4m3.has_infinity
    assert floatscope.format("binary8p3se").max == 49152.0


def test_encode_flags():
    codes, flags = floatscope.encode(np.array([1.0, 1 / 3, 1e6, 2.0**-30, np.nan]), "fp16", flags=True)
    assert list(codes) == [0x3C00, 0x3555, 0x7C00, 0x0000, codes[4]]
    assert list(flags) == [0x00, 0x01, 0x05, 0x03, 0x00]


def test_encode_matches_cli(cli):
    x = [0.1, -2.5e-3, 1000.0, 3.0e-5, 448.0, 500.0]
    for name, mode in [("fp8_e4m3", "rtz"), ("fp16", "rna"), ("bf16", "rup"), ("binary8p3se", "rdn")]:
        lines = cli("encode", "--format", name, "--round", mode, *map(repr, x)).split()
        codes, flags = floatscope.encode(np.array(x), name, mode, flags=True)
        assert [int(c, 16) for c in lines[0::2]] == list(codes)
        assert [int(f, 16) for f in lines[1::2]] == list(flags)
