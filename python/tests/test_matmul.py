"""floatscope.matmul and dot: the CLI's matmul and dot bit for bit, on the same .npy files and lines."""
import numpy as np
import pytest

import floatscope

PRESETS = ["nvidia_h100_fp16", "nvidia_h100_bf16", "nvidia_a100_bf16", "nvidia_v100_fp16"]


def operands(preset, m, k, n, seed):
    """A and B of values of the preset's input format: random normals rounded to it, as float32."""
    name = "bf16" if "bf16" in preset else "fp16"
    rng = np.random.default_rng(seed)
    a = floatscope.round(rng.standard_normal((m, k)).astype(np.float32) * 8, name)
    b = floatscope.round(rng.standard_normal((k, n)).astype(np.float32) * 8, name)
    return a, b


def test_presets_listed():
    names = floatscope.presets()
    assert set(PRESETS) <= set(names)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("output", [None, "fp16"])
def test_matmul_matches_cli(cli, tmp_path, preset, output):
    a, b = operands(preset, 17, 70, 9, seed=len(preset))
    c = floatscope.round(np.random.default_rng(1).standard_normal((17, 9)).astype(np.float32), output or "fp32")
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    np.save(tmp_path / "c.npy", c)
    extra = ["--output", output] if output else []
    cli("matmul", "--preset", preset, str(tmp_path / "a.npy"), str(tmp_path / "b.npy"), "--c", str(tmp_path / "c.npy"),
        "--out", str(tmp_path / "d.npy"), *extra)
    expected = np.load(tmp_path / "d.npy")
    got = floatscope.matmul(a, b, c, preset=preset, output=output)
    assert got.dtype == expected.dtype
    assert np.array_equal(got.view(np.uint8), expected.view(np.uint8))


def test_dot_matches_cli(cli):
    preset = "nvidia_h100_fp16"
    k = 16
    rows = [operands(preset, 1, k, 1, seed) for seed in range(40)]
    lines = "".join(
        " ".join(f"{v:08X}" for v in a.ravel().view(np.uint32)) + " ; "
        + " ".join(f"{v:08X}" for v in b.ravel().view(np.uint32)) + " ; 3F800000\n" for a, b in rows)
    expected = [int(h, 16) for h in cli("dot", "--preset", preset, stdin=lines).split()]
    got = [floatscope.dot(a.ravel(), b.ravel(), 1.0, preset=preset) for a, b in rows]
    assert [int(np.float32(g).view(np.uint32)) for g in got] == expected


def test_h100_fp16_differs_from_exact_float64():
    # The model truncates its alignment: the result is not float64 matmul rounded once.
    a, b = operands("nvidia_h100_fp16", 64, 256, 64, seed=9)
    d = floatscope.matmul(a, b, preset="nvidia_h100_fp16")
    exact = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    assert d.dtype == np.float32 and not np.array_equal(d, exact)
    assert np.allclose(d, exact, rtol=1e-5, atol=1e-3)


def test_batched_dot_matches_cli_lines(cli):
    # A (5, 3, 16) batch is 15 instructions: the CLI's 15 lines, row by row, each with its own C.
    preset = "nvidia_h100_fp16"
    rng = np.random.default_rng(11)
    a = floatscope.round((rng.standard_normal((5, 3, 16)) * 8).astype(np.float32), "fp16")
    b = floatscope.round((rng.standard_normal((5, 3, 16)) * 8).astype(np.float32), "fp16")
    c = floatscope.round(rng.standard_normal((5, 3)).astype(np.float32), "fp32")
    lines = "".join(
        " ".join(f"{v:08X}" for v in ra.view(np.uint32)) + " ; " + " ".join(f"{v:08X}" for v in rb.view(np.uint32))
        + f" ; {int(rc.view(np.uint32)):08X}\n" for ra, rb, rc in zip(a.reshape(15, 16), b.reshape(15, 16), c.ravel()))
    expected = np.array([int(h, 16) for h in cli("dot", "--preset", preset, stdin=lines).split()], dtype=np.uint32)
    got = floatscope.dot(a, b, c, preset=preset)
    assert got.shape == (5, 3) and got.dtype == np.float32
    assert np.array_equal(got.ravel().view(np.uint32), expected)
    # One C for every row, and the fp16 output's datapath, as the 1-D calls give them.
    got = floatscope.dot(a, b, 0.5, preset=preset, output="fp16")
    assert got.dtype == np.float16
    assert [float(g) for g in got.ravel()] == [
        floatscope.dot(ra, rb, 0.5, preset=preset, output="fp16") for ra, rb in zip(a.reshape(15, 16), b.reshape(15, 16))]


@pytest.mark.parametrize("preset, k", [("nvidia_h100_fp16", 16), ("nvidia_v100_fp16", 4), ("nvidia_a100_bf16", 8)])
def test_batched_dot_of_integers_is_numpy_float64(preset, k):
    # Small integers: every product and partial sum is exact in every model, so D is NumPy's float64 dot.
    rng = np.random.default_rng(k)
    a = rng.integers(-8, 9, (7, 2, k)).astype(np.float32)
    b = rng.integers(-8, 9, (7, 2, k)).astype(np.float32)
    c = rng.integers(-50, 51, (7, 2)).astype(np.float32)
    expected = np.einsum("...k,...k->...", a.astype(np.float64), b.astype(np.float64)) + c
    assert np.array_equal(floatscope.dot(a, b, c, preset=preset), expected)


def test_batched_dot_refusals():
    a = np.ones((4, 16), dtype=np.float32)
    with pytest.raises(floatscope.Error, match="same shape"):
        floatscope.dot(a, np.ones((4, 8), dtype=np.float32), preset="nvidia_h100_fp16")
    with pytest.raises(floatscope.Error, match="one per row"):
        floatscope.dot(a, a, np.zeros(3, dtype=np.float32), preset="nvidia_h100_fp16")
    with pytest.raises(floatscope.Error, match="K = 3"):
        floatscope.dot(np.ones((4, 3), dtype=np.float32), np.ones((4, 3), dtype=np.float32), preset="nvidia_h100_fp16")


def test_block_scaled_matmul_quantizes_as_the_cli(cli, tmp_path):
    # nvidia_b200_nvfp4 takes any values and quantizes them by NVFP4's recipe, in Python as in the CLI.
    rng = np.random.default_rng(41)
    a = (rng.standard_normal((5, 96)) * 100).astype(np.float32)
    b = (rng.standard_normal((96, 3)) / 100).astype(np.float32)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    cli("matmul", "--preset", "nvidia_b200_nvfp4", str(tmp_path / "a.npy"), str(tmp_path / "b.npy"), "--out",
        str(tmp_path / "d.npy"))
    got = floatscope.matmul(a, b, preset="nvidia_b200_nvfp4")
    assert np.array_equal(got.view(np.uint8), np.load(tmp_path / "d.npy").view(np.uint8))
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.linalg.norm(got - exact) / np.linalg.norm(exact) < 0.3
