#!/usr/bin/env bash
# Installs the dependencies (a no-op when present), configures and builds into build/.
# Extra arguments go to cmake's configure step (e.g. -DFLOATSCOPE_GUI=OFF).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build
