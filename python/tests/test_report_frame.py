"""run's and sweep's report as a pandas.DataFrame (python3-pandas is a test dependency: never skipped), the
same rows as the list of dicts and as the CLI's CSV read by pandas; a list of dicts without pandas."""
import io
import sys

import numpy as np
import pandas
import pytest

import floatscope
from test_run import comparable

COLUMNS = ["run", "workload", "policy", "region_kind", "region_index", "region", "metric", "value"]


def test_run_frame_matches_rows_and_cli(cli):
    frame = floatscope.run("overflow-demo", formats=["fp32", "bf16", "fp16"], steps=3, threads=1)
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == COLUMNS
    assert frame["region_index"].dtype == np.int64 and frame["value"].dtype == np.float64
    rows = floatscope.run("overflow-demo", formats=["fp32", "bf16", "fp16"], steps=3, threads=1, as_frame=False)
    assert isinstance(rows, list) and len(rows) == len(frame)
    assert comparable(frame.to_dict("records")) == comparable(rows)
    text = cli("run", "overflow-demo", "--formats", "fp32,bf16,fp16", "--set", "steps=3", "--threads", "1",
               "--csv", "-")
    expected = pandas.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    expected = expected[expected.region_kind != "meta"]
    assert comparable(frame.to_dict("records")) == comparable(expected.to_dict("records"))


def test_sweep_frame_has_grid_columns():
    frame = floatscope.sweep("sum", {"n": [10, 100], "method": ["naive", "kahan"]}, formats=["fp16"], threads=1)
    assert list(frame.columns) == ["run", "n", "method", *COLUMNS[1:]]
    assert frame["n"].dtype == np.int64
    points = frame[["run", "n", "method"]].drop_duplicates().values.tolist()
    assert points == [["1", 10, "naive"], ["2", 10, "kahan"], ["3", 100, "naive"], ["4", 100, "kahan"]]
    errors = frame[(frame.policy == "fp16") & (frame.metric == "rel_error_max") & (frame.region_kind == "terms")]
    assert len(errors.groupby(["n", "method"])) == 4


def test_without_pandas_a_list(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)     # import pandas now raises ImportError
    rows = floatscope.run("overflow-demo", formats=["fp16"], steps=3, threads=1)
    assert isinstance(rows, list) and set(rows[0]) == set(COLUMNS)
    with pytest.raises(ImportError):
        floatscope.run("overflow-demo", formats=["fp16"], steps=3, threads=1, as_frame=True)


def test_as_frame_refused():
    with pytest.raises(floatscope.Error, match="as_frame is True"):
        floatscope.run("overflow-demo", as_frame="yes")
