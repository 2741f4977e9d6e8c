#!/usr/bin/env bash
# Soak test (by hand, not in CI): a 200-point sweep on 2 threads, its resident memory sampled every
# second (the curve is printed), then the same points again in a fresh process: the two reports must
# hold the same rows apart from timings. Usage: scripts/soak-sweep.sh [path/to/floatscope-cli]
set -euo pipefail
cd "$(dirname "$0")/.."
cli="$(realpath "${1:-build/app/cli/floatscope-cli}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# 10 depths x 5 widths x 4 batch sizes = 200 grid points of mlp-forward, under 3 policies each.
sweep=(sweep mlp-forward --formats fp32,bf16,fp16 --threads 2
       --grid depth=4,5,6,7,8,9,10,11,12,13 --grid width=64,96,128,192,256 --grid batch=8,16,24,32)

"$cli" "${sweep[@]}" --csv "$work/first.csv" >/dev/null &
pid=$!
echo "second  rss_MiB"
second=0
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  [ -n "$rss" ] && printf '%6d  %7.1f\n' "$second" "$(echo "$rss / 1024" | bc -l)"
  sleep 1
  second=$((second + 1))
done
wait "$pid"
"$cli" "${sweep[@]}" --csv "$work/second.csv" >/dev/null
rows() { awk -F, '$4 != "run" && $7 != "created"' "$1"; }
if diff <(rows "$work/first.csv") <(rows "$work/second.csv") >/dev/null; then
  echo "soak: $(rows "$work/first.csv" | wc -l) rows, the same in a fresh run ($second s)"
else
  echo "soak: the fresh run's report differs"; exit 1
fi
