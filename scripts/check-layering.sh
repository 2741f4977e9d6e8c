#!/usr/bin/env bash
# Include arrows point one way (docs/architecture.md): a file includes only its own subsystem and
# those below it. Prints each include that points up and exits 1 if there is one.
#   core  <  emulation/arithmetic  <  accumulation  <  simulation, conformance  <  quantize, fpcore
#         <  weights  <  workloads  <  advisor  <  plots  <  app
set -euo pipefail
cd "$(dirname "$0")/.."

level() {
  case "$1" in
    core/*) echo 0 ;;
    emulation/arithmetic/*) echo 1 ;;
    emulation/accumulation/*) echo 2 ;;
    emulation/simulation/* | emulation/conformance/*) echo 3 ;;
    emulation/quantize/* | emulation/fpcore/*) echo 4 ;;
    emulation/weights/*) echo 5 ;;
    emulation/workloads/*) echo 6 ;;
    emulation/advisor/*) echo 7 ;;
    plots/*) echo 8 ;;
    app/*) echo 9 ;;
    *) echo -1 ;;
  esac
}

status=0
while IFS= read -r file; do
  from=$(level "$file")
  [ "$from" -ge 0 ] || continue
  while IFS= read -r target; do
    to=$(level "$target")
    if [ "$to" -gt "$from" ]; then
      echo "check-layering: $file includes $target, a subsystem above its own"
      status=1
    fi
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
done < <(git ls-files 'core/*' 'emulation/*' 'plots/*' 'app/*' | grep -E '\.(cpp|hpp|inc)$')
# Qt stays out of core and emulation.
if git grep -lE '#include <Q[A-Za-z]+>' -- core emulation >/dev/null; then
  echo "check-layering: core/ or emulation/ includes Qt:"; git grep -lE '#include <Q[A-Za-z]+>' -- core emulation
  status=1
fi
[ "$status" -eq 0 ] && echo "check-layering: every include points down"
exit "$status"
