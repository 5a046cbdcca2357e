#!/usr/bin/env bash
# Benchmark: replay a JSON Lines capture through policy, store, grouping, ranking and the state
# journal (`pushdeck replay`), against the decode-only benchmark (`pushdeck validate --strict
# --quiet`) on the same file in the same run. Prints wall and CPU time, the ratio and peak memory
# (and writes them to Benchmarks/results/).
#
#   Benchmarks/replay.sh [LINES]          # default 1000000
#
# Needs python3 (for ../shared/tools/gen_capture.py) and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
data=Benchmarks/data
mkdir -p "$data" Benchmarks/results
gen=../shared/tools/gen_capture.py
capture="$data/capture-$lines.jsonl"
[ -f "$capture" ] || python3 "$gen" "$lines" "$capture" 2>/dev/null
swift build -c release --product pushdeck >/dev/null
bin=.build/release/pushdeck
state=$(mktemp -d)/replay.sqlite
summary_json=$(mktemp)
trap 'rm -rf "$(dirname "$state")" "$summary_json"' EXIT

measure() { # label, command...   prints "label wall-s user-s sys-s peak-KiB"; stdout to $summary_json
  local label=$1; shift
  local stats
  stats=$(mktemp)
  /usr/bin/time -o "$stats" -f "%e %U %S %M" "$@" >"$summary_json" 2>/dev/null || true
  echo "$label $(tail -1 "$stats")"
  rm -f "$stats"
}

# Warm the page cache so every run reads from memory.
cat "$capture" >/dev/null
decode=$(measure decode-only "$bin" validate --strict --quiet "$capture")
replay=$(measure replay "$bin" replay --state "$state" --format json "$capture")
replay_summary=$(cat "$summary_json")
state_mib=$(( $(stat -c %s "$state") / 1048576 ))
rm -f "$state" "$state-wal" "$state-shm" "$state.lock"
replay_eph=$(measure replay-ephemeral "$bin" replay --ephemeral "$capture")
decode_s=$(echo "$decode" | awk '{print $2}')
decode_cpu=$(echo "$decode" | awk '{print $3 + $4}')
summary=$(printf '%s\n%s\n%s\n' "$decode" "$replay" "$replay_eph" | awk -v d="$decode_s" -v dc="$decode_cpu" '
  { cpu = $3 + $4
    printf "%-17s %7.2f s wall %7.2f s cpu  %8.1f MiB peak  %5.2fx decode (cpu %5.2fx)\n", $1, $2, cpu, $5/1024, $2/d, cpu/dc }')
bytes=$(stat -L -c %s "$capture")
{
  echo "# replay benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
  echo "# $lines lines, $((bytes / 1048576)) MiB; commit $(git rev-parse --short HEAD); state database $state_mib MiB"
  echo "$summary"
  echo "# replay summary: $replay_summary"
} | tee "Benchmarks/results/replay-$lines.txt"

