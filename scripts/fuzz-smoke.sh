#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan) and runs each for N seconds
# (default 30) on its seed corpus: a smoke test for CI. Skipped, with a note, when clang is absent.
# Usage: scripts/fuzz-smoke.sh [SECONDS] [TARGET...]   (targets: the *_fuzz programs, default all)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true

if ! command -v clang++ >/dev/null; then
  echo "fuzz-smoke: clang++ not found (scripts/setup-deps.sh installs it); skipped"
  exit 0
fi

# FLOATSCOPE_FUZZ_BUILD names a build folder already configured with FLOATSCOPE_FUZZ=ON (CI's sanitizer
# build) to take the targets from; by default build-fuzz, configured here.
build="${FLOATSCOPE_FUZZ_BUILD:-build-fuzz}"
if ! grep -qs '^FLOATSCOPE_FUZZ:BOOL=ON$' "$build/CMakeCache.txt"; then
  # -O1 with line tables (as the sanitizer build in .ci/run): what libFuzzer's documentation uses, and
  # the whole library compiles in much less time than at Release's -O3.
  CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DFLOATSCOPE_GUI=OFF -DFLOATSCOPE_BENCHMARKS=OFF -DFLOATSCOPE_TESTS=OFF -DFLOATSCOPE_FUZZ=ON >/dev/null
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cd tests/fuzz && ls ./*_fuzz.cpp | sed 's|^\./||; s|\.cpp$||')
fi
cmake --build "$build" --target "${targets[@]}"

# Inputs libFuzzer finds go to a scratch corpus, so that the seeds in the tree stay small.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
status=0
for target in "${targets[@]}"; do
  name="${target%_fuzz}"
  mkdir -p "$scratch/$name"
  printf '%-18s ' "$target"
  # -timeout: one input running past 10 s is a hang; -rss_limit_mb: bounded memory.
  if "$build/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$scratch/$name-" "$scratch/$name" "tests/fuzz/corpus/$name" >"$scratch/$name.log" 2>&1; then
    grep -E '^Done [0-9]+ runs' "$scratch/$name.log" || echo "done"
  else
    echo "FAILED"
    tail -n 60 "$scratch/$name.log"
    for artifact in "$scratch/$name"-*; do
      [ -e "$artifact" ] && echo "input ($artifact): $(base64 -w0 "$artifact")"
    done
    status=1
  fi
done
exit "$status"
