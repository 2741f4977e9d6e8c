#!/usr/bin/env bash
# The advisor's speed check (issue 39): `tune` on mlp-forward (depth 16, width 256, 4 candidate
# formats per layer) and on the encoder layer of scripts/onnx-bench.sh (by op type, with weight
# schemes), each beside a plain `run` of one policy with its truth on the same machine: wall time,
# configurations run, rounds (one ground truth for them all), seconds per configuration.
# Usage: scripts/tune-bench.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
cli="$build/app/cli/floatscope-cli"
models="$(mktemp -d)"
trap 'rm -rf "$models"' EXIT
/usr/bin/python3 tests/data/onnx/write_reference_models.py "$models" >/dev/null

timed() {  # LABEL COMMAND...: wall seconds of the command, its summary's second line when it has one
  local label="$1"; shift
  local start end
  start=$(date +%s.%N)
  "$@" > "$models/out.txt"
  end=$(date +%s.%N)
  printf '%-44s %6.1f s   %s\n' "$label" "$(echo "$end - $start" | bc)" "$(sed -n 2p "$models/out.txt" | grep configurations || true)"
}

timed "run mlp-forward, fp32 + truth" "$cli" run mlp-forward --formats fp32 --threads 2
timed "tune mlp-forward, 16 layers x 4 formats" "$cli" tune mlp-forward --threads 2 \
  --target 'normwise_rel_error<=1e-2' --candidates 'fp32,bf16,fp16,fp8_e4m3'
timed "run onnx encoder, fp32 + truth" "$cli" run onnx --set "model=$models/encoder.onnx" --formats fp32 --threads 2
timed "tune onnx encoder, op types x 3 formats + weights" "$cli" tune onnx --set "model=$models/encoder.onnx" \
  --threads 2 --unit op --target 'normwise_rel_error<=1e-2' \
  --candidates 'fp32,bf16,fp8_e4m3; accumulate=fp32; weights=int8,int4'
