#!/usr/bin/env bash
# Benchmark: startup to the first frame of the demo, and quitting, in a real pseudo-terminal.
#
#   Benchmarks/startup.sh [RUNS]      # default 20
#
# `script` gives `pushdeck run` a pty; the `q` is already waiting on its input, so each run is:
# start, set up ncurses, build the demo device, draw and present the first frame, read `q`,
# restore the terminal, exit. The figure is an upper bound on time to first frame.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
swift build -c release --product pushdeck >/dev/null
bin=.build/release/pushdeck
printf q | script -qfec "TERM=xterm-256color $bin run --clock manual" /dev/null > /tmp/pushdeck-startup.out
grep -q "Messages" /tmp/pushdeck-startup.out || { echo "the first frame was not drawn"; exit 1; }
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  printf q | script -qfec "TERM=xterm-256color $bin run --clock manual" /dev/null > /dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(echo "$sorted" | awk -v n="$runs" 'NR == int((n + 1) / 2)')
worst=$(echo "$sorted" | tail -1)
echo "startup to first frame and quit, $runs runs: median ${median} ms, worst ${worst} ms"
