"""floatscope.run("onnx", inputs=[arrays], save_outputs=True): NumPy arrays in and out, against NumPy float64
references of the graph and against floatscope-cli run on the same arrays saved as .npy files."""
import csv
import io

import numpy as np
import pytest

import floatscope
import onnx_models
from test_run import comparable

FORMATS = ["fp16", "fp32"]


def arrays(seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((4, 3)) * 300).astype(np.float32)    # products up to ~10^5: fp16 overflows some
    w = (rng.standard_normal((4, 3)) * 300).astype(np.float32)
    k = np.array([7, -3], dtype=np.int64)
    return x, w, k


BIAS = [0.1, -2.5, 1e-3]


@pytest.mark.parametrize("kind", ["mul_add", "add_only"])
def test_outputs_match_numpy_float64(tmp_path, kind):
    model = getattr(onnx_models, kind)(tmp_path / f"{kind}.onnx", BIAS)
    x, w, k = arrays(1)
    report, outputs = floatscope.run("onnx", model=model, inputs=[x, w, k], formats=FORMATS, save_outputs=True,
                                     as_frame=False, threads=2)
    assert set(outputs) == {"ground-truth", *FORMATS}
    x64, w64, b64 = x.astype(np.float64), w.astype(np.float64), np.asarray(BIAS, dtype=np.float32).astype(np.float64)
    exact_p = x64 * w64 if kind == "mul_add" else x64 + w64
    # The truth rounded to double: x*w is exact in float64, so + b rounds once, as NumPy's does.
    assert list(outputs["ground-truth"]) == ["Y", "P", "Z"]
    assert np.array_equal(outputs["ground-truth"]["Y"], exact_p + b64)
    assert np.array_equal(outputs["ground-truth"]["P"], exact_p)
    for name in FORMATS:
        y, p = onnx_models.reference_outputs(kind, x64, w64, BIAS, name)
        got = outputs[name]
        assert got["Y"].dtype == np.float64 and got["Y"].shape == (4, 3)
        assert np.array_equal(got["Y"], y, equal_nan=True), name
        assert np.array_equal(got["P"], p, equal_nan=True), name
        assert got["Z"].dtype == np.int64 and list(got["Z"]) == [7, -3]
        # The report's error of output Y is the error of these arrays against the truth.
        row = [r for r in report if r["policy"] == name and r["region_kind"] == "output" and r["region"] == "Y"
               and r["metric"] == "normwise_rel_error"]
        if np.all(np.isfinite(y)):
            assert row[0]["value"] == pytest.approx(onnx_models.normwise_rel_error(y, exact_p + b64), rel=1e-9)
    assert np.isinf(outputs["fp16"]["P"]).any() if kind == "mul_add" else True


def test_arrays_match_cli_files(cli, tmp_path):
    model = onnx_models.mul_add(tmp_path / "m.onnx", BIAS)
    x, w, k = arrays(2)
    for name, a in zip("xwk", (x, w, k)):
        np.save(tmp_path / f"{name}.npy", a)
    saved = tmp_path / "saved"
    saved.mkdir()
    text = cli("run", "onnx", "--set", f"model={model}", "--set",
               f"inputs={tmp_path / 'x.npy'},{tmp_path / 'w.npy'},{tmp_path / 'k.npy'}",
               "--set", f"save-outputs={saved}", "--formats", "fp16,bf16", "--threads", "1", "--csv", "-")
    report, outputs = floatscope.run("onnx", model=model, inputs=(x, w, k), formats=["fp16", "bf16"],
                                     save_outputs=True, threads=1, as_frame=False)
    assert comparable(report) == comparable(csv.DictReader(io.StringIO(text)))
    for run, prefix in [("ground-truth", "truth"), ("fp16", "fp16"), ("bf16", "bf16")]:
        for output in ["Y", "P", "Z"]:
            expected = np.load(saved / f"{prefix}_{output}.npy")
            assert outputs[run][output].dtype == expected.dtype
            assert np.array_equal(outputs[run][output], expected, equal_nan=True), (run, output)


def test_inputs_in_any_layout_and_float_type(tmp_path):
    # A strided float64 view and a float32 copy of the same values are the same graph input.
    model = onnx_models.mul_add(tmp_path / "m.onnx", BIAS)
    x, w, k = arrays(3)
    wide = np.zeros((4, 6))
    wide[:, ::2] = x
    _, a = floatscope.run("onnx", model=model, inputs=[wide[:, ::2], w, k], formats=["fp16"], save_outputs=True)
    _, b = floatscope.run("onnx", model=model, inputs=[x, w, k], formats=["fp16"], save_outputs=True)
    assert np.array_equal(a["fp16"]["Y"], b["fp16"]["Y"])


@pytest.mark.parametrize("dtype, elem", [(np.uint32, onnx_models.TensorProto.UINT32),
                                         (np.uint64, onnx_models.TensorProto.UINT64)])
def test_unsigned_inputs(tmp_path, dtype, elem):
    # Every uint32 and uint64 up to 2^63 - 1 is a graph input as it is; a uint64 past that is refused, not wrapped.
    model = onnx_models.cast_to_double(tmp_path / "u.onnx", elem)
    u = np.array([0, np.iinfo(dtype).max if dtype == np.uint32 else 2**53, 7], dtype)
    _, outputs = floatscope.run("onnx", model=model, inputs=[u], formats=["fp32"], save_outputs=True)
    assert list(outputs["ground-truth"]["D"]) == [float(v) for v in u]
    assert list(outputs["fp32"]["V"]) == [int(v) for v in u]
    if dtype == np.uint64:
        with pytest.raises(floatscope.Error, match="9223372036854775808 is past 2\\^63 - 1"):
            floatscope.run("onnx", model=model, inputs=[np.array([1, 2**63, 2], np.uint64)])


def test_onnx_refusals(tmp_path):
    model = onnx_models.mul_add(tmp_path / "m.onnx", BIAS)
    x, w, k = arrays(4)
    with pytest.raises(floatscope.Error, match=r"inputs\[0\] is complex128"):
        floatscope.run("onnx", model=model, inputs=[x.astype(complex), w, k])
    with pytest.raises(floatscope.Error, match="takes 3 input"):
        floatscope.run("onnx", model=model, inputs=[x, w])
    with pytest.raises(floatscope.Error, match="input 'K' is declared int64"):
        floatscope.run("onnx", model=model, inputs=[x, w, k.astype(np.float32)])
    with pytest.raises(floatscope.Error, match="not a NumPy array"):
        floatscope.run("onnx", model=model, inputs=[x, w, [7, -3]])
    with pytest.raises(floatscope.Error, match="save_outputs=True"):
        floatscope.sweep("onnx", {"seed": [1, 2]}, model=model, inputs=[x, w, k], save_outputs=True)
