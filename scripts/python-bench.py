#!/usr/bin/python3
"""Speed of the Python module beside the C++ it calls and NumPy's own float16 cast (not a test).

Rounds 10^7 float32 values to bf16, fp16 and fp8_e4m3 (nearest-even) with floatscope.round, into a
preallocated array and into a new one, beside core::round_array on the same values (the C++ timer
python/bench/round_array_timer.cpp, built here if missing) and NumPy's astype(np.float16); quantizes
them to mxfp4 and nvfp4 beside emu::quantize_blocks. Best of --repeats runs; one core.

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
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "x.f32")
        x.tofile(path)
        lines = subprocess.run([str(timer), path, str(args.repeats)], check=True, capture_output=True,
                               text=True).stdout.split("\n")
    cpp = {" ".join(line.split()[:2]): float(line.split()[2]) for line in lines if line}

    out = np.empty_like(x)
    print(f"{args.n:.0e} float32 values, best of {args.repeats}, ms (ratio to C++)")
    print(f"{'operation':18} {'C++':>8} {'Python out=':>16} {'Python new':>16} {'NumPy astype':>14}")
    for name in ["bf16", "fp16", "fp8_e4m3"]:
        c = cpp[f"round {name}"]
        into = best(args.repeats, lambda: floatscope.round(x, name, out=out))
        fresh = best(args.repeats, lambda: floatscope.round(x, name))
        numpy = best(args.repeats, lambda: x.astype(np.float16)) if name == "fp16" else None
        numpy_text = f"{numpy * 1e3:8.2f} ({numpy / c:.2f})" if numpy else ""
        print(f"round {name:12} {c * 1e3:8.2f} {into * 1e3:8.2f} ({into / c:4.2f}) {fresh * 1e3:8.2f} ({fresh / c:4.2f})"
              f" {numpy_text:>14}")
    for scheme in ["mxfp4", "nvfp4"]:
        c = cpp[f"quantize {scheme}"]
        q = best(args.repeats, lambda: floatscope.quantize(x, scheme))
        print(f"quantize {scheme:9} {c * 1e3:8.2f} {q * 1e3:8.2f} ({q / c:4.2f})")


if __name__ == "__main__":
    main()
