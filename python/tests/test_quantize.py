"""floatscope.quantize, dequantize, fake_quantize: the CLI's block encoding bit for bit, and MXFP4 (the
OCP MX v1.0 floor scale rule) against a reference written from the specification."""
import csv
import io

import numpy as np
import pytest

import floatscope
from reference import Binary


def weights(shape, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * np.exp2(rng.integers(-6, 6, shape))).astype(np.float32)


# (nf4 alone is the scalar 16-code format to the CLI's encode; quantize takes it as the blockwise scheme.)
@pytest.mark.parametrize("scheme", ["mxfp4", "mxfp4:ceil", "mxfp8_e4m3", "mxfp6_e3m2:even", "mxint8", "nvfp4",
                                    "nvfp4:torchao", "bnb_fp4", "bnb_fp4:block=32"])
def test_blocks_match_cli_encode(cli, scheme):
    x = weights(64, seed=len(scheme))
    block = {"nvfp4": 16, "bnb_fp4": 64}.get(scheme.split(":")[0], 32)
    if scheme.endswith(":block=32"):
        block = 32
    codes, scales = floatscope.quantize(x, scheme)
    blocks = [",".join(repr(float(v)) for v in x[i : i + block]) for i in range(0, len(x), block)]
    if scheme.startswith("nvfp4"):
        # The CLI quantizes each argument as its own tensor (its own NVFP4 tensor scale): one block here.
        blocks = blocks[:1]
        codes, scales = floatscope.quantize(x[:block], scheme)
    rows = list(csv.DictReader(io.StringIO(cli("encode", "--format", scheme, "--csv", *blocks))))
    assert [int(r["bits"], 16) for r in rows] == list(codes)
    assert [float(r["scale"]) for r in rows[::block]] == list(scales.astype(np.float64))


def mxfp4_reference(x):
    """OCP MX v1.0, 6.3: X = 2^(floor(log2(amax)) - emax_elem), emax_elem = 2 for E2M1; each x/X
    rounded to E2M1 (nearest-even) and clamped to +-6."""
    e2m1 = Binary(2, 0)
    out = np.empty(len(x))
    for b in range(0, len(x), 32):
        block = x[b : b + 32].astype(np.float64)
        amax = np.abs(block).max()
        scale = 2.0 ** (np.floor(np.log2(amax)) - 2) if amax > 0 else 1.0
        for i, v in enumerate(block):
            q = min(max(e2m1.round(v / scale, "rne"), -6.0), 6.0)
            out[b + i] = q * scale
    return out


def test_mxfp4_follows_the_specification():
    x = weights(32 * 64, seed=4)
    codes, scales = floatscope.quantize(x, "mxfp4")
    assert codes.dtype == np.uint8 and scales.shape == (64,)
    assert np.array_equal(floatscope.dequantize(codes, scales, "mxfp4").astype(np.float64), mxfp4_reference(x))


def test_axis_and_fake_quantize_agree():
    w = weights((64, 128), seed=2)
    codes, scales = floatscope.quantize(w, "mxfp8_e4m3", axis=0)
    assert codes.shape == (64, 128) and scales.shape == (2, 128)
    by_rows = floatscope.dequantize(*floatscope.quantize(w.T.copy(), "mxfp8_e4m3"), "mxfp8_e4m3").T
    assert np.array_equal(floatscope.dequantize(codes, scales, "mxfp8_e4m3", axis=0), by_rows)
    for scheme in ["mxfp4", "nvfp4", "nf4"]:
        assert np.array_equal(floatscope.fake_quantize(w, scheme),
                              floatscope.dequantize(*floatscope.quantize(w, scheme), scheme))


def test_fake_quantize_takes_every_scheme():
    w = weights((128, 128), seed=3)
    for scheme in ["int8", "int4", "nvfp4:2d", "nvfp4:rht", "fp8_blockwise:128x128", "nf4:dq", "mxfp4:sr"]:
        q = floatscope.fake_quantize(w, scheme, seed=1)
        assert q.shape == w.shape and q.dtype == np.float32
        assert np.linalg.norm(q - w) < 0.3 * np.linalg.norm(w), scheme
