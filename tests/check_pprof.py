#!/usr/bin/env python3
"""prof-trace --pprof, decoded by this script's own protobuf reader (gzip,
then pprof's proto/profile.proto field numbers): of make_sampled_trace.py's
trace inside prof-trace's own functions, the sample types
[samples/count, cpu/nanoseconds] and period, string_table[0] == "", every
location's mapping (an address inside it; none only for [unknown] and [no
stack]), the mapping of the executable first with its build-id, each
function's self samples equal to --csv's, the zone labels (600 samples in
"inner"), --format=pprof -o the same bytes. Where go is installed, go tool
pprof -top lists the same top functions in the same order, -traces the
stacks, -tagfocus=zone=inner keeps the zone's samples. With SAMPLE-TARGET,
a trace prof-trace record took of it (skipped where perf events are
refused): its hot() on top (hot.constprop.0 and the like too), every address inside its mapping. Bad input:
a missing or corrupt trace, an unwritable output: a message, exit 1, no
crash, no file; a trace without samples: an empty profile, said.

Usage: check_pprof.py PROF-TRACE SCRIPT-DIR [SAMPLE-TARGET]"""
import gzip
import os
import shutil
import subprocess
import sys
import tempfile

pt, here = os.path.abspath(sys.argv[1]), sys.argv[2]
target = sys.argv[3] if len(sys.argv) > 3 else None
tmp = tempfile.mkdtemp()
fails = 0


def bad(msg):
    global fails
    fails += 1
    print("FAIL: " + msg)


def ok(msg):
    print("ok   " + msg)


def varint(buf, i):
    """The varint at buf[i:], and the index after it."""
    v, shift = 0, 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def fields(buf):
    """[(field, wire type, value)] of one message: ints, or bytes."""
    out, i = [], 0
    while i < len(buf):
        key, i = varint(buf, i)
        f, w = key >> 3, key & 7
        if w == 0:
            v, i = varint(buf, i)
            out.append((f, w, v))
        elif w == 2:
            n, i = varint(buf, i)
            out.append((f, w, bytes(buf[i:i + n])))
            i += n
        elif w in (1, 5):
            n = 8 if w == 1 else 4
            out.append((f, w, int.from_bytes(buf[i:i + n], "little")))
            i += n
        else:
            raise ValueError("wire type %d" % w)
    return out


def ints(msg, f):
    """The values of repeated integer field f, packed or not."""
    vals = []
    for g, w, v in msg:
        if g != f:
            continue
        if w == 2:
            j = 0
            while j < len(v):
                x, j = varint(v, j)
                vals.append(x)
        else:
            vals.append(v)
    return vals


def one(msg, f, default=0):
    v = ints(msg, f)
    return v[-1] if v else default


def subs(msg, f):
    return [fields(v) for g, w, v in msg if g == f and w == 2]


def decode(path):
    """The profile as dicts, and checks of its structure."""
    data = gzip.decompress(open(path, "rb").read())
    prof = fields(data)
    st = [v.decode() for g, w, v in prof if g == 6]
    p = {"strings": st, "period": one(prof, 12),
         "types": [(st[one(m, 1)], st[one(m, 2)]) for m in subs(prof, 1)],
         "period_type": [(st[one(m, 1)], st[one(m, 2)]) for m in subs(prof, 11)]}
    p["mappings"] = {one(m, 1): {"start": one(m, 2), "limit": one(m, 3),
                                 "offset": one(m, 4), "file": st[one(m, 5)],
                                 "build_id": st[one(m, 6)]}
                     for m in subs(prof, 3)}
    p["mapping_order"] = [one(m, 1) for m in subs(prof, 3)]
    p["functions"] = {one(m, 1): st[one(m, 2)] for m in subs(prof, 5)}
    p["locations"] = {one(m, 1): {"mapping": one(m, 2), "address": one(m, 3),
                                  "fn": [one(line, 1) for line in subs(m, 4)]}
                      for m in subs(prof, 4)}
    p["samples"] = [{"locs": ints(m, 1), "values": ints(m, 2),
                     "labels": [(st[one(lb, 1)], st[one(lb, 2)]) for lb in subs(m, 3)]}
                    for m in subs(prof, 2)]
    return p


