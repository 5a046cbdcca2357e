#!/usr/bin/env bash
# Issue 15 §5: a scenario whose timeline holds N events (Benchmarks/gen_timeline.py: one
# anchored push, then `- *e` N-1 times), played by explain (text and JSON) and render, and
# opened by run (in a 100x30 tmux pane: until the first frame, then q; skipped without tmux).
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
tmux=(tmux -L pushdeck-timeline -f /dev/null)
trap 'rm -f "$stats"; "${tmux[@]}" kill-server 2>/dev/null || true' EXIT
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
  command -v tmux >/dev/null || continue
  # run: the first frame (the status line shows "Lock Screen"), then q; GNU time's peak.
  rm -f "$stats"
  "${tmux[@]}" kill-server 2>/dev/null || true
  "${tmux[@]}" new-session -d -s t -x 100 -y 30 \
    "LANG=C.UTF-8 TERM=tmux-256color /usr/bin/time -o '$stats' -f '%e %M' '$BIN' run --clock manual '$scenario'; sleep 30"
  start=$(date +%s%3N)
  until "${tmux[@]}" capture-pane -p -t t 2>/dev/null | grep -q "Lock Screen"; do
    sleep 0.05
    [ $(( $(date +%s%3N) - start )) -lt 600000 ] || break
  done
  first=$(( $(date +%s%3N) - start ))
  "${tmux[@]}" send-keys -t t q
  until [ -s "$stats" ] || [ $(( $(date +%s%3N) - start )) -gt 660000 ]; do sleep 0.1; done
  "${tmux[@]}" kill-server 2>/dev/null || true
  tail -1 "$stats" | awk -v n="$size" -v f="$first" \
    '{ printf "%-18s %8d %8.2f s %8.1f MiB (first frame %.2f s)\n", "run-first-frame", n, $1, $2/1024, f/1000 }'
done
