#!/bin/sh
# prof-run's exports beside the installed hyperfine's, field by field: the
# same commands, the same options (hyperfine's short ones), then the JSON
# keys, their order, types and lengths, the commands, parameters and exit
# codes; the CSV header and columns; the form of the markdown, AsciiDoc
# and org-mode tables with every number replaced by N. Never the timings.
# Skips (77) without hyperfine or python3; CI installs both, and there a
# missing one is a failure.
# Usage: check_hyperfine.sh PROF_RUN
set -u
tool=$1
. "$(dirname "$0")/check_lib.sh"
cd "$tmp" || exit 1
for need in hyperfine python3; do
    if ! command -v "$need" >/dev/null 2>&1; then
        echo "$need not installed: skipped"
        [ "${CI:-}" = true ] && exit 1     # CI installs it
        exit 77
    fi
done
echo "$(hyperfine --version)"

# the same words for both: -N, -w, -r, -L twice, -u; the commands vary
# fastest, then the first list; 'sleep 0.001' is plainly the fastest
set -- -N -w 1 -r 3 -L a 0,1 -L b 1,5 'sleep 0.0{a}{b}' 'sleep 0.1{a}{b}'
exports() {
    echo --export-json "$1.json" --export-csv "$1.csv" \
        --export-markdown "$1.md" --export-asciidoc "$1.adoc" \
        --export-orgmode "$1.org"
}
# shellcheck disable=SC2046
hyperfine --style=basic $(exports h) "$@" >h.out 2>&1 \
    || { bad "hyperfine failed"; cat h.out; }
# shellcheck disable=SC2046
"$tool" --style=basic $(exports p) "$@" >p.out 2>&1 \
    || { bad "prof-run failed"; cat p.out; }
grep '^Benchmark' h.out >h.heads
grep '^Benchmark' p.out >p.heads
cmp -s h.heads p.heads && ok "the same commands in the same order" \
    || { bad "the order of the commands:"; paste h.heads p.heads; }

python3 - h p <<'EOF' || bad "exports against hyperfine's (above)"
import csv, json, re, sys
h, p = sys.argv[1], sys.argv[2]
bad = []

def kind(v):
    return {dict: "object", list: "array", str: "string", bool: "bool",
            type(None): "null", int: "number", float: "number"}[type(v)]

hj, pj = json.load(open(h + ".json")), json.load(open(p + ".json"))
missing = [k for k in hj if k not in pj]
if missing:
    bad.append("top-level keys missing: %s" % missing)
hr, pr = hj["results"], pj["results"]
if len(hr) != len(pr):
    bad.append("%d results, hyperfine %d" % (len(pr), len(hr)))
for a, b in zip(hr, pr):
    keys = [k for k in a]
    if [k for k in b if k in a] != keys:
        bad.append("%s: keys %s, hyperfine's %s" % (b["command"], list(b), keys))
    for k in keys:
        if k not in b:
            continue
        va, vb = a[k], b[k]
        # stddev is null for one run only; a number both times here
        if kind(va) != kind(vb):
            bad.append("%s: %s is %s, hyperfine's %s" % (b["command"], k,
                       kind(vb), kind(va)))
        elif kind(va) == "array" and len(va) != len(vb):
            bad.append("%s: %d %s, hyperfine %d" % (b["command"], len(vb), k,
                       len(va)))
        elif k in ("command", "parameters", "exit_codes") and va != vb:
            bad.append("%s: %r, hyperfine %r" % (k, vb, va))
    for k in ("memory_usage_byte",):    # hyperfine 1.18 on: bytes per run
        if k not in b or len(b[k]) != len(b["times"]) \
                or not all(isinstance(x, int) and x > 0 for x in b[k]):
            bad.append("%s: %r" % (k, b.get(k)))

hc = list(csv.reader(open(h + ".csv")))
pc = list(csv.reader(open(p + ".csv")))
if hc[0] != pc[0]:
    bad.append("csv header %s, hyperfine's %s" % (pc[0], hc[0]))
if len(hc) != len(pc):
    bad.append("csv: %d rows, hyperfine %d" % (len(pc), len(hc)))
for a, b in zip(hc[1:], pc[1:]):
    if a[0] != b[0] or a[8:] != b[8:] or len(a) != len(b):
        bad.append("csv row %s, hyperfine's %s" % (b, a))
    try:
        [float(x) for x in b[1:8]]
    except ValueError:
        bad.append("csv: not numbers: %s" % b)

# A table's lines, every number N; the relative cells (the last of each
# row) read "N ± N" but for the fastest command's, "N": which command is
# the fastest is the machine's business, so they are counted, then read N
def form(path, ext):
    text = open(path, encoding="utf-8").read()
    lines = re.sub(r"\d+(\.\d+)?", "N", text).splitlines()
    bare = 0
    for i, line in enumerate(lines):
        if ext == "adoc" and i >= 4 and lines[i - 4].startswith("| `"):
            bare += line.strip() == "| N"
            lines[i] = line.replace("N ± N", "N")
        elif ext != "adoc" and line.startswith(("| `", "| =")):
            cells = line.split("|")
            bare += cells[-2].strip() == "N"
            cells[-2] = cells[-2].replace("N ± N", "N")
            lines[i] = "|".join(cells)
    return lines, bare

for ext in ("md", "adoc", "org"):
    (a, na), (b, nb) = form(h + "." + ext, ext), form(p + "." + ext, ext)
    if nb != 1 or na != 1:
        bad.append("%s: %d rows without a ± in the relative column "
                   "(hyperfine: %d), not 1" % (ext, nb, na))
    if a != b:
        bad.append("%s: the tables differ in form:\n  %s\nhyperfine's:\n  %s"
                   % (ext, "\n  ".join(b), "\n  ".join(a)))
for line in bad:
    print("FAIL: " + line)
if not bad:
    print("ok   JSON keys, order, types; CSV columns; markdown, AsciiDoc, "
          "org-mode tables: as hyperfine's")
sys.exit(1 if bad else 0)
EOF

# one run: hyperfine's stddev null and no ± in its tables, prof-run's too
hyperfine -N -r 1 --export-json h1.json --export-markdown h1.md true >/dev/null 2>&1
"$tool" -N -r 1 --export-json p1.json --export-markdown p1.md true >p1.out 2>&1
for f in h1.json p1.json; do
    grep -q '"stddev": null' "$f" || bad "$f: one run, stddev not null"
done
for f in h1.md p1.md p1.out; do
    ! grep -q '±' "$f" || { bad "$f: one run with a ±"; cat "$f"; }
done
grep -q 'Time (abs ≡):' p1.out || { bad "one run: no abs line"; cat p1.out; }

check_done check_hyperfine
