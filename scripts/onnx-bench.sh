#!/usr/bin/env bash
# The onnx workload's speed check (issue 20): a transformer encoder layer (sequence 128, width 256,
# 4 heads, FFN 1024) written by tests/data/onnx/write_reference_models.py, run by tests/bench/onnx_bench
# (each policy alone beside fp32, the truth, 4 policies + truth through the engine), then the same
# request through floatscope-cli with its wall time.
# Usage: scripts/onnx-bench.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
models="$(mktemp -d)"
trap 'rm -rf "$models"' EXIT
/usr/bin/python3 tests/data/onnx/write_reference_models.py "$models" >/dev/null
export FLOATSCOPE_ONNX_BENCH_MODEL="$models/encoder.onnx"
"$build/tests/bench/onnx_bench"
start=$(date +%s.%N)
"$build/app/cli/floatscope-cli" run onnx --set "model=$FLOATSCOPE_ONNX_BENCH_MODEL" --threads 2 \
  --policy "bf16" --policy "fp16; accumulate=fp32" --policy "fp32; ops MatMul,Gemm = fp8_e4m3" \
  --policy "bf16; matmul = nvidia_a100_bf16" --csv /dev/null
end=$(date +%s.%N)
printf 'floatscope-cli run onnx, 4 policies + truth: %.1f s\n' "$(echo "$end - $start" | bc)"
