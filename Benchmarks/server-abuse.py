#!/usr/bin/env python3
"""Abuses a running `pushdeck serve` (h2c) and reports its memory (issue 7 §5).

Raw sockets and hand-built HTTP/2 frames (RFC 9113; HPACK literals without indexing, RFC 7541
§6.2.2), so nothing beyond Python's standard library is needed. Each round runs every attack;
the server's VmRSS and VmHWM (from /proc/PID/status), its thread count and open descriptors are
printed before, between and after, and a valid push must still get 200 after each attack.

    Benchmarks/server-abuse.py [--rounds N] [--binary .build/debug/pushdeck]
"""
import argparse
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, PRIORITY, RST, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW, CONTINUATION = range(10)
TOKEN = "ab" * 32


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def hpack_int(value, prefix_bits, first=0):
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([first | value])
    out = bytearray([first | limit])
    value -= limit
    while value >= 128:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def hpack_string(data):
    data = data if isinstance(data, bytes) else data.encode()
    return hpack_int(len(data), 7) + data


def literal(name, value):
    return b"\x00" + hpack_string(name) + hpack_string(value)


def request_block(path="/3/device/" + TOKEN, extra=()):
    fields = [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
              ("apns-topic", "com.example.app"), ("apns-push-type", "alert")] + list(extra)
    return b"".join(literal(n, v) for n, v in fields)


BODY = b'{"aps":{"alert":"abuse"}}'


