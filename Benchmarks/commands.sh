#!/usr/bin/env bash
# Benchmark the commands a user runs, end to end, on generated captures of several sizes:
#   render (the frame after the last push), explain --format json, the floor under replay
#   --state (decoding beside the bare bytes' journal, as Benchmarks/floor.sh), replay --state,
#   replay --ephemeral, and run in tmux: the first frame, then a seek (g) to the end.
# Prints wall time and peak memory per command and size, and the largest/smallest ratio per
# command (writes them to Benchmarks/results/commands.txt).
#
#   Benchmarks/commands.sh [SIZES...]     # default: 10000 100000 1000000
#   BIN=path/to/pushdeck Benchmarks/commands.sh 10000    # a binary built elsewhere
#
# Needs python3 (../shared/tools/gen_capture.py), GNU time (/usr/bin/time) and tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 1000000)
data=Benchmarks/data
mkdir -p "$data" Benchmarks/results
if [ -z "${BIN:-}" ]; then
  swift build -c release --product pushdeck >/dev/null
  BIN=.build/release/pushdeck
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
work=$(mktemp -d)
trap 'tmux -L pushdeck-bench kill-server 2>/dev/null || true; rm -rf "$work"' EXIT

measure() { # label size command...   prints "label size wall-s peak-MiB"
  local label=$1 size=$2; shift 2
  local stats=$work/stats
  /usr/bin/time -o "$stats" -f "%e %M" "$@" >/dev/null 2>&1 || true
  # GNU time puts "Command exited with non-zero status N" first (explain exits 1 on rejected lines).
  tail -1 "$stats" | awk -v l="$label" -v n="$size" '{ printf "%-18s %8d %8.2f s %8.1f MiB\n", l, n, $1, $2/1024 }'
}

now_ms() { date +%s%3N; }

# The floor under replay --state (Benchmarks/floor.sh's "both at once"): decoding the capture
# (validate --strict --quiet) beside storing its bytes in SQLite (persist_floor.py), no device.
# Run right before replay-state, so the two are measured back to back on the shared machine.
measure_floor() { # size capture
  local size=$1 capture=$2 start
  start=$(now_ms)
  "$BIN" validate --strict --quiet "$capture" >/dev/null 2>&1 &
  python3 Benchmarks/persist_floor.py "$capture" "$work/floor.sqlite" >/dev/null
  wait || true
  printf "%-18s %8d %8.2f s\n" floor-both "$size" "$(echo "($(now_ms) - $start) / 1000" | bc -l)"
  rm -f "$work/floor.sqlite"*
}

# run in a 100x30 tmux pane: milliseconds until the first frame, then until a seek to the end
# has applied every push ("to come" and "reading N%" gone from the status line: pushes still
# being read in the background count). Polls every 20 ms, 10 min at most.
measure_run() { # size capture
  local size=$1 capture=$2 tmux=(tmux -L pushdeck-bench -f /dev/null)
  "${tmux[@]}" kill-server 2>/dev/null || true
  local start first seek
  start=$(now_ms)
  "${tmux[@]}" new-session -d -s b -x 100 -y 30 \
    "LANG=C.UTF-8 TERM=tmux-256color '$BIN' run --ephemeral --clock manual '$capture'; sleep 30"
  until "${tmux[@]}" capture-pane -p -t b 2>/dev/null | grep -q "to come"; do
    sleep 0.02
    [ $(( $(now_ms) - start )) -lt 600000 ] || break
  done
  first=$(( $(now_ms) - start ))
  "${tmux[@]}" send-keys -t b g
  until "${tmux[@]}" capture-pane -p -t b | grep -q "Go to time"; do sleep 0.02; done
  start=$(now_ms)
  "${tmux[@]}" send-keys -t b "+400d" Enter
  until ! "${tmux[@]}" capture-pane -p -t b | grep -q "to come\|reading [0-9]*%\|Go to time"; do
    sleep 0.02
    [ $(( $(now_ms) - start )) -lt 600000 ] || break
  done
  seek=$(( $(now_ms) - start ))
  local rss
  rss=$(ps -o rss= -C pushdeck | sort -n | tail -1)
  "${tmux[@]}" send-keys -t b q
  "${tmux[@]}" kill-server 2>/dev/null || true
  printf "%-18s %8d %8.2f s\n" run-first-frame "$size" "$(echo "$first / 1000" | bc -l)"
  # The memory is the resident size once every push has arrived.
  printf "%-18s %8d %8.2f s %8.1f MiB\n" run-seek-to-end "$size" "$(echo "$seek / 1000" | bc -l)" "$(echo "${rss:-0} / 1024" | bc -l)"
}

results=$work/results
: >"$results"
for size in "${sizes[@]}"; do
  capture="$data/capture-$size.jsonl"
  [ -f "$capture" ] || python3 ../shared/tools/gen_capture.py "$size" "$capture" >/dev/null 2>&1
  cat "$capture" >/dev/null  # the page cache, so every run reads from memory
  {
    measure render "$size" "$BIN" render "$capture"
    measure explain-json "$size" "$BIN" explain --format json "$capture"
    measure_floor "$size" "$capture"
    measure replay-state "$size" "$BIN" replay --state "$work/s-$size.sqlite" "$capture"
    measure replay-ephemeral "$size" "$BIN" replay --ephemeral "$capture"
    measure_run "$size" "$capture"
  } | tee -a "$results"
done
{
  echo "# commands benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), commit $(git rev-parse --short HEAD)"
  cat "$results"
  echo "# ratio of the largest size to the smallest, per command"
  awk '{ t[$1, $2] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
         if (!($2 in s)) { s[$2] = 1; sizes[++m] = $2 } }
       END { lo = sizes[1]; hi = sizes[m]
             for (i = 1; i <= n; i++) { c = order[i]
               if (t[c, lo] > 0) printf "%-18s %d/%d lines: %.1fx\n", c, hi, lo, t[c, hi] / t[c, lo] } }' "$results"
  # Each size's render and explain against replay --ephemeral, run just before it (the goals of
  # issue 15: render within 1.5x, explain within 2x).
  echo "# against replay-ephemeral at the same size (wall time)"
  awk '{ t[$1, $2] = $3; if (!($2 in s)) { s[$2] = 1; sizes[++m] = $2 } }
       END { for (i = 1; i <= m; i++) { n = sizes[i]; r = t["replay-ephemeral", n]
               if (r > 0) printf "%8d lines: render %.2fx  explain-json %.2fx\n", n, t["render", n] / r, t["explain-json", n] / r } }' "$results"
} | tee Benchmarks/results/commands.txt
