"""Refusals: bad arguments raise floatscope.Error (a ValueError) with the CLI's message, never crash."""
import numpy as np
import pytest

import floatscope


def test_error_is_a_value_error():
    assert issubclass(floatscope.Error, ValueError)


def test_unknown_format_suggests_names(cli):
    with pytest.raises(floatscope.Error, match="unknown format 'fp18'.*fp16") as refused:
        floatscope.format("fp18")
    # The CLI's message, word for word.
    import subprocess
    from conftest import cli_path
    done = subprocess.run([cli_path(), "show", "1", "--format", "fp18"], capture_output=True, text=True)
    assert done.returncode != 0 and str(refused.value) in done.stderr


@pytest.mark.parametrize("call,message", [
    (lambda: floatscope.round(np.arange(4), "fp16"), "int64; this function takes float32 or float64"),
    (lambda: floatscope.round(np.ones((4, 4))[:, 1], "fp16"), "not C-contiguous"),
    (lambda: floatscope.round(np.ones(3), "fp16", "nearest"), "unknown rounding mode 'nearest'"),
    (lambda: floatscope.round(np.ones(3), "mxfp4"), "block-scaled format"),
    (lambda: floatscope.round(np.ones(3), "binary128"), "binary64"),
    (lambda: floatscope.round(np.ones(3), "bf16", "sr", sr_bits=0), "1..64|random bits|bits"),
    (lambda: floatscope.decode(np.array([0x1FF], dtype=np.uint16), "fp8_e4m3"), "1FF|wider|bits"),
    (lambda: floatscope.decode(np.array([1, 2], dtype=np.int32), "fp16"), "unsigned"),
    (lambda: floatscope.format("fp32").values(), "enumeration is limited to 16"),
    (lambda: floatscope.add(np.array([0.1]), np.array([1.0]), "fp16"), r"a\[0\] \(0.1\) is not a value of fp16"),
    (lambda: floatscope.add(np.array([1], dtype=np.uint16), 1.0, "fp16"), "either codes"),
    (lambda: floatscope.matmul(np.ones((2, 3)), np.ones((2, 3)), preset="fp16_fp32"), "A's columns must match"),
    (lambda: floatscope.matmul(np.ones((2, 2)), np.ones((2, 2)), preset="h100"), "unknown|preset"),
    (lambda: floatscope.quantize(np.ones(33, dtype=np.float32), "mxfp4"), "multiple of its block size 32"),
    (lambda: floatscope.quantize(np.ones(32, dtype=np.float32), "int8"), "per-row integer scheme"),
    (lambda: floatscope.quantize(np.ones(32, dtype=np.float32), "mxfp5"), "mxfp5"),
    (lambda: floatscope.dequantize(np.full(32, 0x10, np.uint8), np.ones(1, np.float32), "mxfp4"),
     "0x10 is wider than"),
    (lambda: floatscope.round(np.ones(2), 16), "a format is a name such as 'fp16' or a floatscope.Format, not int"),
    (lambda: floatscope.run("no-such-workload"), "no-such-workload"),
    (lambda: floatscope.run("overflow-demo", steps=1000), "steps"),
    (lambda: floatscope.run("overflow-demo", threads=-1), "threads -1 is not in 0..1024"),
    (lambda: floatscope.run("overflow-demo", mpfr_precision=20), "MPFR precision 20 bits: valid 53..65536"),
    (lambda: floatscope.add(np.ones(2, dtype=np.longdouble), 1.0, "fp16"), "float16, float32 or float64"),
])
def test_refusals(call, message):
    with pytest.raises(floatscope.Error, match=message):
        call()
