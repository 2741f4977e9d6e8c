#!/usr/bin/python3
"""Speed of the Python module beside the C++ it calls and NumPy's own float16 cast (not a test).

Rounds 10^7 float32 values to bf16, fp16 and fp8_e4m3 (nearest-even) with floatscope.round, into a
preallocated array and into a new one, beside core::round_array on the same values (the C++ timer
python/bench/round_array_timer.cpp, built here if missing) and NumPy's astype(np.float16); quantizes
them to mxfp4 and nvfp4 beside emu::quantize_blocks. C++ and Python take turns, five rounds of
--repeats runs each, and the best of each is shown; one core.

    scripts/python-bench.py [--build build] [--n 10000000] [--repeats 5]
"""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np


def best(repeats, work):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    build = pathlib.Path(args.build).resolve()
    sys.path.insert(0, str(build / "python"))
    import floatscope

    timer = build / "python" / "floatscope_round_array_timer"
    subprocess.run(["cmake", "--build", str(build), "--target", "floatscope_round_array_timer"], check=True,
                   stdout=subprocess.DEVNULL)
    x = (np.random.default_rng(1).standard_normal(args.n) * 4).astype(np.float32)
    out = np.empty_like(x)
    rounds = 5  # C++ and Python take turns, so that both meet the same load on a shared machine
    cpp, python = {}, {}

    def keep(table, key, seconds):
        table[key] = min(table.get(key, seconds), seconds)

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "x.f32")
        x.tofile(path)
        for _ in range(rounds):
            lines = subprocess.run([str(timer), path, str(args.repeats)], check=True, capture_output=True,
                                   text=True).stdout.split("\n")
            for line in filter(None, lines):
                keep(cpp, " ".join(line.split()[:2]), float(line.split()[2]))
            for name in ["bf16", "fp16", "fp8_e4m3"]:
                keep(python, ("out", name), best(args.repeats, lambda: floatscope.round(x, name, out=out)))
                keep(python, ("new", name), best(args.repeats, lambda: floatscope.round(x, name)))
            keep(python, ("numpy", "fp16"), best(args.repeats, lambda: x.astype(np.float16)))
            for scheme in ["mxfp4", "nvfp4"]:
                keep(python, ("quantize", scheme), best(args.repeats, lambda: floatscope.quantize(x, scheme)))

    print(f"{args.n:.0e} float32 values, best of {rounds} x {args.repeats}, ms (ratio to C++)")
    print(f"{'operation':18} {'C++':>8} {'Python out=':>16} {'Python new':>16} {'NumPy astype':>14}")
    for name in ["bf16", "fp16", "fp8_e4m3"]:
        c, into, fresh = cpp[f"round {name}"], python[("out", name)], python[("new", name)]
        numpy = python[("numpy", "fp16")] if name == "fp16" else None
        numpy_text = f"{numpy * 1e3:8.2f} ({numpy / c:.2f})" if numpy else ""
        print(f"round {name:12} {c * 1e3:8.2f} {into * 1e3:8.2f} ({into / c:4.2f}) {fresh * 1e3:8.2f} ({fresh / c:4.2f})"
              f" {numpy_text:>14}")
    for scheme in ["mxfp4", "nvfp4"]:
        c, q = cpp[f"quantize {scheme}"], python[("quantize", scheme)]
        print(f"quantize {scheme:9} {c * 1e3:8.2f} {q * 1e3:8.2f} ({q / c:4.2f})")


if __name__ == "__main__":
    main()
