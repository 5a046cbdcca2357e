#!/usr/bin/env bash
# Benchmark: the APNs-compatible endpoint (`pushdeck serve`, h2c) under h2load on loopback.
#
#   Benchmarks/serve.sh                 # throughput and latency: 200,000 pushes, several loads
#   Benchmarks/serve.sh soak [SECONDS] [RATE]   # memory over a steady load (default 600 s, 2,000/s)
#   Benchmarks/serve.sh compare [COMMIT]        # --state throughput: COMMIT (default main) vs this tree
#   Benchmarks/serve.sh durability              # h2load, then SIGKILL / SIGTERM / a full 2 MB tmpfs:
#                                               # acknowledged (2xx) against saved rows and recorded lines
#
# BIN=path uses that pushdeck instead of building this tree's release binary; compare builds
# COMMIT's in a temporary worktree unless BEFORE_BIN=path names one.
#
# Every accepted push goes through the device (policy, Notification Center) and is recorded with
# --record; the script checks that the pushes h2load saw accepted equal the lines recorded (not one
# push lost). Latency percentiles come from h2load's per-request log. Needs h2load (Debian's
# nghttp2-client). Results go to Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v h2load >/dev/null || { echo "serve.sh: h2load is missing (apt-get install nghttp2-client)" >&2; exit 2; }
mode=${1:-bench}
mkdir -p Benchmarks/results
if [ -z "${BIN:-}" ]; then
  swift build -c release --product pushdeck >/dev/null
  bin=$PWD/.build/release/pushdeck
else
  bin=$BIN
fi
work=$(mktemp -d)
server=
before_tree=
cleanup() {
  [ -n "$server" ] && kill -INT "$server" 2>/dev/null && wait "$server" 2>/dev/null
  [ -n "$before_tree" ] && git worktree remove --force "$before_tree" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

token=$(printf 'ab%.0s' {1..32})
printf '%s' '{"aps":{"alert":{"title":"Order 1234","body":"Your order is on its way."},"thread-id":"order-1234","sound":"default"},"order":1234}' >"$work/payload.json"

start_server() { # extra serve arguments...
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  rm -f "$work/serve.log"  # a previous server's "listening" must not count
  "$bin" serve --port "$port" --record "${record:-$work/record.jsonl}" "$@" >"$work/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 50); do
    grep -q "listening\|Listening" "$work/serve.log" 2>/dev/null && break
    sleep 0.1
  done
  url="http://127.0.0.1:$port/3/device/$token"
}

stop_server() {
  kill -INT "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=
}

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }

h2() { # h2load arguments...
  h2load -d "$work/payload.json" -H 'apns-topic: com.example.shop' -H 'apns-push-type: alert' \
    -H 'apns-priority: 10' "${extra_headers[@]}" "$@" "$url"
}
extra_headers=()

# p50 / p99 / max of the per-request latencies (microseconds, column 3 of h2load's log).
percentiles() {
  sort -n -k3,3 "$1" | awk '{v[NR]=$3} END {
    if (NR == 0) { print "no requests"; exit }
    p50 = v[int(NR*0.50) > 0 ? int(NR*0.50) : 1]; p99 = v[int(NR*0.99) > 0 ? int(NR*0.99) : 1]
    printf "p50 %.2f ms  p99 %.2f ms  max %.2f ms", p50/1000, p99/1000, v[NR]/1000 }'
}

if [ "$mode" = durability ]; then
  out="Benchmarks/results/serve-durability.txt"
  {
    echo "# serve --state --record under h2load -c 4 -m 50, $(date -u +%Y-%m-%dT%H:%M:%SZ), $($bin --version 2>/dev/null || echo "$bin"), load $(cut -d' ' -f1 /proc/loadavg)"
    echo "# acknowledged = h2load's 2xx; saved = the state's delivery rows; recorded = capture lines"
  } | tee "$out"
  for how in KILL TERM; do
    rm -f "$work/record.jsonl" "$work"/device.sqlite*
    start_server --state "$work/device.sqlite"
    h2 -n 2000000 -c 4 -m 50 >"$work/h2load.txt" 2>&1 &
    load=$!
    sleep "${SECONDS_UNDER_LOAD:-4}"
    kill -"$how" "$server"
    status=0
    wait "$server" || status=$?
    server=
    wait "$load" || true
    ok=$(awk '/status codes:/ {print $3}' "$work/h2load.txt")
    saved=$(sqlite3 "$work/device.sqlite" 'SELECT count(*) FROM delivery')
    recorded=$(wc -l <"$work/record.jsonl")
    printf 'SIG%-4s exit %-3s acknowledged %7s saved %7s recorded %7s  lost %s\n' "$how" "$status" "$ok" "$saved" \
      "$recorded" "$(( ok > saved || ok > recorded ? (ok - (saved < recorded ? saved : recorded)) : 0 ))" | tee -a "$out"
  done
  mkdir -p "$work/disk"
  if mount -t tmpfs -o size=2m tmpfs "$work/disk"; then
    record="$work/disk/record.jsonl" start_server --state "$work/disk/device.sqlite"
    h2 -n 20000 -c 4 -m 50 >"$work/h2load.txt" 2>&1 || true
    kill -TERM "$server"
    status=0
    wait "$server" || status=$?
    server=
    ok=$(awk '/status codes:/ {print $3}' "$work/h2load.txt")
    failed=$(awk '/status codes:/ {print $9}' "$work/h2load.txt")
    saved=$(sqlite3 "$work/disk/device.sqlite" 'SELECT count(*) FROM delivery')
    recorded=$(wc -l <"$work/disk/record.jsonl")
    logged=$(grep -c 'cannot save\|disk holding' "$work/serve.log" || true)
    printf 'full     exit %-3s acknowledged %7s saved %7s recorded %7s  lost %s  (5xx %s; cause logged %s time(s))\n' \
      "$status" "$ok" "$saved" "$recorded" "$(( ok > saved ? ok - saved : 0 ))" "$failed" "$logged" | tee -a "$out"
    umount "$work/disk"
  else
    echo "full disk: NOT RUN (mount -t tmpfs failed: not root?)" | tee -a "$out"
  fi
  exit 0
