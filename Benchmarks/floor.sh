#!/usr/bin/env bash
# The floor under `pushdeck replay --state`: what the decode-only benchmark and the least
# possible journal cost on this machine, each alone and both at once, with no device at all.
#
#   Benchmarks/floor.sh [LINES]          # default 1000000
#
# "persist" stores every byte of the capture in an SQLite database in WAL mode (synchronous
# NORMAL, a checkpoint every 64 MiB), one BLOB row per MiB read (Benchmarks/persist_floor.py):
# less work than any journal that keeps each push's raw payload can do. "both" runs it beside
# `pushdeck validate --strict --quiet` on the same file, as a replay whose device cost nothing
# would. Writes Benchmarks/results/floor-LINES.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
data=Benchmarks/data
mkdir -p "$data" Benchmarks/results
capture="$data/capture-$lines.jsonl"
[ -f "$capture" ] || python3 ../shared/tools/gen_capture.py "$lines" "$capture" 2>/dev/null
swift build -c release --product pushdeck >/dev/null
bin=.build/release/pushdeck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat "$capture" >/dev/null

now() { date +%s.%N; }
# validate exits 1 (the capture has rejected lines): GNU time then writes a line before its own.
decode() { /usr/bin/time -o "$work/decode.time" -f "%e %U %S" "$bin" validate --strict --quiet "$capture" >/dev/null 2>&1 || true; }
persist() { python3 Benchmarks/persist_floor.py "$capture" "$work/floor.sqlite" >"$work/persist.time"; }

{
  echo "# journal floor, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
  echo "# $lines lines, $(($(stat -L -c %s "$capture") / 1048576)) MiB; commit $(git rev-parse --short HEAD)"
  for round in 1 2 3; do
    decode
    read -r d_wall d_user d_sys < <(tail -1 "$work/decode.time")
    persist
    read -r p_wall p_user p_sys p_mib <"$work/persist.time"
    started=$(now)
    decode &
    persist
    wait
    both=$(echo "$(now) - $started" | bc)
    awk -v r="$round" -v dw="$d_wall" -v du="$d_user" -v ds="$d_sys" -v pw="$p_wall" -v pu="$p_user" \
      -v ps="$p_sys" -v mib="$p_mib" -v both="$both" 'BEGIN {
        printf "round %d: decode-only %.2f s wall (%.2f s cpu); persist-only %.2f s wall (%.2f s cpu, %d MiB); both at once %.2f s = %.2fx decode-only\n",
          r, dw, du + ds, pw, pu + ps, mib, both, both / dw }'
  done
} | tee "Benchmarks/results/floor-$lines.txt"
