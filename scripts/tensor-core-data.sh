#!/usr/bin/env bash
# The NVIDIA presets on every line of Khattak and Mikaitis's GPU data (../shared/testdata/tensor-cores)
# through `floatscope-cli dot`: prints the bit-exact count of each data set and fails unless every
# set the presets claim (docs/tensor-cores.md) reproduces all its lines. The H100 FP8 sets with fp16
# output, which no model explains yet, are reported with their best fit's count.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/testdata/tensor-cores}
cli=${FLOATSCOPE_CLI:-build/app/cli/floatscope-cli}
if [ ! -d "$data" ]; then
  echo "no $data here; skipped"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

status=0
# GPU, input format, output format, preset, and whether every line must match.
while read -r gpu input output preset required; do
  lines="$work/lines"
  scripts/tensor-core-lines.py "$data" "$gpu" "$input" "$output" >"$lines"
  cut -d';' -f1-3 "$lines" | "$cli" dot --preset "$preset" --output "$output" >"$work/got"
  cut -d';' -f4 "$lines" | tr -d ' ' >"$work/want"
  total=$(wc -l <"$work/want")
  same=$(paste -d' ' "$work/got" "$work/want" | awk '$1 == $2' | wc -l)
  printf '%-5s %-5s -> %-5s %-22s %5d of %d bit for bit\n' "$gpu" "$input" "$output" "$preset" "$same" "$total"
  if [ "$required" = required ] && [ "$same" -ne "$total" ]; then status=1; fi
done <<'SETS'
V100 fp16 fp32 nvidia_v100_fp16 required
V100 fp16 fp16 nvidia_v100_fp16 required
A100 fp16 fp32 nvidia_a100_fp16 required
A100 fp16 fp16 nvidia_a100_fp16 required
A100 bf16 fp32 nvidia_a100_bf16 required
A100 tf32 fp32 nvidia_a100_tf32 required
H100 fp16 fp32 nvidia_h100_fp16 required
H100 fp16 fp16 nvidia_h100_fp16 required
H100 bf16 fp32 nvidia_h100_bf16 required
H100 tf32 fp32 nvidia_h100_tf32 required
H100 E4M3 fp32 nvidia_h100_fp8_e4m3 required
H100 E5M2 fp32 nvidia_h100_fp8_e5m2 required
H100 E4M3 fp16 nvidia_h100_fp8_e4m3 best-fit
H100 E5M2 fp16 nvidia_h100_fp8_e5m2 best-fit
SETS
[ "$status" -eq 0 ] || { echo "tensor-core data: some set the presets claim is not reproduced"; exit 1; }
