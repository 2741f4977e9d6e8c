"""floatscope.add, sub, mul, div, fma, sqrt: the CLI's eval bit for bit (codes and flags), and fp16
in nearest-even against NumPy's float16 arithmetic (float32 has 2p + 2 bits, so NumPy's float16
+ - * / and sqrt, computed in float32 and rounded, are correctly rounded)."""
import numpy as np
import pytest

import floatscope

OPERATIONS = {"add": 2, "sub": 2, "mul": 2, "div": 2, "sqrt": 1, "fma": 3}


def random_codes(name, count, seed):
    fmt = floatscope.format(name)
    rng = np.random.default_rng(seed)
    dtype = floatscope.encode(0.0, fmt).dtype
    return [rng.integers(0, 1 << fmt.bits, count, dtype=np.uint64).astype(dtype) for _ in range(3)]


@pytest.mark.parametrize("name,mode", [("fp16", "rne"), ("bf16", "rtz"), ("fp8_e4m3", "rup"), ("fp8_e5m2", "rna"),
                                       ("binary8p3se", "rto"), ("e3m4", "rdn"), ("posit8", "rne")])
@pytest.mark.parametrize("op", OPERATIONS)
def test_codes_match_cli_eval(cli, name, mode, op):
    codes = random_codes(name, 300, seed=len(op) * 31 + len(name))
    operands = codes[: OPERATIONS[op]]
    width = (floatscope.format(name).bits + 3) // 4
    lines = "".join(op + "".join(f" {int(c):0{width}X}" for c in row) + "\n" for row in zip(*operands))
    expected = [line.split() for line in cli("eval", "--format", name, "--round", mode, stdin=lines).splitlines()]
    got, flags = getattr(floatscope, op)(*operands, name, mode, flags=True)
    assert [int(r, 16) for r, _ in expected] == list(got)
    assert [int(f, 16) for _, f in expected] == list(flags)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "sqrt"])
def test_fp16_values_match_numpy(op):
    rng = np.random.default_rng(5)
    a = rng.integers(0, 1 << 16, 200_000, dtype=np.uint16).view(np.float16)
    b = rng.integers(0, 1 << 16, 200_000, dtype=np.uint16).view(np.float16)
    with np.errstate(all="ignore"):
        expected = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}[op](a, b) \
            if op != "sqrt" else np.sqrt(a)
    operands = (a.astype(np.float64),) if op == "sqrt" else (a.astype(np.float64), b.astype(np.float64))
    got = getattr(floatscope, op)(*operands, "fp16")
    assert np.array_equal(got, expected.astype(np.float64), equal_nan=True)
    assert np.array_equal(np.signbit(got)[~np.isnan(got)], np.signbit(expected)[~np.isnan(got)])


def test_values_flags_and_broadcasting():
    got, flags = floatscope.add(np.array([65504.0, 1.0, 1.0]), 2048.0, "fp16", flags=True)
    assert list(got) == [np.inf, 2048.0, 2048.0]  # 2049 is a tie: to even
    assert list(flags) == [0x05, 0x01, 0x01]
    assert floatscope.div(1.0, 0.0, "fp16", flags=True)[1] == 0x08
    assert floatscope.fma(2.0, 3.0, 1.0, "bf16") == 7.0
