#!/usr/bin/env bash
# Instructions executed per thread by `pushdeck replay` (valgrind's callgrind), for comparing two
# builds without the noise of a shared machine: the counts are the same from run to run.
#
#   Benchmarks/instructions.sh OLD_BINARY NEW_BINARY [LINES] [--state]
#
# LINES (default 20000) lines are taken from the start of the 1M capture (generated on first use,
# as in replay.sh); --state journals into a fresh state file, else the replay is --ephemeral.
# Thread 1 is the one that runs the device; the others decode (and, with --state, journal).
#
# Read the counts with care (docs/PERFORMANCE.md): instructions are not time. A `rep movsb`
# copy counts as one instruction per byte, and work moved from one thread to another can lower
# a thread's count while the total time grows (cross-core reference counting costs cycles, not
# instructions). Confirm a change with replay.sh on the full capture before keeping it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n 2,14p "$0"; exit 2; }
old=$1 new=$2 lines=${3:-20000} mode=${4:---ephemeral}
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
data=$PWD/Benchmarks/data
mkdir -p "$data"
full="$data/capture-1000000.jsonl"
[ -f "$full" ] || python3 ../shared/tools/gen_capture.py 1000000 "$full" 2>/dev/null
capture="$data/head-$lines.jsonl"
[ -f "$capture" ] || head -n "$lines" "$full" >"$capture"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for label in old new; do
  binary=$old
  [ "$label" = new ] && binary=$new
  rm -rf "$work/run" && mkdir "$work/run"
  # callgrind cannot read the DWARF 5 debug information the Swift toolchain writes; symbols stay.
  strip --strip-debug -o "$work/run/pushdeck" "$binary"
  args=(replay --ephemeral "$capture")
  [ "$mode" = --state ] && args=(replay --state "$work/run/state.sqlite" "$capture")
  (cd "$work/run" && valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/run/cg.out" \
    ./pushdeck "${args[@]}" >/dev/null 2>&1) || true
  device=$(grep -h '^summary:' "$work/run/cg.out-01" | awk '{print $2}')
  total=$(cat "$work"/run/cg.out-* | grep '^summary:' | awk '{s += $2} END {print s}')
  awk -v l="$label" -v d="$device" -v t="$total" -v n="$lines" 'BEGIN {
    printf "%-4s device thread %9.1f M instructions (%6.0f per push)   all threads %9.1f M\n", l, d / 1e6, d / n, t / 1e6 }'
done
