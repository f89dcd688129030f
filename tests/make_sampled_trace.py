#!/usr/bin/env python3
"""Write a version 3 raw trace (src/trace/trace_format.h) with zones and
samples, as the recorder would, so that the reports can be tested without
sampling anything. Tick rate 1e9 (ticks are ns), pid 4242, sampling at
10 kHz (a sample every 100,000 ticks) for 100 ms on two threads:

  thread 7 "main":   zone "outer" [500000, 99500000) around zone "inner"
                     [20000000, 80000000); its 1000 samples at
                     100000 * (i + 1), i = 0..999: 4 of every 5 in HOT,
                     the fifth in COLD, both called from WORK from MAIN
                     (stack hot,work,main leaf first).
  thread 8 "worker": no zones; 1000 samples at 100000 * (i + 1) + 50000:
                     even i in HOT, odd i in COLD, both called from WORKER
                     directly. Three are odd: i = 10 has no stack
                     (PROF_TF_NO_STACK), i = 11 is flagged truncated, i = 12
                     has weight 3. From 50 ms on (i >= 500) a MAPS2 record
                     maps PLUGIN, and every odd sample is PLUGIN called by
                     COLD (stack plugin,cold,worker).

So thread 7 is 800/200 HOT/COLD, 600 of its samples inside "inner" (480
HOT); thread 8 has 499 HOT samples with a stack (weight 501, with i = 12)
and 500 odd ones: 250 in COLD before 50 ms, 250 in PLUGIN after. The SAMPLING chunk says: perf,
task-clock, 10000 Hz asked, 2000 samples written, 5 lost, 1 truncated,
200 ms of CPU counted (achieved 10000 Hz), weight 2002.

The functions are fake modules by default: HOT, COLD, WORK, MAIN, WORKER
at 0x1000, 0x2000, ... 0x5000 (0x100 bytes each) in /nonexistent/libfake.so
mapped at 0x7f0000000000, PLUGIN at 0x1000 of /nonexistent/libplugin.so
at 0x7f1000000000: no file, so the reports name them module+0xoffset.
With --binary=ELF --names=hot,cold,work,main,worker,plugin the addresses
lie inside those functions of that binary (symbol table needed), which is
mapped whole at 0x555555554000; PLUGIN stays in the fake plugin module
unless named.

With --repeat=N the 100 ms of samples (not the zones) come N times, each
copy 100.1 ms after the one before (N = 6000: a 10-minute trace of 12
million samples, about 100 MB, for p-sample-read.sh); the SAMPLING chunk
counts N times the samples.

With --samples-first=1 thread 7's zone events come after all the samples
(the end of the file) instead of before them: a reader names the zones of
samples it read before their zones' events.

Usage: make_sampled_trace.py [--binary=ELF --names=A,B,C,D,E[,F]]
                             [--repeat=N] [--samples-first=1] OUT.ptrace"""
import struct
import sys

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
from ptrace_v1 import BEGIN, END, chunk, header, strings  # noqa: E402

EVENTS2, LABELS, SAMPLES, STACKS, SAMPLING, MAPS, MAPS2, PROCESS, THREAD, \
    CH_END = 7, 8, 9, 10, 11, 4, 12, 13, 3, 6
NO_STACK = (1 << 21) - 1
TRUNCATED, WEIGHTED = 1, 4
FAKE_BASE, PLUGIN_BASE, BIN_BASE = 0x7F0000000000, 0x7F1000000000, 0x555555554000
ROLES = ("hot", "cold", "work", "main", "worker", "plugin")
PERIOD = 100000


def elf_functions(path):
    """name: (file offset, size) of the FUNC symbols of an ELF64 file."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit("make_sampled_trace.py: %s: not an ELF64 file" % path)
    phoff, shoff = struct.unpack_from("<QQ", data, 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 54)
    loads = []
    for i in range(phnum):
        ptype, _, off, vaddr, _, filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize)
        if ptype == 1:
            loads.append((vaddr, off, filesz))
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            for i in range(shnum)]
    out = {}
    for s in secs:
        if s[1] != 2:                              # SHT_SYMTAB
            continue
        strtab = secs[s[6]]
        for k in range(s[5] // 24):
            name, info, _, _, value, size = struct.unpack_from(
                "<IBBHQQ", data, s[4] + 24 * k)
            if info & 0xF != 2 or size == 0:       # STT_FUNC
                continue
            end = data.index(b"\0", strtab[4] + name)
            label = data[strtab[4] + name:end].decode()
            for vaddr, off, filesz in loads:
                if vaddr <= value < vaddr + filesz:
                    out[label] = (value - vaddr + off, size)
    return out


def functions(args):
    """role: (leaf address, return address) for every role."""
    fake = {r: (FAKE_BASE + 0x1000 * (i + 1), 0x100) for i, r in enumerate(ROLES)}
    fake["plugin"] = (PLUGIN_BASE + 0x1000, 0x100)
    if "binary" in args:
        found = elf_functions(args["binary"])
        names = args.get("names", "").split(",")
        if len(names) < 5:
            sys.exit("make_sampled_trace.py: --binary needs --names=A,B,C,D,E[,F]")
        for role, name in zip(ROLES, names):
            if name not in found:
                sys.exit("make_sampled_trace.py: %s: no function %s" %
                         (args["binary"], name))
            off, size = found[name]
            fake[role] = (BIN_BASE + off, size)
    return {r: (a + min(0x10, s // 2), a + max(1, s // 2)) for r, (a, s) in fake.items()}


def maps_text(args):
    lines = ["%x-%x r-xp 00000000 00:00 0 /nonexistent/libfake.so" %
             (FAKE_BASE, FAKE_BASE + 0x100000)]
    if "binary" in args:
        lines.append("%x-%x r-xp 00000000 08:01 1 %s" %
                     (BIN_BASE, BIN_BASE + 0x10000000, args["binary"]))
    return pad("\n".join(lines) + "\n")


def pad(text):
    b = text.encode() if isinstance(text, str) else text
    return b + b"\0" * (-len(b) % 8 or 8)


def events2(tid, ev):
    """EVENTS2 of tid: ev is (ticks, type, label id), in time order."""
    words, prev = [ev[0][0]], ev[0][0]
    for t, typ, lid in ev:
        words.append((t - prev) << 24 | lid << 3 | typ)
        prev = t
    return chunk(EVENTS2, tid, struct.pack("<%dQ" % len(words), *words))


def stacks(first, chains, pid=0):
    body = b""
    for i, ips in enumerate(chains):
        body += struct.pack("<II%dQ" % len(ips), first + i, len(ips), *ips)
    return chunk(STACKS, pid, body)


def samples(tid, ss, per_chunk=256):
    """SAMPLES chunks of tid: ss is (ticks, stack, flags, weight)."""
    out = b""
    for k in range(0, len(ss), per_chunk):
        part = ss[k:k + per_chunk]
        words, prev = [part[0][0]], part[0][0]
        for t, st, fl, w in part:
            words.append((t - prev) << 24 | st << 3 | fl)
            if fl & WEIGHTED:
                words.append(w)
            prev = t
        out += chunk(SAMPLES, tid, struct.pack("<%dQ" % len(words), *words))
    return out


def shifted(packed, shift):
    """SAMPLES chunks (as samples() packs them) moved later by shift ticks:
    only each chunk's first word, its base, changes."""
    out, at = [], 0
    while at < len(packed):
        n = struct.unpack_from("<I", packed, at + 8)[0]
        base = struct.unpack_from("<Q", packed, at + 16)[0]
        out.append(packed[at:at + 16] + struct.pack("<Q", base + shift)
                   + packed[at + 24:at + 16 + n])
        at += 16 + n
    return b"".join(out)


