#!/usr/bin/env bash
# `run CAPTURE` with its default state database (no --ephemeral: a new device file under
# $XDG_DATA_HOME/pushdeck/devices, every push journalled) in a 100x30 tmux pane, as a user
# opens a capture: the first frame, then `g +400d` sent at once, while the capture is still
# read, until every push has arrived (no "to come", "reading N%", "Go to time" or "Seeking"
# on the screen); then back to the start (`g -400d`) and into the capture's middle (an ISO
# time halfway between its first and last `at`, until the prompt is gone and nothing is
# followed any more), then q. Prints per size: milliseconds to the first frame, milliseconds from
# Enter to the end shown, from Enter to the middle shown, the CPU time of the whole run (user + sys, from GNU time: wall times
# are unreliable on a shared machine), and peak memory (GNU time's maximum resident size), and
# the delivery rows the state holds at the end (sqlite3, when installed).
#
#   Benchmarks/run-state.sh [SIZES...]                 # default: 100000 1000000
#   BIN=path/to/pushdeck Benchmarks/run-state.sh 100000
#   WRAP="heaptrack -o /tmp/run-state" Benchmarks/run-state.sh 100000   # under a profiler
#
# Needs tmux and GNU time (/usr/bin/time); the captures come from Benchmarks/data (see
# Benchmarks/commands.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
if [ -z "${BIN:-}" ]; then
  swift build -c release --product pushdeck >/dev/null
  BIN=.build/release/pushdeck
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
work=$(mktemp -d)
tmux=(tmux -L pushdeck-run-state -f /dev/null)
trap '"${tmux[@]}" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
now_ms() { date +%s%3N; }

wait_for() { # grep pattern, present (1) or gone (0); 20 ms polls, 10 min at most
  local t0; t0=$(now_ms)
  while :; do
    if "${tmux[@]}" capture-pane -p -t b 2>/dev/null | grep -q "$1"; then [ "$2" = 1 ] && break
    else [ "$2" = 0 ] && break; fi
    sleep 0.02
    [ $(( $(now_ms) - t0 )) -lt 600000 ] || { echo "timed out waiting for $1" >&2; break; }
  done
}

for size in "${sizes[@]}"; do
  capture=$PWD/Benchmarks/data/capture-$size.jsonl
  [ -f "$capture" ] || { echo "missing $capture" >&2; exit 1; }
  cat "$capture" >/dev/null  # the page cache
  rm -rf "$work/xdg" "$work/stats"
  "${tmux[@]}" kill-server 2>/dev/null || true
  start=$(now_ms)
  "${tmux[@]}" new-session -d -s b -x 100 -y 30 \
    "LANG=C.UTF-8 TERM=tmux-256color XDG_DATA_HOME='$work/xdg' /usr/bin/time -o '$work/stats' -f '%U %S %M' ${WRAP:-} '$BIN' run --clock manual '$capture'; sleep 30"
  wait_for "to come" 1
  first=$(( $(now_ms) - start ))
  "${tmux[@]}" send-keys -t b g
  wait_for "Go to time" 1
  t0=$(now_ms)
  "${tmux[@]}" send-keys -t b -- +400d Enter
  # Answered: the prompt is gone and the screen follows the seek (or is already there).
  wait_for "Go to time" 0
  answered=$(( $(now_ms) - t0 ))
  # Arrived: nothing left to read, play or follow.
  wait_for "to come\|reading [0-9]*%\|Go to time\|Seeking\|following to" 0
  seek=$(( $(now_ms) - t0 ))
  # Back to the start, then into the middle (from the front end's own checkpoints).
  "${tmux[@]}" send-keys -t b g
  wait_for "Go to time" 1
  "${tmux[@]}" send-keys -t b -- -400d Enter
  wait_for "Back to" 1
  first_at=$(head -1 "$capture" | python3 -c 'import json,sys; print(json.loads(sys.stdin.buffer.read())["at"])')
  last_at=$(tail -1 "$capture" | python3 -c 'import json,sys; print(json.loads(sys.stdin.buffer.read())["at"])')
  middle=$(python3 -c "import datetime as d; print(d.datetime.fromtimestamp(($first_at + $last_at) / 2, d.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'))")
  "${tmux[@]}" send-keys -t b g
  wait_for "Go to time" 1
  t0=$(now_ms)
  "${tmux[@]}" send-keys -t b -- "$middle" Enter
  wait_for "Go to time" 0
  wait_for "following to\|Seeking" 0
  to_middle=$(( $(now_ms) - t0 ))
  "${tmux[@]}" send-keys -t b q
  t0=$(now_ms)
  until [ -s "$work/stats" ] || [ $(( $(now_ms) - t0 )) -gt 120000 ]; do sleep 0.1; done
  read -r user sys peak < <(tail -1 "$work/stats")
  rows=?
  if command -v sqlite3 >/dev/null; then
    rows=$(sqlite3 "$work"/xdg/pushdeck/devices/*.sqlite "SELECT count(*) FROM delivery" 2>/dev/null || echo ?)
  fi
  printf "%8d lines: first frame %6d ms  seek to the end answered %6d ms, arrived %8d ms  middle arrived %6d ms  cpu %7.2f s  peak %7.1f MiB  rows %s\n" \
    "$size" "$first" "$answered" "$seek" "$to_middle" "$(echo "$user + $sys" | bc -l)" "$(echo "$peak / 1024" | bc -l)" "$rows"
  "${tmux[@]}" kill-server 2>/dev/null || true
done