def connect(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(PREFACE + frame(SETTINGS, 0, 0))
    return sock


def drain(sock, seconds=0.2):
    """Reads whatever the server sends for a while; returns the frames (type, flags, stream, payload)."""
    sock.settimeout(seconds)
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    frames = []
    while len(data) >= 9:
        length = int.from_bytes(data[:3], "big")
        if len(data) < 9 + length:
            break
        frames.append((data[3], data[4], int.from_bytes(data[5:9], "big") & 0x7FFFFFFF, data[9:9 + length]))
        data = data[9 + length:]
    return frames


def valid_push(port):
    """One valid push on a fresh connection: the :status of the answer (parsed from HPACK: 200 is index 8)."""
    sock = connect(port)
    sock.sendall(frame(SETTINGS, 1, 0) + frame(HEADERS, 4, 1, request_block()) + frame(DATA, 1, 1, BODY))
    deadline = time.time() + 120
    status = None
    while time.time() < deadline and status is None:
        for kind, flags, stream, payload in drain(sock, 0.5):
            if kind == HEADERS and stream == 1:
                status = 200 if payload[:1] == b"\x88" else payload[:8]
    sock.close()
    return status


def proc_status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "Threads"):
                fields[key] = value.strip()
    fields["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    return fields


# Attacks ------------------------------------------------------------------------------------------

def malformed_frames(port, count=2000):
    rng = random.Random(7)
    cases = [
        lambda: os.urandom(rng.randrange(1, 200)),                             # garbage after the preface
        lambda: frame(DATA, 0, 0, b"x" * 10),                                   # DATA on stream 0
        lambda: frame(HEADERS, 4, 2, request_block()),                         # even (server) stream id
        lambda: frame(SETTINGS, 0, 0, b"\x00\x04\xff\xff\xff\xff"),             # window over 2^31-1
        lambda: frame(SETTINGS, 0, 0, b"\x00" * 5),                             # length not a multiple of 6
        lambda: frame(PING, 0, 0, b"\x00" * 3),                                 # short PING
        lambda: frame(WINDOW, 0, 1, b"\x00\x00\x00\x00"),                       # zero increment
        lambda: frame(HEADERS, 4, 1, b"\xff\xff\xff\xff\xff\xff"),             # bad HPACK index
        lambda: frame(HEADERS, 4, 1, b"\x3f\xe1\xff\xff\x7f"),                  # huge table size update
        lambda: struct.pack(">I", 0xFFFFFF)[1:] + bytes([DATA, 0]) + b"\0\0\0\1" + b"x" * 100,  # over max frame size
        lambda: frame(CONTINUATION, 4, 1, b"\x82"),                             # CONTINUATION without HEADERS
        lambda: frame(HEADERS, 0x8 | 4, 1, b"\xff" + request_block()),          # padding longer than the frame
        lambda: frame(PRIORITY, 0, 1, b"\x00\x00\x00\x01\x10"),                 # stream depends on itself
        lambda: frame(HEADERS, 5, 1, literal(":method", "POST")),              # missing pseudo-headers
        lambda: frame(HEADERS, 5, 1, request_block(extra=[("Upper", "x")])),   # upper-case name
        lambda: frame(HEADERS, 4, 1, request_block(extra=[("content-length", "5")])) + frame(DATA, 1, 1, BODY),
        lambda: frame(RST, 0, 0, b"\0\0\0\0"),                                  # RST on stream 0
        lambda: frame(PUSH_PROMISE, 4, 1, b"\0\0\0\2"),                         # clients cannot push
        lambda: frame(99, 0xFF, 1, b"unknown"),                                 # unknown type (ignored)
    ]
    for index in range(count):
        try:
            sock = connect(port)
            sock.sendall(cases[index % len(cases)]())
            drain(sock, 0.01)
            sock.close()
        except OSError:
            pass


def oversized_headers(port, count=50):
    for index in range(count):
        try:
            sock = connect(port)
            if index % 3 == 0:
                # One 1 MiB header value across a HEADERS and 64 CONTINUATION frames.
                block = request_block(extra=[("x-big", "v" * (1 << 20))])
                pieces = [block[i:i + 16384] for i in range(0, len(block), 16384)]
                payload = frame(HEADERS, 0, 1, pieces[0])
                for position, piece in enumerate(pieces[1:]):
                    payload += frame(CONTINUATION, 4 if position == len(pieces) - 2 else 0, 1, piece)
            elif index % 3 == 1:
                # HPACK bomb: one 4 KiB header into the dynamic table, then referenced 4,000 times
                # (one byte each): 16 MB of headers from 8 kB on the wire.
                insert = b"\x40" + hpack_string("x-bomb") + hpack_string("b" * 4000)
                payload = frame(HEADERS, 4, 1, request_block() + insert + b"\xbe" * 4000)
            else:
                # 20,000 small headers.
                block = request_block(extra=[(f"x-{i}", "v") for i in range(20000)])
                pieces = [block[i:i + 16384] for i in range(0, len(block), 16384)]
                payload = frame(HEADERS, 0, 1, pieces[0])
                for position, piece in enumerate(pieces[1:]):
                    payload += frame(CONTINUATION, 4 if position == len(pieces) - 2 else 0, 1, piece)
            sock.sendall(payload)
            drain(sock, 0.05)
            sock.close()
        except OSError:
            pass


def many_streams(port, connections=100, streams=100, over_limit=10000):
    """10,000 streams held open at once (100 connections x 100 streams, each a request without its
    end), plus one connection that opens 10,000 streams by itself (over SETTINGS_MAX_CONCURRENT_STREAMS).
    Returns how the over-limit streams were answered."""
    socks = []
    for _ in range(connections):
        sock = connect(port)
        batch = b"".join(frame(HEADERS, 4, 2 * i + 1, request_block()) + frame(DATA, 0, 2 * i + 1, b'{"aps":')
                         for i in range(streams))
        sock.sendall(batch)
        socks.append(sock)
    greedy = connect(port)
    greedy.sendall(frame(SETTINGS, 1, 0))
    sent = 0
    for start in range(0, over_limit, 500):
        greedy.sendall(b"".join(frame(HEADERS, 4, 2 * i + 1, request_block()) for i in range(start, start + 500)))
        sent += 500
    answers = {}
    frames = []
    deadline = time.time() + 60
    while time.time() < deadline and not any(kind == GOAWAY for kind, _, _, _ in frames):
        frames += drain(greedy, 1)
    for kind, flags, stream, payload in frames:
        if kind == RST:
            code = int.from_bytes(payload[:4], "big")
            answers[f"RST_STREAM {code}"] = answers.get(f"RST_STREAM {code}", 0) + 1
        elif kind == GOAWAY:
            answers["GOAWAY (last stream, error)"] = (int.from_bytes(payload[:4], "big"),
                                                     int.from_bytes(payload[4:8], "big"))
    return socks + [greedy], answers


def slow_clients(port, count=200, seconds=6):
    """Clients that send their requests a few bytes at a time."""
    socks = []
    for _ in range(count):
        try:
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        except OSError:
            pass
    message = PREFACE + frame(SETTINGS, 0, 0) + frame(HEADERS, 4, 1, request_block()) + frame(DATA, 1, 1, BODY)
    start = time.time()
    position = 0
    while time.time() - start < seconds and position < len(message):
        for sock in socks:
            try:
                sock.sendall(message[position:position + 3])
            except OSError:
                pass
        position += 3
        time.sleep(0.2)
    return socks


def abrupt_disconnects(port, count=2000):
    for index in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            if index % 2:
                # RST instead of FIN.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            message = PREFACE + frame(SETTINGS, 0, 0) + frame(HEADERS, 4, 1, request_block()) + frame(DATA, 0, 1, b"{")
            sock.sendall(message[: random.Random(index).randrange(1, len(message))])
            sock.close()
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--binary", default=".build/debug/pushdeck")
    parser.add_argument("--port", type=int, default=28000 + os.getpid() % 1000)
    args = parser.parse_args()
    server = subprocess.Popen([args.binary, "serve", "--port", str(args.port), "--ephemeral"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", args.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        pid = server.pid

        def report(label):
            alive = server.poll() is None
            started = time.time()
            status = valid_push(args.port) if alive else None
            took = time.time() - started
            print(f"{label:<44} {proc_status(pid) if alive else 'DEAD'}  valid push: {status} in {took:.1f} s",
                  flush=True)
            if not alive or status != 200:
                print(server.stderr.read().decode(errors="replace")[-4000:])
                sys.exit(1)

        for _ in range(50):
            valid_push(args.port)
        report("after start and 50 valid pushes")
        for round_number in range(1, args.rounds + 1):
            started = time.time()
            malformed_frames(args.port)
            report(f"round {round_number}: 2,000 malformed-frame connections")
            oversized_headers(args.port)
            report(f"round {round_number}: 50 oversized header blocks")
            socks, answers = many_streams(args.port)
            report(f"round {round_number}: 10,000 open streams + 10,000 on one")
            print(f"    over-limit connection got: {answers}")
            for sock in socks:
                sock.close()
            slow = slow_clients(args.port)
            report(f"round {round_number}: 200 slow clients")
            for sock in slow:
                sock.close()
            abrupt_disconnects(args.port)
            report(f"round {round_number}: 2,000 abrupt disconnects")
            time.sleep(2)
            report(f"round {round_number} done in {time.time() - started:.0f} s, 2 s later")
        print("server-abuse: the server answered a valid push after every attack")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
