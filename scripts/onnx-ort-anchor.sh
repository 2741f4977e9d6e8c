#!/usr/bin/env bash
# An outside anchor for scripts/onnx-bench.sh (issue 37): ONNX Runtime's CPU provider on 1 thread,
# from the npm registry (onnxruntime-node, installed into a temporary folder with its install script
# skipped: the CPU library ships in the package), timing a model with one float32 .npy input. Never
# a dependency of FloatScope; compare its CPU time with onnx_bench's CPU column from the same run.
# Usage: scripts/onnx-ort-anchor.sh MODEL.onnx INPUT.npy [RUNS]   (default 30)
set -euo pipefail
model="$(realpath "$1")" input="$(realpath "$2")" runs="${3:-30}"
folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT
cd "$folder"
npm install --silent --no-audit --no-fund --ignore-scripts onnxruntime-node >/dev/null
cat > anchor.js <<'JS'
const ort = require('onnxruntime-node');
const fs = require('fs');
function readNpy(path) {  // a little-endian float32 .npy in C order
  const b = fs.readFileSync(path), length = b.readUInt16LE(8), header = b.toString('latin1', 10, 10 + length);
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',').filter(s => s.trim()).map(Number);
  return new ort.Tensor('float32', new Float32Array(b.buffer.slice(b.byteOffset + 10 + length, b.byteOffset + b.length)), shape);
}
(async () => {
  const [model, input, runs] = [process.argv[2], process.argv[3], Number(process.argv[4])];
  const session = await ort.InferenceSession.create(model, {intraOpNumThreads: 1, interOpNumThreads: 1});
  const feeds = {[session.inputNames[0]]: readNpy(input)};
  await session.run(feeds);  // warm-up
  const times = [], cpu = process.cpuUsage();
  for (let i = 0; i < runs; ++i) {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  console.log(`onnxruntime-node ${require('onnxruntime-node/package.json').version}, 1 thread: median ` +
              `${times[runs >> 1].toFixed(1)} ms wall, ${((used.user + used.system) / 1000 / runs).toFixed(1)} ms CPU per run`);
})();
JS
node anchor.js "$model" "$input" "$runs"
