#!/usr/bin/python3
"""Tunes every FPCore of a corpus per operation with `floatscope-cli tune fpcore` (bits_correct>=20 over
fp64/fp32/bf16, as issue 39 asks) and, where the program has at most MAX_EXHAUSTIVE operations, finds the
exhaustive optimum by running every assignment with `floatscope-cli run fpcore`. Prints one line per
program and a summary; the cost is bits of the operations' results (64, 32, 16 per operation).

    scripts/tune-fpbench.py [CORPUS_DIR] [--cli build/app/cli/floatscope-cli] [--samples 64]
"""
import argparse
import csv
import io
import itertools
import pathlib
import re
import subprocess
import sys

FORMATS = ["fp64", "fp32", "bf16"]
BITS = {"fp64": 64, "fp32": 32, "bf16": 16}
MAX_EXHAUSTIVE = 6
TARGET = 20.0


def rows(text):
    return [r for r in csv.DictReader(io.StringIO(text)) if r["region_kind"] != "meta"]


def layout_of(policy, operations):
    """Formats per operation of a policy text 'fp64; layers 0-2,5 = fp32; ...' (last clause wins)."""
    layout = ["fp64"] * operations
    for clause in policy.split(";")[1:]:
        m = re.match(r"\s*layers\s+([-0-9,]+)\s*=\s*(\S+)", clause)
        if not m:
            continue
        for part in m.group(1).split(","):
            first, _, last = part.partition("-")
            for op in range(int(first), int(last or first) + 1):
                layout[op] = m.group(2)
    return layout


def tune(cli, file, number, samples):
    result = subprocess.run([cli, "tune", "fpcore", "--set", f"file={file}", "--set", f"benchmark={number}",
                             "--set", f"samples={samples}", "--target", f"bits_correct>={TARGET:g}",
                             "--candidates", ",".join(FORMATS), "--threads", "2", "--csv", "-"],
                            capture_output=True, text=True)
    if result.returncode not in (0, 1):
        return None, result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "failed"
    table = rows(result.stdout)
    policies = {}
    for line in result.stdout.splitlines():
        if ",meta," in line and ",policy," in line:
            fields = next(csv.reader([line]))
            policies[fields[2]] = fields[7]
    operations = len({r["region_index"] for r in table if r["region_kind"] == "sensitivity"})
    recommended = [r["policy"] for r in table if r["metric"] == "tune_recommended" and float(r["value"]) == 1]
    runs = [float(r["value"]) for r in table if r["metric"] == "tune_runs"]
    return {"operations": operations, "policy": policies.get(recommended[0]) if recommended else None,
            "runs": int(runs[0]) if runs else 0}, None


def exhaustive(cli, file, number, samples, operations):
    layouts = list(itertools.product(FORMATS, repeat=operations))
    arguments = [cli, "run", "fpcore", "--set", f"file={file}", "--set", f"benchmark={number}",
                 "--set", f"samples={samples}", "--threads", "2", "--csv", "-"]
    for i, layout in enumerate(layouts):
        text = "name=e%d; fp64" % i + "".join(f"; layers {op} = {f}" for op, f in enumerate(layout))
        arguments += ["--policy", text]
    result = subprocess.run(arguments, capture_output=True, text=True)
    if result.returncode != 0:
        return None
    correct = {r["policy"]: float(r["value"]) for r in rows(result.stdout) if r["metric"] == "bits_correct_mean"}
    best = None
    for i, layout in enumerate(layouts):
        value = correct.get(f"e{i}")
        if value is not None and value >= TARGET:
            cost = sum(BITS[f] for f in layout)
            best = cost if best is None else min(best, cost)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", nargs="?", default="../shared/testdata/fpbench")
    parser.add_argument("--cli", default="build/app/cli/floatscope-cli")
    parser.add_argument("--samples", type=int, default=64)
    args = parser.parse_args()
    files = sorted(pathlib.Path(args.corpus).glob("*.fpcore"))
    if not files:
        sys.exit(f"no .fpcore files in {args.corpus}")
    tuned = failed = unreachable = compared = optimal = within = lowered_total = ops_total = 0
    for file in files:
        count = file.read_text().count("(FPCore")
        for number in range(1, count + 1):
            outcome, error = tune(args.cli, file, number, args.samples)
            name = f"{file.name}#{number}"
            if outcome is None:
                failed += 1
                print(f"{name}: not tuned: {error}")
                continue
            if outcome["policy"] is None:
                unreachable += 1
                print(f"{name}: {outcome['operations']} operations; fp64 itself misses bits_correct>={TARGET:g}")
                continue
            tuned += 1
            layout = layout_of(outcome["policy"], outcome["operations"])
            lowered = sum(f != "fp64" for f in layout)
            cost = sum(BITS[f] for f in layout)
            lowered_total += lowered
            ops_total += outcome["operations"]
            line = (f"{name}: {lowered} of {outcome['operations']} operations lowered, cost {cost} bits, "
                    f"{outcome['runs']} runs")
            if 0 < outcome["operations"] <= MAX_EXHAUSTIVE:
                best = exhaustive(args.cli, file, number, args.samples, outcome["operations"])
                if best is not None:
                    compared += 1
                    optimal += cost == best
                    within += cost <= 1.1 * best
                    line += f"; exhaustive optimum {best} bits"
            print(line, flush=True)
    print(f"\ntuned {tuned}, fp64 itself misses the target {unreachable}, not tuned {failed}; "
          f"{lowered_total} of {ops_total} operations lowered; against the exhaustive optimum "
          f"({compared} programs of at most {MAX_EXHAUSTIVE} operations): optimal {optimal}, within 10% {within}")


if __name__ == "__main__":
    main()
