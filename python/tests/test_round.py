"""floatscope.round against MPFR (gmpy2) in every deterministic mode, float64 and float32 inputs."""
import math

import numpy as np
import pytest

import floatscope
from reference import MODES, Binary

# name -> (precision p, exponent of the smallest normal, has -0): from the formats' definitions
# (IEEE 754, OCP FP8, P3109 Interim Report v4.0: bias 2^(K-P-1)), not from FloatScope.
FORMATS = {
    "fp16": Binary(11, -14),
    "bf16": Binary(8, -126),
    "fp8_e4m3": Binary(4, -6),  # OCP E4M3: bias 7, largest 448
    "fp8_e5m2": Binary(3, -14),
    "binary8p3se": Binary(3, -15, negative_zero=False),  # P3109 K=8 P=3: bias 16, one zero
    "e3m4": Binary(5, -2),  # IEEE-like custom: bias 3
    "e6m9": Binary(10, -30),
}
LARGEST = {"fp16": 65504.0, "bf16": 3.3895313892515355e38, "fp8_e4m3": 448.0, "fp8_e5m2": 57344.0,
           "binary8p3se": 49152.0, "e3m4": 15.5, "e6m9": (2 - 2.0**-9) * 2.0**31}


def inputs(name, count=1500, seed=7):
    """Random values over the whole finite range (subnormals included), every tie between neighbours
    (a sample for wide formats), the ties' float64 neighbours, and the extremes."""
    fmt = FORMATS[name]
    largest = LARGEST[name]
    rng = np.random.default_rng(seed)
    smallest = 2.0 ** (fmt.emin - fmt.p + 1)
    magnitudes = np.exp2(rng.uniform(math.log2(smallest) - 2, math.log2(largest), count))
    values = fmt.values(largest)
    ties = np.array([(a + b) / 2 for a, b in zip(values, values[1:])])
    if len(ties) > count:
        ties = np.concatenate([ties[: 1 << fmt.p], rng.choice(ties, count, replace=False)])
    near = np.concatenate([np.nextafter(ties, 0), np.nextafter(ties, np.inf)])
    extremes = np.array([0.0, smallest, smallest / 2, smallest / 4, largest, np.nextafter(largest, 0)])
    x = np.concatenate([magnitudes, ties, near, extremes, values[:: max(1, len(values) // count)]])
    x = x[x <= largest]
    return np.concatenate([x, -x])


def same(got, expected):
    """Equal values, and equal signs where a result is zero."""
    return (got == expected) & (np.signbit(got) == np.signbit(expected))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", FORMATS)
def test_round_float64_matches_mpfr(name, mode):
    x = inputs(name)
    expected = np.array([FORMATS[name].round(float(v), mode) for v in x])
    got = floatscope.round(x, name, mode)
    assert got.dtype == np.float64
    wrong = ~same(got, expected)
    assert not wrong.any(), f"{name} {mode}: x={x[wrong][:5]} got {got[wrong][:5]} expected {expected[wrong][:5]}"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["fp16", "bf16", "fp8_e4m3", "fp8_e5m2", "e3m4"])
def test_round_float32_matches_mpfr(name, mode):
    # float32 inputs take the vectorized float kernels; every tie of these formats is a float32.
    x = inputs(name).astype(np.float32)
    x = x[np.isfinite(x)]
    expected = np.array([FORMATS[name].round(float(v), mode) for v in x])
    got = floatscope.round(x, name, mode)
    assert got.dtype == np.float32
    wrong = ~same(got.astype(np.float64), expected)
    assert not wrong.any(), f"{name} {mode}: x={x[wrong][:5]} got {got[wrong][:5]} expected {expected[wrong][:5]}"


@pytest.mark.parametrize("mode", MODES)
def test_round_with_flags_gives_the_same_values(mode):
    x = inputs("fp8_e4m3")
    values, flags = floatscope.round(x, "fp8_e4m3", mode, flags=True)
    expected = np.array([FORMATS["fp8_e4m3"].round(float(v), mode) for v in x])
    assert same(values, expected).all()
    inexact = (flags & 1) != 0
    assert (inexact == (expected != x)).all()


def test_round_overflow_follows_ieee_and_ocp():
    big = np.array([65520.0, 1e6, -1e6, 65519.99])
    assert list(floatscope.round(big, "fp16")) == [np.inf, np.inf, -np.inf, 65504.0]
    assert list(floatscope.round(big, "fp16", "rtz")) == [65504.0, 65504.0, -65504.0, 65504.0]
    assert list(floatscope.round(big, "fp16", "rup")) == [np.inf, np.inf, -65504.0, np.inf]
    # OCP E4M3 has no infinity: overflow is NaN, or 448 with :sat.
    e4m3 = floatscope.round(np.array([464.0, 465.0, 1e4]), "fp8_e4m3")
    assert e4m3[0] == 448.0 and np.isnan(e4m3[1:]).all()
    assert list(floatscope.round(np.array([1e4, -1e4]), "fp8_e4m3:sat")) == [448.0, -448.0]
    _, flags = floatscope.round(np.array([1e6]), "fp16", flags=True)
    assert flags[0] == 0x05  # overflow | inexact


def test_round_scalar_and_list_arguments():
    assert floatscope.round(0.1, "bf16") == 0.10009765625
    assert list(floatscope.round([1.0, 1 / 3], "fp16")) == [1.0, 0.333251953125]


def test_round_in_place_layout_and_shape_kept():
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    got = floatscope.round(x, "bf16")
    assert got.shape == (3, 4) and got.dtype == np.float32


def test_round_from_several_threads_at_once():
    # The kernels run without the GIL: threads rounding at the same time get what one thread gets.
    from concurrent.futures import ThreadPoolExecutor
    rng = np.random.default_rng(8)
    arrays = [rng.standard_normal(200_000) for _ in range(8)]
    names = ["fp16", "bf16", "fp8_e4m3", "posit16"] * 2
    serial = [floatscope.round(x, n, "sr", seed=i) for i, (x, n) in enumerate(zip(arrays, names))]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(lambda i: floatscope.round(arrays[i], names[i], "sr", seed=i), range(8)))
    assert all(np.array_equal(s, p) for s, p in zip(serial, parallel))
