#!/usr/bin/env bash
# Benchmark: h2load against `pushdeck serve` on loopback (h2c): accepted pushes per second,
# latency percentiles from h2load's per-request log, the server's memory, and that nothing was
# lost: 2xx answers == lines in the --record capture == accepted lines in the server's log.
#
#   Benchmarks/serve.sh [REQUESTS] [CONNECTIONS] [STREAMS]   # default 200000 8 16
#   SOAK=600 RATE=4000 Benchmarks/serve.sh                   # instead: 600 s at a fixed rate, RSS sampled
#   COLLAPSE=1 SOAK=600 Benchmarks/serve.sh                  # every push with one apns-collapse-id (replaces, not piles up)
#   TLS=1 Benchmarks/serve.sh                                # over TLS (ALPN h2) with an openssl-made certificate
#
# Needs h2load (Debian's nghttp2-client), python3 and a release build (made here).
set -euo pipefail
cd "$(dirname "$0")/.."
requests=${1:-200000}
connections=${2:-8}
streams=${3:-16}
soak=${SOAK:-}
command -v h2load >/dev/null || { echo "serve.sh: needs h2load: apt-get install nghttp2-client" >&2; exit 2; }
swift build -c release --product pushdeck >/dev/null
bin=.build/release/pushdeck
mkdir -p Benchmarks/results
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

tls=()
scheme=http
if [ -n "${TLS:-}" ]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
  tls=(--cert "$work/cert.pem" --key "$work/key.pem")
  scheme=https
fi
"$bin" serve --port 0 --ephemeral --record "$work/live.jsonl" "${tls[@]}" >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q "listening on" "$work/serve.log" 2>/dev/null && break; sleep 0.1; done
port=$(head -1 "$work/serve.log" | sed 's/.*://')
token=$(printf 'ab%.0s' $(seq 32))
printf '{"aps":{"alert":{"title":"Bench","body":"A push from h2load"},"sound":"default"},"id":1}' >"$work/body.json"
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
rss_start=$(rss)

args=(-c "$connections" -m "$streams" -t 1 -d "$work/body.json" -H "apns-topic: com.example.app"
  -H "apns-push-type: alert" -H "apns-priority: 10" --log-file "$work/h2load.log")
[ -n "${COLLAPSE:-}" ] && args+=(-H "apns-collapse-id: bench")
url="$scheme://127.0.0.1:$port/3/device/$token"
samples=""
if [ -n "$soak" ]; then
  # A fixed rate (-r connections started per second is not a rate limit; use --rps per client).
  rate=${RATE:-2000}
  h2load "${args[@]}" -D "$soak" --rps "$((rate / connections))" "$url" >"$work/h2load.out" 2>&1 &
  load=$!
  while kill -0 "$load" 2>/dev/null; do samples+="$(rss) "; sleep 10; done
  wait "$load" || true
else
  h2load "${args[@]}" -n "$requests" "$url" >"$work/h2load.out" 2>&1
fi
rss_end=$(rss)
sleep 1
kill -INT "$pid"
wait "$pid" || true
pid=

ok=$(awk '/^status codes:/ {print $3}' "$work/h2load.out")
recorded=$(wc -l <"$work/live.jsonl")
logged=$(grep -c '^200 ' "$work/serve.log" || true)
summary=$(
  python3 - "$work/h2load.log" "$work/h2load.out" <<'EOF'
import sys
durations = sorted(int(line.split()[2]) for line in open(sys.argv[1]) if line.strip())
def pct(p):
    return durations[min(len(durations) - 1, int(len(durations) * p / 100))] / 1000
out = open(sys.argv[2]).read()
finished = next(l for l in out.splitlines() if l.startswith("finished in"))
print(finished)
print(f"latency ms: p50 {pct(50):.2f}  p90 {pct(90):.2f}  p99 {pct(99):.2f}  max {durations[-1] / 1000:.2f}  ({len(durations)} requests)")
EOF
)
{
  echo "pushdeck serve ($scheme, release) ← h2load -c $connections -m $streams -t 1${soak:+ -D $soak --rps $((${RATE:-2000} / connections))}${COLLAPSE:+ -H apns-collapse-id}, $(nproc) cores"
  echo "$summary"
  echo "2xx answers $ok · recorded $recorded · logged accepted $logged"
  echo "server RSS KiB: start $rss_start, end $rss_end${samples:+, every 10 s: $samples}"
  grep -E '^(requests|status codes|traffic):' "$work/h2load.out"
} | tee "Benchmarks/results/serve-$(date +%Y%m%d-%H%M%S).txt"
[ "$ok" = "$recorded" ] && [ "$ok" = "$logged" ] || { echo "serve.sh: LOST PUSHES" >&2; exit 1; }
