"""floatscope.sweep: the CLI's sweep over the same grid (same runs, rows and parameters), and the errors it
reports against NumPy float64 references of the grid's models."""
import csv
import io
import json

import numpy as np
import pytest

import floatscope
import onnx_models
from test_run import comparable


def test_sweep_matches_cli(cli):
    grid = {"n": [100, 1000], "method": ["naive", "kahan"]}
    rows = floatscope.sweep("sum", grid, formats=["fp16", "bf16"], threads=2, as_frame=False)
    text = cli("sweep", "sum", "--formats", "fp16,bf16", "--grid", "n=100,1000", "--grid", "method=naive,kahan",
               "--threads", "2", "--csv", "-")
    assert comparable(rows) == comparable(csv.DictReader(io.StringIO(text)))
    # Each run's grid columns are the parameters the CLI's report gives that run.
    report = json.loads(cli("sweep", "sum", "--formats", "fp16", "--grid", "n=100,1000", "--grid",
                            "method=naive,kahan", "--json", "-"))
    parameters = {run["run"]: {p["name"]: p["value"] for p in run["parameters"]} for run in report["runs"]}
    assert len(parameters) == 4
    for r in rows:
        assert str(r["n"]) == parameters[r["run"]]["n"] and r["method"] == parameters[r["run"]]["method"]
    assert {(r["run"], r["n"], r["method"]) for r in rows} == {
        ("1", 100, "naive"), ("2", 100, "kahan"), ("3", 1000, "naive"), ("4", 1000, "kahan")}


def test_sweep_fixed_parameters_and_keyword_names(cli):
    # input_scale is the schema's input-scale, layernorm=True is true; fixed parameters are the CLI's --set.
    rows = floatscope.sweep("mlp-forward", {"input_scale": [1.0, 1e5], "layernorm": [False, True]}, formats=["fp16"],
                            depth=2, width=8, batch=4, threads=1, as_frame=False)
    text = cli("sweep", "mlp-forward", "--formats", "fp16", "--set", "depth=2", "--set", "width=8", "--set", "batch=4",
               "--grid", "input-scale=1,1e5", "--grid", "layernorm=false,true", "--threads", "1", "--csv", "-")
    assert comparable(rows) == comparable(csv.DictReader(io.StringIO(text)))
    assert {(r["run"], r["input_scale"], r["layernorm"]) for r in rows} == {
        ("1", 1.0, False), ("2", 1.0, True), ("3", 1e5, False), ("4", 1e5, True)}


def test_sweep_errors_match_numpy_references(tmp_path):
    # A grid over two models with the same NumPy inputs: each (model, format)'s error of output Y is the
    # error NumPy float64 computes for that graph rounded to that format.
    bias = [0.5, -0.25, 3.0]
    models = {"mul_add": onnx_models.mul_add(tmp_path / "mul_add.onnx", bias),
              "add_only": onnx_models.add_only(tmp_path / "add_only.onnx", bias)}
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((8, 3)).astype(np.float32), rng.standard_normal((8, 3)).astype(np.float32)
    k = np.array([1, 2], dtype=np.int64)
    rows = floatscope.sweep("onnx", {"model": list(models.values())}, formats=["fp16", "fp32"],
                            inputs=[x, w, k], threads=2, as_frame=False)
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    b64 = np.asarray(bias, dtype=np.float32).astype(np.float64)
    seen = 0
    for kind, path in models.items():
        truth = (x64 * w64 if kind == "mul_add" else x64 + w64) + b64
        for name in ["fp16", "fp32"]:
            y, _ = onnx_models.reference_outputs(kind, x64, w64, bias, name)
            got = [r["value"] for r in rows if r["model"] == path and r["policy"] == name
                   and r["region_kind"] == "output" and r["region"] == "Y" and r["metric"] == "normwise_rel_error"]
            assert got == [pytest.approx(onnx_models.normwise_rel_error(y, truth), rel=1e-9)], (kind, name)
            seen += 1
    assert seen == 4


def test_sweep_refusals():
    with pytest.raises(floatscope.Error, match="both a fixed parameter and a grid axis"):
        floatscope.sweep("sum", {"n": [10, 20]}, n=5)
    with pytest.raises(floatscope.Error, match="give a list of values"):
        floatscope.sweep("sum", {"method": "kahan"})
    with pytest.raises(floatscope.Error, match="no values"):
        floatscope.sweep("sum", {"n": []})
    with pytest.raises(floatscope.Error, match="twice"):
        floatscope.sweep("mlp-forward", {"input_scale": [1], "input-scale": [2]})
    with pytest.raises(floatscope.Error, match="unknown parameter 'size'"):
        floatscope.sweep("sum", {"size": [1, 2]})
