#!/usr/bin/env bash
# Every float (2^32) through round_array, against Rounder, for fp16, bf16, fp8_e4m3 and fp8_e5m2 in
# rne rna rtz rup rdn rto: too long for ctest (hours on one core), so by hand, not in CI.
# Usage: scripts/round-array-exhaustive.sh [path/to/round_array_test]
set -euo pipefail
cd "$(dirname "$0")/.."
test_program="${1:-build/tests/core/round_array_test}"
"$test_program" '[.exhaustive][round_array]' --durations yes
