#!/usr/bin/env bash
# The NVIDIA presets on every line of Khattak and Mikaitis's GPU data (../shared/testdata/tensor-cores:
# 42 sets of 5000 instructions from seven GPUs) through `floatscope-cli dot`: prints the bit-exact
# count of each set and fails unless every set reproduces all its lines (docs/tensor-cores.md).
# fp16 output runs each preset's fp16-accumulating instruction (dot --output fp16).
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
# GPU, input format, output format and preset of every data set; each must reproduce all its lines.
while read -r gpu input output preset; do
  lines="$work/lines"
  scripts/tensor-core-lines.py "$data" "$gpu" "$input" "$output" >"$lines"
  cut -d';' -f1-3 "$lines" | "$cli" dot --preset "$preset" --output "$output" >"$work/got"
  cut -d';' -f4 "$lines" | tr -d ' ' >"$work/want"
  total=$(wc -l <"$work/want")
  same=$(paste -d' ' "$work/got" "$work/want" | awk '$1 == $2' | wc -l)
  printf '%-5s %-5s -> %-5s %-22s %5d of %d bit for bit\n' "$gpu" "$input" "$output" "$preset" "$same" "$total"
  if [ "$same" -ne "$total" ]; then status=1; fi
done <<'SETS'
V100 fp16 fp32 nvidia_v100_fp16
V100 fp16 fp16 nvidia_v100_fp16
A100 fp16 fp32 nvidia_a100_fp16
A100 fp16 fp16 nvidia_a100_fp16
A100 bf16 fp32 nvidia_a100_bf16
A100 tf32 fp32 nvidia_a100_tf32
A2 fp16 fp32 nvidia_a2_fp16
A2 fp16 fp16 nvidia_a2_fp16
A2 bf16 fp32 nvidia_a2_bf16
A2 tf32 fp32 nvidia_a2_tf32
Ada fp16 fp32 nvidia_l40s_fp16
Ada fp16 fp16 nvidia_l40s_fp16
Ada bf16 fp32 nvidia_l40s_bf16
Ada tf32 fp32 nvidia_l40s_tf32
Ada E4M3 fp32 nvidia_l40s_fp8_e4m3
Ada E4M3 fp16 nvidia_l40s_fp8_e4m3
Ada E5M2 fp32 nvidia_l40s_fp8_e5m2
Ada E5M2 fp16 nvidia_l40s_fp8_e5m2
H100 fp16 fp32 nvidia_h100_fp16
H100 fp16 fp16 nvidia_h100_fp16
H100 bf16 fp32 nvidia_h100_bf16
H100 tf32 fp32 nvidia_h100_tf32
H100 E4M3 fp32 nvidia_h100_fp8_e4m3
H100 E4M3 fp16 nvidia_h100_fp8_e4m3
H100 E5M2 fp32 nvidia_h100_fp8_e5m2
H100 E5M2 fp16 nvidia_h100_fp8_e5m2
H200 fp16 fp32 nvidia_h200_fp16
H200 fp16 fp16 nvidia_h200_fp16
H200 bf16 fp32 nvidia_h200_bf16
H200 tf32 fp32 nvidia_h200_tf32
H200 E4M3 fp32 nvidia_h200_fp8_e4m3
H200 E4M3 fp16 nvidia_h200_fp8_e4m3
H200 E5M2 fp32 nvidia_h200_fp8_e5m2
H200 E5M2 fp16 nvidia_h200_fp8_e5m2
B200 fp16 fp32 nvidia_b200_fp16
B200 fp16 fp16 nvidia_b200_fp16
B200 bf16 fp32 nvidia_b200_bf16
B200 tf32 fp32 nvidia_b200_tf32
B200 E4M3 fp32 nvidia_b200_fp8_e4m3
B200 E4M3 fp16 nvidia_b200_fp8_e4m3
B200 E5M2 fp32 nvidia_b200_fp8_e5m2
B200 E5M2 fp16 nvidia_b200_fp8_e5m2
SETS
[ "$status" -eq 0 ] || { echo "tensor-core data: some set is not reproduced bit for bit"; exit 1; }