def self_counts(p):
    """Function name: self samples (the leaf location's function)."""
    out = {}
    for s in p["samples"]:
        leaf = p["locations"][s["locs"][0]]
        name = p["functions"][leaf["fn"][0]]
        out[name] = out.get(name, 0) + s["values"][0]
    return out


def check_structure(p, what):
    if p["strings"][:1] != [""]:
        bad("%s: string_table[0] is %r" % (what, p["strings"][:1]))
    if p["types"] != [("samples", "count"), ("cpu", "nanoseconds")] \
            or p["period_type"] != [("cpu", "nanoseconds")]:
        bad("%s: sample types %s, period type %s" % (what, p["types"], p["period_type"]))
    wrong = []
    for lid, loc in p["locations"].items():
        name = p["functions"].get(loc["fn"][0] if loc["fn"] else -1, "?")
        m = p["mappings"].get(loc["mapping"])
        if loc["mapping"] == 0:
            if not (name.startswith("[unknown]") or name == "[no stack]"):
                wrong.append("%d %s: no mapping" % (lid, name))
        elif m is None or not m["start"] <= loc["address"] < m["limit"]:
            wrong.append("%d %s: 0x%x outside mapping %d" % (lid, name, loc["address"], loc["mapping"]))
    if wrong or not p["locations"]:
        bad("%s: locations: %s" % (what, "; ".join(wrong[:5]) or "none"))
    elif any(len(s["values"]) != 2
             or abs(s["values"][1] - s["values"][0] * p["period"]) > s["values"][0]
             for s in p["samples"]):
        bad("%s: sample values not [count, count * period]" % what)
    else:
        ok("%s: types, string 0, %d locations each in its mapping, values"
           % (what, len(p["locations"])))


def run(args, **kw):
    return subprocess.run([pt] + args, capture_output=True, text=True, **kw)


def csv_self(trace):
    out = run(["--csv", trace]).stdout.splitlines()[1:]
    rows = [line.rsplit(",", 6) for line in out]
    return {r[0]: int(r[1]) for r in rows if int(r[1]) > 0}


def go_checks(gz, top, what):
    if shutil.which("go") is None:
        print("skip %s: go tool pprof: no go here" % what)
        return
    out = subprocess.run(["go", "tool", "pprof", "-top", "-nodefraction=0", gz],
                         capture_output=True, text=True)
    rows = [line.split()[-1] for line in out.stdout.splitlines()
            if line.strip() and line.split()[0][:1].isdigit() and "%" in line]
    flat = [r for r in rows][:len(top)]
    if out.returncode != 0 or flat != top:
        bad("%s: go tool pprof -top: %s, ours %s\n%s" % (what, flat, top, out.stderr))
    else:
        ok("%s: go tool pprof -top: %s" % (what, " ".join(flat)))
    return out


def profile_of(trace, what):
    """--pprof of trace, decoded and checked: (gz, profile, pprof's self
    samples, --csv's), or None after a failure."""
    gz = trace[:-len(".ptrace")] + ".pb.gz"
    r = run(["--pprof", gz, trace])
    if r.returncode != 0:
        return bad("%s: --pprof: exit %d: %s" % (what, r.returncode, r.stderr))
    p = decode(gz)
    check_structure(p, what)
    return gz, p, self_counts(p), csv_self(trace)


