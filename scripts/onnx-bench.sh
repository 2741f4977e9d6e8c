#!/usr/bin/env bash
# The onnx workload's speed check (issue 20): a transformer encoder layer (sequence 128, width 256,
# 4 heads, FFN 1024) written by tests/data/onnx/write_reference_models.py, run by tests/bench/onnx_bench
# (each policy alone beside fp32, the truth, 4 policies + truth through the engine; the CRNN's fp32
# and bf16 alone), then the same request through floatscope-cli with its wall time.
# Then the CRNN recogniser of issue 37 with and without the truth (time and peak memory).
# Usage: scripts/onnx-bench.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
models="$(mktemp -d)"
trap 'rm -rf "$models"' EXIT
/usr/bin/python3 tests/data/onnx/write_reference_models.py "$models" >/dev/null
/usr/bin/python3 tests/data/onnx/write_crnn_model.py "$models"
export FLOATSCOPE_ONNX_BENCH_MODEL="$models/encoder.onnx"
export FLOATSCOPE_ONNX_BENCH_CRNN="$models"  # onnx_bench's crnn_policy rows: fp32 (native), bf16, bf16 with fp32 accumulation
"$build/tests/bench/onnx_bench"
start=$(date +%s.%N)
"$build/app/cli/floatscope-cli" run onnx --set "model=$FLOATSCOPE_ONNX_BENCH_MODEL" --threads 2 \
  --policy "bf16" --policy "fp16; accumulate=fp32" --policy "fp32; ops MatMul,Gemm = fp8_e4m3" \
  --policy "bf16; matmul = nvidia_a100_bf16" --csv /dev/null
end=$(date +%s.%N)
printf 'floatscope-cli run onnx, 4 policies + truth: %.1f s\n' "$(echo "$end - $start" | bc)"

# Issue 37's CRNN text recogniser (tests/data/onnx/write_crnn_model.py: MobileNetV3-style depthwise
# convolutions, a 2-layer transformer neck, a 6625-class head, 13 MB of weights): fp32 + bf16 + truth
# on 2 threads beside the same policies without the truth, wall time and peak resident set.
crnn=(run onnx --set "model=$models/crnn.onnx" --set "inputs=$models/crnn_input.npy" --threads 2
      --policy fp32 --policy bf16 --csv /dev/null)
for truth in "" "--no-ground-truth"; do
  /usr/bin/time -f "crnn, fp32 + bf16 ${truth:-+ truth}: %e s wall, %M KiB peak" \
    "$build/app/cli/floatscope-cli" "${crnn[@]}" $truth | grep '^time:'
done
