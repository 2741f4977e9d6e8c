#!/usr/bin/env bash
# Sets up, builds and runs FloatScope: the desktop GUI when a display is available, otherwise
# the CLI's default report (the format table and the 10^4 x 10^4 in FP16 overflow demo).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x build/app/gui/floatscope ]; then
  exec build/app/gui/floatscope "$@"
fi
cli=build/app/cli/floatscope-cli
echo "== Number formats (floatscope-cli formats) =="
"$cli" formats
echo
echo "== 10^4 x 10^4 = 10^8 stored in each format (floatscope-cli show 100000000) =="
"$cli" show 100000000 --format fp32 --format bf16 --format fp16 --format fp8_e4m3 --format fp8_e4m3:sat --format fp8_e5m2
