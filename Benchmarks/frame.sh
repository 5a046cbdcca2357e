#!/usr/bin/env bash
# Benchmark: one front-end turn (a tick and building the frame, then presenting it through a
# headless ncurses session on /dev/null, timed apart) at 200x60 with 10k and 1M
# notifications stored, on the lock screen and in Notification Center. Not a timed test.
#
#   Benchmarks/frame.sh [COUNTS] [SIZE]     # default 10000,1000000 200x60
set -euo pipefail
cd "$(dirname "$0")/.."
counts=${1:-10000,1000000}
size=${2:-200x60}
swift build -c release --product pushdeck >/dev/null
mkdir -p Benchmarks/results
.build/release/pushdeck render --bench "$counts" --size "$size" | tee "Benchmarks/results/frame-$(date +%Y%m%d-%H%M%S).txt"
