#!/usr/bin/env bash
# Screenshots of every view of the GUI, and of each story's result after running it, at 1024x700
# and 1920x1080, headless (QT_QPA_PLATFORM=offscreen). The views and stories are the program's
# own lists (floatscope --list-views, --list-stories), so new ones are taken without a change here.
# Usage: scripts/gui-screenshots.sh OUT_DIR [BUILD_DIR]   (default build)
# Writes OUT_DIR/view-NAME-WxH.png and OUT_DIR/story-NAME-WxH.png (the Results view on the story's plot),
# OUT_DIR/tune-advisor-WxH.png (the Advisor after its default tune),
# and at 1024x700 each view again in presentation mode (view-NAME-presentation.png) and on the dark
# palette (view-NAME-dark.png).
set -euo pipefail
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 OUT_DIR [BUILD_DIR]" >&2
  exit 2
fi
out="$1"
gui="$(cd "$(dirname "$0")/.." && pwd)/${2:-build}/app/gui/floatscope"
[[ -x "$gui" ]] || { echo "$0: no $gui; build the floatscope target first" >&2; exit 2; }
export QT_QPA_PLATFORM=offscreen
mkdir -p "$out"
mapfile -t views < <("$gui" --list-views)
mapfile -t stories < <("$gui" --list-stories)
for size in 1024x700 1920x1080; do
  for view in "${views[@]}"; do
    "$gui" --screenshot "$out/view-$view-$size.png" --view "$view" --size "$size"
  done
  for story in "${stories[@]}"; do
    "$gui" --screenshot "$out/story-$story-$size.png" --view results --story "$story" --size "$size"
  done
  "$gui" --screenshot "$out/tune-advisor-$size.png" --view advisor --tune --size "$size"
done
for view in "${views[@]}"; do
  "$gui" --screenshot "$out/view-$view-presentation.png" --view "$view" --size 1024x700 --presentation
  "$gui" --screenshot "$out/view-$view-dark.png" --view "$view" --size 1024x700 --palette dark
done
echo "$(ls "$out"/*.png | wc -l) screenshots in $out"
