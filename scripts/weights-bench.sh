#!/usr/bin/env bash
# The weights workload's speed check (issue 21): a generated safetensors model of about 10^8 BF16
# parameters (Student-t weights, a few outlier rows; tests/data/weights/write_checkpoints.py --model)
# analysed under 10 schemes, then under each scheme alone: wall time and peak resident memory, the
# anonymous part (what FloatScope allocates) apart from the file's mapped pages.
# Usage: scripts/weights-bench.sh [PARAMETERS] [BUILD_DIR]   (defaults 1.05e8, build)
set -euo pipefail
cd "$(dirname "$0")/.."
parameters="${1:-1.05e8}"
cli="${2:-build}/app/cli/floatscope-cli"
model="${TMPDIR:-/tmp}/floatscope-weights-bench.safetensors"
trap 'rm -f "$model"' EXIT
/usr/bin/python3 tests/data/weights/write_checkpoints.py --model "$model" "$parameters"
"$cli" weights-info "$model" | head -n 1
schemes=int8,int4,nf4,nf4:dq,bnb_fp4,mxfp8_e4m3,mxfp6_e2m3,mxfp4,mxint8,nvfp4

# Runs the command, polling /proc for its peak RssAnon and RssFile; prints wall seconds and both peaks.
measure() {
  local start end pid anon=0 file=0 a f
  start=$(date +%s.%N)
  "$@" >/dev/null &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    a=$(awk '/^RssAnon/{print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    f=$(awk '/^RssFile/{print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${a:-0}" -gt "$anon" ] && anon=$a
    [ "${f:-0}" -gt "$file" ] && file=$f
    sleep 0.02
  done
  wait "$pid"
  end=$(date +%s.%N)
  printf '%8.2f s   anonymous %5d MiB   mapped file %5d MiB\n' "$(echo "$end - $start" | bc)" $((anon / 1024)) $((file / 1024))
}

printf '%-12s ' "all 10"
measure "$cli" run weights --formats fp32 --set "model=$model" --set "schemes=$schemes" --csv /dev/null
for scheme in ${schemes//,/ }; do
  printf '%-12s ' "$scheme"
  measure "$cli" run weights --formats fp32 --set "model=$model" --set "schemes=$scheme" --csv /dev/null
done
