#!/usr/bin/env python3
"""Writes a scenario whose timeline holds N events (issue 15 §5).

A scenario file may hold 16 MiB, so a million events fit only through a YAML alias: the first
event is anchored (`- &e {after: 1s, push: {...}}`) and every other one is `- *e`.

    python3 Benchmarks/gen_timeline.py 1000000 Benchmarks/data/timeline-1000000.yaml
"""
import sys


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: gen_timeline.py EVENTS OUTPUT.yaml")
    count = int(sys.argv[1])
    if not 1 <= count <= 2_000_000:
        sys.exit("gen_timeline.py: EVENTS must be between 1 and 2000000")
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write("title: timeline of %d events\n" % count)
        out.write("timeline:\n")
        out.write("  - &e {after: 1s, push: {bundle: com.example.app, "
                  "payload: {aps: {alert: hi, thread-id: t1}}}}\n")
        out.write("  - *e\n" * (count - 1))


if __name__ == "__main__":
    main()
