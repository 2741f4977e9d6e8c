"""floatscope.run: the same report rows as `floatscope-cli run`, apart from the timings."""
import csv
import io
import math

import floatscope


def comparable(rows):
    """(policy, region, metric, value) of every row but the wall-clock ones, which differ run to run,
    and the CSV's metadata rows (version, date, parameters), which the rows of run() leave out."""
    out = set()
    for r in rows:
        if r["region_kind"] == "meta" or "seconds" in r["metric"]:
            continue
        value = float(r["value"])
        out.add((r["policy"], r["region_kind"], int(r["region_index"]), r["region"], r["metric"],
                 "nan" if math.isnan(value) else value))
    return out


def test_run_matches_cli(cli):
    rows = floatscope.run("overflow-demo", formats=["fp32", "bf16", "fp16", "fp8_e4m3"], steps=3, threads=1,
                          as_frame=False)
    text = cli("run", "overflow-demo", "--formats", "fp32,bf16,fp16,fp8_e4m3", "--set", "steps=3", "--threads", "1",
               "--csv", "-")
    assert comparable(rows) == comparable(csv.DictReader(io.StringIO(text)))


def test_run_policies_and_parameters():
    rows = floatscope.run("overflow-demo", policies=["fp16; layers 2 = fp32"], a=100.0, b=100.0, as_frame=False)
    assert len({r["policy"] for r in rows if r["policy"] != "ground-truth"}) == 1
    assert all(set(r) == {"run", "workload", "policy", "region_kind", "region_index", "region", "metric", "value"}
               for r in rows)
