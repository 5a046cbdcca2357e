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
#   ONLY=run Benchmarks/commands.sh                       # only run's first frame, seeks and memory
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

# run in a 100x30 tmux pane: milliseconds until the first frame, then for each seek (g) until
# it is answered: to the end (+400d, sent while the capture is still read: until every push
# has arrived, "to come", "reading N%" and "Seeking" gone from the screen), back to the start
# (-400d, until "Back to" shows), forward to the capture's middle (an ISO time, until the prompt
# is gone and nothing is followed any more), and to the end again. A seek to the end or the
# middle is also timed until it is answered: the screen lands on a state on the way ("following
# to" with something stored) or at the target, whichever comes first. Peak memory
# is GNU time's maximum resident size of the whole run. Polls every 20 ms, 10 min at most each.
measure_run() { # size capture
  local size=$1 capture=$2 tmux=(tmux -L pushdeck-bench -f /dev/null)
  "${tmux[@]}" kill-server 2>/dev/null || true
  local first_at last_at middle
  first_at=$(head -1 "$capture" | python3 -c 'import json,sys; print(json.loads(sys.stdin.buffer.read())["at"])')
  last_at=$(tail -1 "$capture" | python3 -c 'import json,sys; print(json.loads(sys.stdin.buffer.read())["at"])')
  middle=$(python3 -c "import datetime as d; print(d.datetime.fromtimestamp(($first_at + $last_at) / 2, d.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'))")
  local start first
  start=$(now_ms)
  "${tmux[@]}" new-session -d -s b -x 100 -y 30 \
    "LANG=C.UTF-8 TERM=tmux-256color /usr/bin/time -o '$work/run-peak' -f %M '$BIN' run --ephemeral --clock manual '$capture'; sleep 30"
  wait_for() { # grep pattern, present (1) or gone (0); with a third argument, or the screen
    # shows a seek landed while reading: "following to" with more than 0 stored
    local t0 screen; t0=$(now_ms)
    while :; do
      screen=$("${tmux[@]}" capture-pane -p -t b 2>/dev/null)
      if [ -n "${3:-}" ] && grep -q "following to" <<<"$screen" && ! grep -q " 0 stored" <<<"$screen"; then break; fi
      if grep -q "$1" <<<"$screen"; then [ "$2" = 1 ] && break
      else [ "$2" = 0 ] && break; fi
      sleep 0.02
      [ $(( $(now_ms) - t0 )) -lt 600000 ] || break
    done
  }
  # A long seek is answered at once and followed ("following to" on the status line, the clock
  # moving); the first figure is until the screen answers, the second until it gets there.
  seek() { # target, then what answers it; prints "answered-ms reached-ms"
    "${tmux[@]}" send-keys -t b g
    wait_for "Go to time" 1
    local t0 answered; t0=$(now_ms)
    "${tmux[@]}" send-keys -t b -- "$1" Enter
    case $2 in
      end)
        wait_for "Go to time" 0
        # Answered: landed on what has been read so far (more than 0 stored), or at the end.
        wait_for "following to\|to come\|reading [0-9]*%\|Seeking" 0 1
        answered=$(( $(now_ms) - t0 ))
        wait_for "to come\|reading [0-9]*%\|Go to time\|Seeking\|following to" 0 ;;
      back) wait_for "Back to" 1; answered=$(( $(now_ms) - t0 )) ;;
      prompt)
        wait_for "Go to time" 0
        answered=$(( $(now_ms) - t0 ))
        wait_for "following to" 0 ;;
    esac
    echo "$answered $(( $(now_ms) - t0 ))"
  }
  wait_for "to come" 1
  first=$(( $(now_ms) - start ))
  local to_end back to_middle again
  to_end=$(seek +400d end)
  back=$(seek -400d back)
  to_middle=$(seek "$middle" prompt)
  again=$(seek +400d end)
  "${tmux[@]}" send-keys -t b q
  # GNU time writes the peak once the run has exited.
  local t0; t0=$(now_ms)
  until [ -s "$work/run-peak" ] || [ $(( $(now_ms) - t0 )) -gt 30000 ]; do sleep 0.1; done
  local peak; peak=$(tail -1 "$work/run-peak" 2>/dev/null || echo 0)
  rm -f "$work/run-peak"
  "${tmux[@]}" kill-server 2>/dev/null || true
  ms() { echo "$1 / 1000" | bc -l; }
  printf "%-18s %8d %8.2f s\n" run-first-frame "$size" "$(ms "$first")"
  printf "%-18s %8d %8.2f s\n" run-end-answered "$size" "$(ms "${to_end% *}")"
  printf "%-18s %8d %8.2f s\n" run-seek-to-end "$size" "$(ms "${to_end#* }")"
  printf "%-18s %8d %8.2f s\n" run-seek-to-start "$size" "$(ms "${back#* }")"
  printf "%-18s %8d %8.2f s\n" run-mid-answered "$size" "$(ms "${to_middle% *}")"
  printf "%-18s %8d %8.2f s\n" run-seek-to-middle "$size" "$(ms "${to_middle#* }")"
  printf "%-18s %8d %8.2f s\n" run-seek-end-again "$size" "$(ms "${again#* }")"
  printf "%-18s %8d %8.2f s %8.1f MiB\n" run-peak-memory "$size" 0 "$(echo "${peak:-0} / 1024" | bc -l)"
}

results=$work/results
: >"$results"
for size in "${sizes[@]}"; do
  capture="$data/capture-$size.jsonl"
  [ -f "$capture" ] || python3 ../shared/tools/gen_capture.py "$size" "$capture" >/dev/null 2>&1
  cat "$capture" >/dev/null  # the page cache, so every run reads from memory
  {
    if [ "${ONLY:-}" != run ]; then
      measure render "$size" "$BIN" render "$capture"
      measure explain-json "$size" "$BIN" explain --format json "$capture"
      measure_floor "$size" "$capture"
      measure replay-state "$size" "$BIN" replay --state "$work/s-$size.sqlite" "$capture"
      measure replay-ephemeral "$size" "$BIN" replay --ephemeral "$capture"
    fi
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
