#!/bin/sh
# A backend integration test with Pushdeck as the APNs endpoint.
#
# Starts `pushdeck serve` on a free port, waits until it is ready, sends pushes the way a backend
# would (curl stands in for the backend's APNs client: point yours at http://127.0.0.1:$port),
# then asserts what the simulated iPhone got, from the capture serve records and from
# `pushdeck explain` on it. Exit 0 when every assertion holds.
#
#   sh Examples/mock-apns/backend-test.sh [path/to/pushdeck]
set -eu

pushdeck=${1:-pushdeck}
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -INT "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; echo "--- serve's output:" >&2; cat "$work/serve.log" >&2; exit 1; }

# 1. Start the mock APNs: --port 0 picks a free port, --ready-file says when it listens,
#    --record keeps every accepted push as a JSON Lines capture, --ephemeral gives each run a
#    fresh phone (no state database, so test runs in parallel do not share one).
"$pushdeck" serve --port 0 --ephemeral --ready-file "$work/port" --record "$work/pushes.jsonl" \
  >"$work/serve.log" 2>&1 &
pid=$!
tries=0
until [ -s "$work/port" ]; do
  kill -0 "$pid" 2>/dev/null || fail "pushdeck serve exited before it was ready"
  tries=$((tries + 1))
  [ "$tries" -le 300 ] || fail "pushdeck serve was not ready after 30 seconds"
  sleep 0.1
done
port=$(cat "$work/port")
endpoint="http://127.0.0.1:$port/3/device"
token=8f1c2a7be3d94c0e8a6b5f4d3c2b1a0918e7d6c5b4a39281706f5e4d3c2b1a09

# 2. The backend sends (here: curl, HTTP/2 with prior knowledge, as an APNs client does).
send() { # send BODY HEADER... -> prints the HTTP status
  body=$1
  shift
  set -- "$@" -H 'apns-topic: com.example.shop'
  curl -s -o "$work/answer" -w '%{http_code}' --http2-prior-knowledge --max-time 10 "$@" \
    --data-binary "$body" "$endpoint/$token"
}
status=$(send '{"aps":{"alert":{"title":"Order shipped","body":"Your parcel is on its way"},"sound":"default","badge":1}}' \
  -H 'apns-push-type: alert' -H 'apns-priority: 10')
[ "$status" = 200 ] || fail "the shipped push was answered $status: $(cat "$work/answer")"

status=$(send '{"aps":{"alert":"Half a payload"' -H 'apns-push-type: alert')
[ "$status" = 400 ] || fail "a truncated payload was answered $status, expected 400"
grep -q '"reason"' "$work/answer" || fail "no reason in the 400 answer"

# 3. Assert what the phone got. Every push answered 200 is in the capture (serve answers once
#    it is saved), one JSON object per line.
[ "$(wc -l <"$work/pushes.jsonl")" -eq 1 ] || fail "expected 1 recorded push, got $(wc -l <"$work/pushes.jsonl")"
grep -q 'Order shipped' "$work/pushes.jsonl" || fail "the recorded push is not the shipped one"

# ... and what the device did with it, as explain decides it (JSON Lines, one object per push).
"$pushdeck" explain --format json "$work/pushes.jsonl" >"$work/explained.jsonl"
grep -q '"disposition":"delivered"' "$work/explained.jsonl" || fail "not delivered: $(cat "$work/explained.jsonl")"
grep -q '"surfaces":\["banner","notificationCenter"\]' "$work/explained.jsonl" \
  || fail "not shown as a banner and in Notification Center: $(cat "$work/explained.jsonl")"
grep -q '"badge":1' "$work/explained.jsonl" || fail "the badge was not set: $(cat "$work/explained.jsonl")"

echo "ok: 1 push delivered as a banner with sound and badge 1; 1 bad payload answered 400"