fi

if [ "$mode" = compare ]; then
  commit=${2:-main}
  before=${BEFORE_BIN:-}
  if [ -z "$before" ]; then
    before_tree="$work/before"
    git worktree add --detach "$before_tree" "$commit" >/dev/null
    (cd "$before_tree" && swift build -c release --product pushdeck >/dev/null)
    before="$before_tree/.build/release/pushdeck"
  fi
  out="Benchmarks/results/serve-compare.txt"
  {
    echo "# serve --state --record, before ($commit) and after ($(git rev-parse --short HEAD)), $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
    echo "# h2load on loopback, h2c, ${PUSHES:-100000} pushes; saved = the state's delivery rows after SIGINT, recorded = capture lines (warm-up excluded)"
  } | tee "$out"
  for which in before after; do
    [ "$which" = before ] && bin=$before || bin=${BIN:-$PWD/.build/release/pushdeck}
    for load in "1 10" "4 50" "8 100"; do
      set -- $load
      rm -f "$work/record.jsonl" "$work"/device.sqlite*
      start_server --state "$work/device.sqlite"
      h2 -n 2000 -c 1 -m 1 >/dev/null  # warm up
      h2 -n ${PUSHES:-100000} -c "$1" -m "$2" >"$work/h2load.txt" 2>&1
      rate=$(awk '/finished in/ {print $4}' "$work/h2load.txt")
      ok=$(awk '/status codes:/ {print $3}' "$work/h2load.txt")
      stop_server
      recorded=$(($(wc -l <"$work/record.jsonl") - 2000))
      saved=$(($(sqlite3 "$work/device.sqlite" 'SELECT count(*) FROM delivery') - 2000))
      printf '%-6s c=%-2s m=%-3s %10s pushes/s  2xx %s saved %s recorded %s%s\n' "$which" "$1" "$2" "$rate" "$ok" \
        "$saved" "$recorded" "$( [ "$ok" = "$saved" ] && [ "$ok" = "$recorded" ] && echo '' || echo ' MISMATCH')" |
        tee -a "$out"
    done
  done
  exit 0
fi

if [ "$mode" = soak ]; then
  seconds=${2:-600}
  rate=${3:-2000}
  # One collapse id: each push replaces the last, so the device holds one notification and what
  # could grow is the endpoint's own memory (connections, streams, buffers), not the store.
  extra_headers=(-H 'apns-collapse-id: soak')
  start_server --ephemeral
  h2 -n 2000 -c 2 -m 10 >/dev/null  # warm up
  out="Benchmarks/results/serve-soak.txt"
  {
    echo "# serve soak, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, commit $(git rev-parse --short HEAD)"
    echo "# $seconds s at $rate pushes/s (h2load --rps over 4 clients), --ephemeral, one apns-collapse-id; RSS every 30 s"
    echo "t=0s rss $(rss_kib) KiB"
  } | tee "$out"
  h2 -c 4 -m 10 --rps $((rate / 4)) -D "$seconds" >"$work/h2load.txt" 2>&1 &
  load=$!
  for ((t = 30; t <= seconds; t += 30)); do
    sleep 30
    echo "t=${t}s rss $(rss_kib) KiB stored-lines $(wc -l <"$work/record.jsonl")" | tee -a "$out"
  done
  wait "$load" || true
  accepted=$(awk '/status codes:/ {print $3}' "$work/h2load.txt")
  stop_server
  recorded=$(($(wc -l <"$work/record.jsonl") - 2000))  # without the warm-up
  echo "accepted $accepted, recorded $recorded ($( [ "$accepted" = "$recorded" ] && echo 'none lost' || echo 'MISMATCH'))" | tee -a "$out"
  exit 0
fi

out="Benchmarks/results/serve-bench.txt"
{
  echo "# serve benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), commit $(git rev-parse --short HEAD)"
  echo "# h2load on loopback, h2c; payload $(wc -c <"$work/payload.json") bytes; every push through policy and Notification Center, recorded"
} | tee "$out"
for state in ephemeral state; do
  for load in "1 10" "2 20" "4 50"; do
    set -- $load
    rm -f "$work/record.jsonl" "$work"/device.sqlite*
    if [ "$state" = state ]; then start_server --state "$work/device.sqlite"; else start_server --ephemeral; fi
    h2 -n 2000 -c 1 -m 1 >/dev/null  # warm up
    rm -f "$work/h2.log"
    before=$(rss_kib)
    h2 -n ${PUSHES:-200000} -c "$1" -m "$2" --log-file="$work/h2.log" >"$work/h2load.txt" 2>&1
    after=$(rss_kib)
    rate=$(awk '/finished in/ {print $4}' "$work/h2load.txt")
    ok=$(awk '/status codes:/ {print $3}' "$work/h2load.txt")
    stop_server
    recorded=$(($(wc -l <"$work/record.jsonl") - 2000))
    printf '%-9s c=%-2s m=%-3s %10s pushes/s  %s  2xx %s recorded %s%s  rss %s→%s KiB\n' \
      "$state" "$1" "$2" "$rate" "$(percentiles "$work/h2.log")" "$ok" "$recorded" \
      "$( [ "$ok" = "$recorded" ] && echo '' || echo ' MISMATCH')" "$before" "$after" | tee -a "$out"
  done
done
