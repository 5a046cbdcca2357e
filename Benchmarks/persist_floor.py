#!/usr/bin/env python3
"""The least a replay's journal can do: store every byte of a capture in an SQLite database in
WAL mode, in one BLOB row per MiB read (no row per push, no index, no decoding, no device).

    persist_floor.py CAPTURE DATABASE [--synchronous normal|off] [--page-size N]

Prints one line: wall seconds, user and system CPU seconds, database MiB. Used by
Benchmarks/floor.sh to bound from below what `pushdeck replay --state` can cost on this machine.
"""
import argparse
import os
import resource
import sqlite3
import time

parser = argparse.ArgumentParser()
parser.add_argument("capture")
parser.add_argument("database")
parser.add_argument("--synchronous", default="normal", choices=["normal", "off"])
parser.add_argument("--page-size", type=int, default=16384)
parser.add_argument("--chunk", type=int, default=1 << 20)
args = parser.parse_args()

for suffix in ("", "-wal", "-shm"):
    try:
        os.remove(args.database + suffix)
    except FileNotFoundError:
        pass

started = time.monotonic()
usage = resource.getrusage(resource.RUSAGE_SELF)
db = sqlite3.connect(args.database, isolation_level=None)
db.execute(f"PRAGMA page_size = {args.page_size}")
db.execute("PRAGMA journal_mode = WAL")
db.execute(f"PRAGMA synchronous = {args.synchronous}")
# As `pushdeck replay` does: a checkpoint every 64 MiB of WAL.
db.execute(f"PRAGMA wal_autocheckpoint = {(64 << 20) // args.page_size}")
db.execute("CREATE TABLE chunk (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)")
with open(args.capture, "rb") as capture:
    while True:
        data = capture.read(args.chunk)
        if not data:
            break
        db.execute("BEGIN")
        db.execute("INSERT INTO chunk (bytes) VALUES (?)", (data,))
        db.execute("COMMIT")
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.close()
ended = resource.getrusage(resource.RUSAGE_SELF)
print(
    f"{time.monotonic() - started:.2f} {ended.ru_utime - usage.ru_utime:.2f} "
    f"{ended.ru_stime - usage.ru_stime:.2f} {os.path.getsize(args.database) / 1048576:.0f}"
)
