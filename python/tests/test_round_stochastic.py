"""Stochastic rounding: the mean of 10^6 roundings is the exact value within its standard error,
the same seed gives the same roundings, and P3109's variants are reachable."""
import numpy as np
import pytest

import floatscope

N = 1_000_000


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,x,low,high", [
    ("bf16", 1 + 2.0**-9, 1.0, 1 + 2.0**-7),  # a quarter of the way from 1 to its upper neighbour
    ("fp8_e4m3", 0.3, 0.28125, 0.3125),
    ("fp16", -3.0e-7, -3.5762786865234375e-07, -2.980232238769531e-07),  # subnormals
])
def test_sr_mean_within_standard_error(name, x, low, high, dtype):
    x = dtype(x)
    got = floatscope.round(np.full(N, x, dtype=dtype), name, "sr", seed=12345).astype(np.float64)
    assert set(np.unique(got)) <= {low, high}
    p = (float(x) - low) / (high - low)  # the probability of rounding up
    standard_error = (high - low) * np.sqrt(p * (1 - p) / N)
    assert abs(got.mean() - float(x)) < 4 * standard_error


def test_sr_equal_mean_is_the_midpoint():
    got = floatscope.round(np.full(N, 1 + 2.0**-9), "bf16", "sr-equal", seed=7)
    low, high = 1.0, 1 + 2.0**-7
    assert abs(got.mean() - (low + high) / 2) < 4 * (high - low) * 0.5 / np.sqrt(N)


def test_sr_same_seed_same_roundings():
    x = np.random.default_rng(3).standard_normal(10_000)
    a = floatscope.round(x, "fp8_e5m2", "sr", seed=99)
    assert np.array_equal(a, floatscope.round(x, "fp8_e5m2", "sr", seed=99))
    assert not np.array_equal(a, floatscope.round(x, "fp8_e5m2", "sr", seed=100))


def test_sr_variants_with_few_random_bits():
    # With N = 1 random bit, variant A rounds up a quarter-way value with probability floor(1/4 * 2) / 2 = 0.
    x = np.full(10_000, 1 + 2.0**-9)
    assert (floatscope.round(x, "bf16", "sr", sr_bits=1, seed=5) == 1.0).all()
    up = floatscope.round(x, "bf16", "sr", sr_bits=2, seed=5).mean()  # floor(1/4 * 4) / 4 = 1/4
    assert abs((up - 1) / 2.0**-7 - 0.25) < 0.03
