"""floatscope.round to fp16 against NumPy's own float16 conversion (nearest-even), specials included."""
import numpy as np
import pytest

# NumPy warns when its cast overflows to inf, which is what is compared here.
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")

import floatscope


def edge_values():
    every_fp16 = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float64)
    finite = every_fp16[np.isfinite(every_fp16)]
    finite.sort()
    ties = (finite[1:] + finite[:-1]) / 2
    rng = np.random.default_rng(16)
    random = rng.standard_normal(100_000) * np.exp2(rng.integers(-30, 20, 100_000))
    special = np.array([np.inf, -np.inf, np.nan, 65519.999, 65520.0, 1e300, -0.0, 2.0**-25, 2.0**-26, 5e-324])
    return np.concatenate([finite, ties, np.nextafter(ties, 0), np.nextafter(ties, np.inf), random, special])


def test_fp16_float64_matches_numpy():
    x = edge_values()
    expected = x.astype(np.float16).astype(np.float64)
    got = floatscope.round(x, "fp16")
    assert np.array_equal(got, expected, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(expected))


def test_fp16_float32_matches_numpy():
    x = edge_values().astype(np.float32)
    expected = x.astype(np.float16).astype(np.float32)
    got = floatscope.round(x, "fp16")
    assert np.array_equal(got, expected, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(expected))


def test_fp16_codes_match_numpy_bits():
    x = edge_values()
    x = x[~np.isnan(x)]
    assert np.array_equal(floatscope.encode(x, "fp16"), x.astype(np.float16).view(np.uint16))