def process(tid, ticks, pid, ppid, kind, name):
    return chunk(PROCESS, tid, struct.pack("<QIIII", ticks, pid, ppid, kind, 0) + pad(name))


def sampling(n, ticks_start, ticks_stop, reps=1):
    kv = [(1, 1), (2, 1), (3, 10000), (5, 4), (6, 65536), (7, 127),
          (8, ticks_start), (9, ticks_stop), (16, n * reps), (17, 5), (18, 1),
          (19, 0), (20, 200000000 * reps), (21, (n + 2) * reps)]
    return chunk(SAMPLING, 0, b"".join(struct.pack("<QQ", k, v) for k, v in kv))


def thread_samples():
    main, worker = [], []
    for i in range(1000):
        main.append((PERIOD * (i + 1), 1 if i % 5 == 4 else 0, 0, 1))
        st = 2 if i % 2 == 0 else (4 if i >= 500 else 3)
        fl, w = 0, 1
        if i == 10:
            st = NO_STACK
        elif i == 11:
            fl = TRUNCATED
        elif i == 12:
            fl, w = WEIGHTED, 3
        worker.append((PERIOD * (i + 1) + 50000, st, fl, w))
    return main, worker


def main():
    args, out = {}, None
    for a in sys.argv[1:]:
        if a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            args[k] = v
        else:
            out = a
    if out is None:
        sys.exit(__doc__)
    f = functions(args)
    leaf = {r: f[r][0] for r in f}
    ret = {r: f[r][1] for r in f}
    body = chunk(MAPS, 0, maps_text(args))
    body += process(4242, 0, 4242, 1, 1, "/nonexistent/sampled")
    for tid, name in ((7, b"main"), (8, b"worker")):
        body += chunk(THREAD, tid, pad(name))
        body += process(tid, 0, 4242, 0, 4, name)
    body += strings({0x1000: b"outer", 0x2000: b"inner"})
    body += chunk(LABELS, 7, struct.pack("<IIQQ", 0, 2, 0x1000, 0x2000))
    zones = events2(7, [(500000, BEGIN, 0), (20000000, BEGIN, 1),
                        (80000000, END, 1), (99500000, END, 0)])
    late = args.get("samples-first") == "1"
    if not late:
        body += zones
    body += stacks(0, [[leaf["hot"], ret["work"], ret["main"]],
                       [leaf["cold"], ret["work"], ret["main"]],
                       [leaf["hot"], ret["worker"]],
                       [leaf["cold"], ret["worker"]]])
    m, w = thread_samples()
    body += samples(7, m) + samples(8, w[:500])
    plug = "%x-%x r-xp 00000000 00:00 0 /nonexistent/libplugin.so\n" % (
        PLUGIN_BASE, PLUGIN_BASE + 0x10000)
    body += chunk(MAPS2, 0, struct.pack("<QII", 50000000, 0, 0) + pad(plug))
    body += stacks(4, [[leaf["plugin"], ret["cold"], ret["worker"]]])
    body += samples(8, w[500:])
    reps, block = int(args.get("repeat", "1")), 100100000
    with open(out, "wb") as fo:
        fo.write(header(1e9, 3) + body)
        if reps > 1:
            again = samples(7, m) + samples(8, w)
            for r in range(1, reps):
                fo.write(shifted(again, r * block))
        if late:
            fo.write(zones)
        end = (reps - 1) * block + 100200000
        fo.write(sampling(2000, 0, (reps - 1) * block + 100100000, reps)
                 + process(4242, end, 4242, 1, 3, "/nonexistent/sampled")
                 + chunk(CH_END, 0, struct.pack("<QQQ", end, 0, 0)))


main()
