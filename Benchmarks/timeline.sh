#!/usr/bin/env bash
# Issue 15 §5: a scenario whose timeline holds N events (Benchmarks/gen_timeline.py: one
# anchored push, then `- *e` N-1 times), played by explain (text and JSON) and render.
# Prints wall time and peak memory per command and size.
#
#   Benchmarks/timeline.sh [SIZES...]     # default: 100000 1000000
#   BIN=path/to/pushdeck Benchmarks/timeline.sh 1000000
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
data=Benchmarks/data
mkdir -p "$data"
if [ -z "${BIN:-}" ]; then
  swift build -c release --product pushdeck >/dev/null
  BIN=.build/release/pushdeck
fi
stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
measure() { # label size command...
  local label=$1 size=$2; shift 2
  /usr/bin/time -o "$stats" -f "%e %M" "$@" >/dev/null 2>&1 || true
  tail -1 "$stats" | awk -v l="$label" -v n="$size" '{ printf "%-18s %8d %8.2f s %8.1f MiB\n", l, n, $1, $2/1024 }'
}
for size in "${sizes[@]}"; do
  scenario="$data/timeline-$size.yaml"
  [ -f "$scenario" ] || python3 Benchmarks/gen_timeline.py "$size" "$scenario"
  measure explain-text "$size" "$BIN" explain "$scenario"
  measure explain-json "$size" "$BIN" explain --format json "$scenario"
  measure render "$size" "$BIN" render "$scenario"
done
