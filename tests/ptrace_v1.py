"""Raw trace files (src/trace_format.h, version 1) written by hand, for the
Python tests: the header, chunks, a STRINGS chunk of labels, version 1
events and the END chunk. One copy, so that a change of the format is made
once for every script that writes traces."""
import struct

CH_EVENTS, CH_STRINGS, CH_THREAD_NAME, CH_END = 1, 2, 3, 6   # chunk types
BEGIN, END = 0, 1                                           # event types


def header(rate, version=1):
    """The 64-byte file header: pid 4242, tick rate rate per second."""
    return struct.pack("<8sIIIIdQQQQ", b"PTRACE01", 0x01020304, version, 64,
                       4242, rate, 0, 0, 0, 0)


def chunk(ctype, tid, payload):
    return struct.pack("<IIII", 0x4B435450, ctype, len(payload), tid) + payload


def strings(labels):
    """A STRINGS chunk: every key: label of labels, each padded to 8 bytes."""
    return chunk(CH_STRINGS, 0, b"".join(
        struct.pack("<QII", k, len(s), 0) + s + b"\0" * (-len(s) % 8)
        for k, s in labels.items()))


def events(tid, ev):
    """An EVENTS chunk of thread tid: ev is (ticks, BEGIN or END, key)."""
    return chunk(CH_EVENTS, tid, b"".join(struct.pack("<QQ", t << 3 | typ, key)
                                       for t, typ, key in ev))


def end_chunk(ticks):
    """The END chunk: the trace ends at ticks, no signal."""
    return chunk(CH_END, 0, struct.pack("<QQQ", ticks, 0, 0))
