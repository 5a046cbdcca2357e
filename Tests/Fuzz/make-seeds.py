#!/usr/bin/env python3
"""Writes the seed corpora of the libFuzzer targets (see .ci/fuzz and docs/RELIABILITY.md).

Seeds come from ../shared/corpus (real payload files, when present) and the repository's own
Examples/ and themes/. Usage: make-seeds.py OUTPUT_DIR
"""
import hashlib
import json
import os
import struct
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Tests/Fuzz/ -> repository
out = sys.argv[1]
corpus = os.path.join(root, "..", "shared", "corpus", "files")


def payload_files():
    paths = []
    if os.path.isdir(corpus):
        paths += [os.path.join(corpus, name) for name in sorted(os.listdir(corpus))]
    examples = os.path.join(root, "Examples", "payloads")
    paths += [os.path.join(examples, name) for name in sorted(os.listdir(examples))]
    for path in paths:
        with open(path, "rb") as handle:
            yield handle.read()


def write(target, data):
    directory = os.path.join(out, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, hashlib.sha1(data).hexdigest()), "wb") as handle:
        handle.write(data)


def one_line(data):
    """A payload as one capture line, or None when it is not JSON."""
    try:
        return json.dumps(json.loads(data.decode("utf-8")), ensure_ascii=False)
    except (ValueError, UnicodeDecodeError):
        return None


# HPACK: literal header field without indexing, new name, no Huffman (RFC 7541 §6.2.2).
def hpack_string(text):
    data = text.encode("utf-8")
    if len(data) < 127:
        return bytes([len(data)]) + data
    length, rest = len(data) - 127, bytearray([127])
    while length >= 128:
        rest.append((length & 0x7F) | 0x80)
        length >>= 7
    rest.append(length)
    return bytes(rest) + data


def hpack(headers):
    return b"".join(b"\x00" + hpack_string(name) + hpack_string(value) for name, value in headers)


def frame(kind, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


HEADERS, DATA, SETTINGS, PING, RST, GOAWAY, WINDOW, CONTINUATION = 1, 0, 4, 6, 3, 7, 8, 9
token = "ab" * 32
count = 0
for index, data in enumerate(payload_files()):
    count += 1
    write("payload", data)
    headers = [("apns-topic", "com.example.app"), ("apns-push-type", "alert"), ("apns-priority", "10")]
    request = b"POST /3/device/" + token.encode() + b"\n"
    request += b"".join(f"{name}: {value}\n".encode() for name, value in headers) + b"\n" + data
    write("apnsrequest", request)
    if index % 8 == 0:
        # Provider-token claims: the fuzzer signs a token issued at this time.
        iat = ["1795000000", "1e20", "-1", "9223372036854775808", "1794996400.5"][index // 8 % 5]
        write("apnsrequest", request.replace(b"\n\n", f"\nx-fuzz-iat: {iat}\n\n".encode(), 1))
    line = one_line(data)
    if line is not None:
        envelope = f'{{"at": {1795000000 + index}, "bundle": "com.example.app", "token": "{token}", '
        envelope += f'"headers": {{"apns-push-type": "alert"}}, "payload": {line}}}\n'
        write("capture", bytes([index % 64]) + (envelope * 3).encode("utf-8"))
    if index % 4 == 0:
        pseudo = [(":method", "POST"), (":scheme", "http"), (":path", "/3/device/" + token),
                  (":authority", "localhost")]
        block = hpack(pseudo + headers + [("content-length", str(len(data)))])
        stream = 1 + 2 * (index % 3)
        frames = frame(HEADERS, 0x4, stream, block) + frame(DATA, 0x1, stream, data)
        write("http2", frames)
        # The same request with its header block split into a CONTINUATION frame.
        half = len(block) // 2
        write("http2", frame(HEADERS, 0x0, stream, block[:half]) + frame(CONTINUATION, 0x4, stream, block[half:])
              + frame(DATA, 0x1, stream, data))
# Control frames, a GET, a reset and a GOAWAY.
write("http2", frame(PING, 0, 0, b"\0" * 8) + frame(WINDOW, 0, 0, struct.pack(">I", 1000))
      + frame(SETTINGS, 0x1, 0, b""))
get = hpack([(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "x")])
write("http2", frame(HEADERS, 0x5, 1, get) + frame(RST, 0, 1, struct.pack(">I", 8))
      + frame(GOAWAY, 0, 0, struct.pack(">II", 1, 0)))
for name in sorted(os.listdir(root + "/Examples")):
    if name.endswith(".yaml"):
        with open(os.path.join(root, "Examples", name), "rb") as handle:
            write("scenario", handle.read())
for name in sorted(os.listdir(root + "/themes")):
    if name.endswith(".yaml"):
        with open(os.path.join(root, "themes", name), "rb") as handle:
            write("theme", handle.read())
print(f"seeds: {count} payload files", file=sys.stderr)
