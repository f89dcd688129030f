#!/usr/bin/env python3
"""prof-trace --pprof's pieces (tests/test_trace_gzip.c): its gzip output
decompressed by Python's gzip (which checks the CRC-32 and the size), the
trailer's CRC-32 against zlib's, for empty input, a byte, text, 100 KiB
of random bytes and 300 KiB of repeats (more than 64 KiB, matches at
distances up to 32 KiB: compressed to under a fifth); and the protobuf
encodings of varints and lengths at their byte-count edges, against this
script's encoder.

Usage: check_gzip.py TEST_TRACE_GZIP"""
import gzip
import random
import struct
import subprocess
import sys
import zlib

prog = sys.argv[1]
fails = 0


def bad(msg):
    global fails
    fails += 1
    print("FAIL: " + msg)


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


rng = random.Random(39)
words = b" ".join(rng.choice([b"sample", b"location", b"mapping", b"zone",
                              b"function"]) for _ in range(5000))
cases = {
    "empty": b"",
    "one byte": b"a",
    "text": words,
    "random 100 KiB": bytes(rng.randrange(256) for _ in range(100 * 1024)),
    "repeats 300 KiB": b"".join(bytes([i % 251]) * (i % 300 + 1) + words[i % 997:]
                                for i in range(1, 40))[:300 * 1024],
}
for name, data in cases.items():
    z = subprocess.run([prog, "gzip"], input=data, capture_output=True).stdout
    try:
        back = gzip.decompress(z)
    except Exception as e:  # noqa: BLE001: any failure is the finding
        bad("%s: gzip.decompress: %s" % (name, e))
        continue
    crc, size = struct.unpack("<II", z[-8:])
    if back != data:
        bad("%s: round trip differs" % name)
    elif crc != zlib.crc32(data) or size != len(data) % (1 << 32):
        bad("%s: trailer %08x %d" % (name, crc, size))
    elif z[:4] != b"\x1f\x8b\x08\x00":
        bad("%s: header %s" % (name, z[:4].hex()))
    else:
        print("ok: %s: %d -> %d bytes" % (name, len(data), len(z)))
rep = cases["repeats 300 KiB"]
if len(rep) > 65536 and len(subprocess.run([prog, "gzip"], input=rep,
                                           capture_output=True).stdout) * 5 > len(rep):
    bad("repeats: not compressed to a fifth")

want = []
for v in (0, 1, 127, 128, 16383, 16384, 2097151, 2097152, 2**32 - 1, 2**32,
          2**63, 2**64 - 1, 2**64 - 1, 2**64 - 2):
    want.append("uint %d %s" % (v, (b"\x08" + varint(v)).hex()))
for n in (0, 127, 128):
    want.append("bytes %d %s" % (n, (varint(15 << 3 | 2) + varint(n) + b"x" * n).hex()))
want.append("string16 " + (varint(16 << 3 | 2) + b"\x00").hex())
inner = b"\x10" + varint(300)
want.append("nest " + (b"\x1a" + varint(len(inner)) + inner).hex())
out = subprocess.run([prog, "varint"], capture_output=True, text=True)
got = out.stdout.splitlines()
if out.returncode != 0 or got != want:
    bad("varint encodings:\n" + "\n".join("  got  %s\n  want %s" % (g, w)
                                          for g, w in zip(got, want) if g != w))
else:
    print("ok: %d protobuf encodings" % len(want))
print("check_gzip: %s" % ("%d failed" % fails if fails else "all passed"))
sys.exit(1 if fails else 0)