def check_synthetic():
    trace = os.path.join(tmp, "s.ptrace")
    names = "cmp_top,cmp_key,collect,add_binary,apply"
    subprocess.run([sys.executable, os.path.join(here, "make_sampled_trace.py"),
                    "--binary=" + pt, "--names=" + names, trace], check=True)
    got = profile_of(trace, "synthetic")
    if got is None:
        return
    gz, p, mine, ours = got
    if mine != ours:
        bad("self samples: pprof %s, --csv %s" % (mine, ours))
    else:
        ok("self samples per function as --csv: %s" % sorted(mine.items()))
    first = p["mappings"][p["mapping_order"][0]]
    if first["file"] != os.path.realpath(pt) and first["file"] != pt \
            or len(first["build_id"]) < 16 or p["period"] != 100000:
        bad("mapping 1 %s, period %d" % (first, p["period"]))
    else:
        ok("mapping 1: the executable, build-id %s; period 100000 ns" % first["build_id"])
    inner = sum(s["values"][0] for s in p["samples"] if ("zone", "inner") in s["labels"])
    if inner != 600:
        bad("zone=inner: %d samples, not 600" % inner)
    else:
        ok("zone=inner labels 600 samples")
    gz2 = os.path.join(tmp, "f.pb.gz")
    run(["--format=pprof", "-o", gz2, trace])
    if open(gz, "rb").read() != open(gz2, "rb").read():
        bad("--format=pprof -o differs from --pprof")
    top = [n for n, _ in sorted(ours.items(), key=lambda kv: (-kv[1], kv[0]))][:3]
    if go_checks(gz, top, "synthetic") is not None:
        tr = subprocess.run(["go", "tool", "pprof", "-traces", gz],
                            capture_output=True, text=True).stdout
        focus = subprocess.run(["go", "tool", "pprof", "-top", "-tagfocus=zone=inner", gz],
                               capture_output=True, text=True).stdout
        if "cmp_top\n             collect\n             add_binary" not in tr:
            bad("go tool pprof -traces:\n" + tr)
        elif "60ms" not in focus or "cmp_top" not in focus:
            bad("go tool pprof -tagfocus=zone=inner:\n" + focus)
        else:
            ok("go tool pprof -traces: cmp_top <- collect <- add_binary; -tagfocus: 60ms")


def check_recorded():
    trace = os.path.join(tmp, "r.ptrace")
    r = run(["record", "--hz=997", "-o", trace, "--", target, "0.4"])
    if "perf events refused" in r.stderr:
        print("skip recorded: perf events refused")
        return
    got = profile_of(trace, "recorded")
    if got is None:
        return
    gz, p, mine, ours = got
    top = max(mine, key=mine.get) if mine else ""
    if mine != ours or not top.startswith("hot"):
        bad("recorded: top %s; pprof %s, --csv %s" % (top, mine, ours))
    else:
        ok("recorded: hot() on top, self samples as --csv")
    go_checks(gz, [n for n, _ in sorted(ours.items(), key=lambda kv: (-kv[1], kv[0]))][:2],
              "recorded")


def check_bad_input():
    junk = os.path.join(tmp, "junk.ptrace")
    with open(junk, "wb") as f:
        f.write(b"\x7fELF not a trace" * 100)
    cases = [("missing", ["--pprof", os.path.join(tmp, "m.pb.gz"), os.path.join(tmp, "none")],
              os.path.join(tmp, "m.pb.gz")),
             ("corrupt", ["--pprof", os.path.join(tmp, "c.pb.gz"), junk],
              os.path.join(tmp, "c.pb.gz")),
             ("unwritable", ["--pprof", os.path.join(tmp, "no", "dir", "u.pb.gz"),
                             os.path.join(tmp, "s.ptrace")], None)]
    zones = os.path.join(tmp, "z.ptrace")
    subprocess.run([sys.executable, os.path.join(here, "make_nested_trace.py"), zones],
                   check=True)
    r = run(["--pprof", os.path.join(tmp, "z.pb.gz"), zones])
    if r.returncode != 0 or "holds no samples" not in r.stderr \
            or decode(os.path.join(tmp, "z.pb.gz"))["samples"]:
        bad("no samples: exit %d, %r" % (r.returncode, r.stderr))
    else:
        ok("a trace without samples: an empty profile, said")
    for what, args, out in cases:
        r = run(args)
        if r.returncode != 1 or "prof" not in r.stderr or "Traceback" in r.stderr \
                or (out is not None and os.path.exists(out)):
            bad("%s: exit %d, %r" % (what, r.returncode, r.stderr))
        else:
            ok("%s: exit 1: %s" % (what, r.stderr.strip().splitlines()[-1]))


try:
    check_synthetic()
    if target:
        check_recorded()
    check_bad_input()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("check_pprof: %s" % ("%d failed" % fails if fails else "all passed"))
sys.exit(1 if fails else 0)
