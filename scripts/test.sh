#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (ctest) from a fresh clone.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh "$@"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure -j "$(nproc)"
