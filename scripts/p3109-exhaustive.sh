#!/usr/bin/env bash
# The P3109 conformance sweeps too long for ctest (by hand, not in CI): every 8-bit P3109 format's
# + - * / sqrt in every mode and saturation mode, every fma triple of binary8p3se and binary8p4se,
# and 10^6 fma triples of the rest, against the MPFR reference.
# Usage: scripts/p3109-exhaustive.sh [path/to/arithmetic_exhaustive_test]
set -euo pipefail
cd "$(dirname "$0")/.."
test_program="${1:-build/tests/emulation/arithmetic/arithmetic_exhaustive_test}"
"$test_program" '[.exhaustive][p3109]' --durations yes
