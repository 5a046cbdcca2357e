#!/usr/bin/env bash
# Benchmark: stream a JSON Lines capture through decode and validate, against `jq -c .` on
# the same file in the same run. Writes a summary to stdout (and Benchmarks/results/).
#
#   Benchmarks/decode.sh [LINES]          # default 1000000
#
# Needs python3 (for ../shared/tools/gen_capture.py), jq, and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
data=Benchmarks/data
mkdir -p "$data" Benchmarks/results
gen=../shared/tools/gen_capture.py
# jq stops at the first malformed line, so the comparison file has no bad lines; Pushdeck is
# also run on a capture with the generator's default 1% of bad lines.
clean="$data/clean-$lines.jsonl"
dirty="$data/capture-$lines.jsonl"
[ -f "$clean" ] || python3 "$gen" "$lines" "$clean" --bad-rate 0 2>/dev/null
[ -f "$dirty" ] || python3 "$gen" "$lines" "$dirty" 2>/dev/null
swift build -c release --product pushdeck >/dev/null
bin=.build/release/pushdeck

measure() { # label, command...   prints "label seconds peak-KiB"
  local label=$1; shift
  local stats
  stats=$(mktemp)
  /usr/bin/time -o "$stats" -f "%e %M" "$@" >/dev/null 2>/dev/null || true
  echo "$label $(tail -1 "$stats")"
  rm -f "$stats"
}

# Warm the page cache so every run reads from memory.
cat "$clean" "$dirty" >/dev/null
jq_line=$(measure jq jq -c . "$clean")
pd_clean=$(measure pushdeck-clean "$bin" validate --strict --quiet "$clean" || true)
pd_dirty=$(measure pushdeck-dirty "$bin" validate --strict --quiet "$dirty" || true)
pd_json=$(measure pushdeck-json "$bin" validate --format json "$dirty" || true)
jq_s=$(echo "$jq_line" | awk '{print $2}')
summary=$(printf '%s\n%s\n%s\n%s\n' "$jq_line" "$pd_clean" "$pd_dirty" "$pd_json" | awk -v jq="$jq_s" '
  { printf "%-16s %7.2f s  %8.1f MiB peak  %6.1fx jq\n", $1, $2, $3/1024, jq/$2 }')
bytes=$(stat -L -c %s "$clean")
{
  echo "# decode+validate benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores"
  echo "# $lines lines, $((bytes / 1048576)) MiB; commit $(git rev-parse --short HEAD)"
  echo "$summary"
} | tee "Benchmarks/results/decode-$lines.txt"
"$bin" validate --strict --quiet "$dirty" 2>&1 | tail -1 || true
echo "generator expects: $(python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print(e["accepted"], "accepted of", e["lines"])' "$dirty.expected.json")"
