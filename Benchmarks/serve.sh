#!/usr/bin/env bash
# Benchmark: the APNs-compatible endpoint (`pushdeck serve`, h2c) under h2load on loopback.
#
#   Benchmarks/serve.sh                 # throughput and latency: 200,000 pushes, several loads
#   Benchmarks/serve.sh soak [SECONDS] [RATE]   # memory over a steady load (default 600 s, 2,000/s)
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
swift build -c release --product pushdeck >/dev/null
bin=$PWD/.build/release/pushdeck
work=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill -INT "$server" 2>/dev/null && wait "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

token=$(printf 'ab%.0s' {1..32})
printf '%s' '{"aps":{"alert":{"title":"Order 1234","body":"Your order is on its way."},"thread-id":"order-1234","sound":"default"},"order":1234}' >"$work/payload.json"

start_server() { # extra serve arguments...
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$bin" serve --port "$port" --record "$work/record.jsonl" "$@" >"$work/serve.log" 2>&1 &
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
