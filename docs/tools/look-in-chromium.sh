#!/usr/bin/env bash
# Renders pushdeck's SVG and HTML mockups in headless Chromium (Debian: apt-get install chromium)
# to PNG, to look at them as a browser shows them (docs/DESIGNERS.md).
#
#   docs/tools/look-in-chromium.sh OUTDIR FILE.svg|FILE.html...
#
# An SVG is shot at its root's width × height. An HTML storyboard is shot once per moment
# (?moment=N, as the arrow keys step), at 1400 × 1000 unless PUSHDECK_SHOT_SIZE=W,H says otherwise.
# Prints each PNG written; exits non-zero if Chromium fails or writes nothing.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUTDIR FILE.svg|FILE.html..." >&2
  exit 2
fi
out=$1
shift
mkdir -p "$out"
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "$0: no chromium on PATH (Debian: apt-get install chromium)" >&2
  exit 2
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

shoot() { # URL WIDTH HEIGHT PNG
  "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
    --force-device-scale-factor=1 --window-size="$2,$3" --screenshot="$4" "$1" >/dev/null 2>&1 || true
  if [ ! -s "$4" ]; then
    echo "$0: chromium wrote no picture for $1" >&2
    exit 1
  fi
  echo "$4"
}

for file in "$@"; do
  path=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
  name=$(basename "$file")
  name=${name%.*}
  case "$file" in
  *.svg)
    # The root element's width and height (the first two on the <svg> line).
    width=$(grep -o -m1 '<svg[^>]*' "$file" | grep -o 'width="[0-9.]*"' | head -1 | tr -dc '0-9.')
    height=$(grep -o -m1 '<svg[^>]*' "$file" | grep -o 'height="[0-9.]*"' | head -1 | tr -dc '0-9.')
    shoot "file://$path" "${width%.*}" "${height%.*}" "$out/$name.png"
    ;;
  *.html)
    size=${PUSHDECK_SHOT_SIZE:-1400,1000}
    moments=$(grep -o 'data-moment="[0-9]*"' "$file" | wc -l)
    for ((moment = 1; moment <= moments; moment++)); do
      shoot "file://$path?moment=$moment" "${size%,*}" "${size#*,}" "$out/$name-$moment.png"
    done
    ;;
  *)
    echo "$0: $file is neither .svg nor .html" >&2
    exit 2
    ;;
  esac
done
