#!/bin/sh
# prof-trace's reports of a sampled trace from make_sampled_trace.py whose
# addresses lie inside functions of a real ELF file (prof-trace's own
# static functions): named from its symbol table, main's samples 80/20
# with the callers' totals, per thread, per zone ("inner" holds 600 of
# main's samples); --no-symbols and a stripped copy give module+0xOFFSET,
# never a bare address; --folded's counts add up to the samples; --csv
# and --zones as documented.
# Usage: check_trace_samples.sh PROF-TRACE SCRIPT-DIR
set -u
pt=$1 here=$2
. "$(dirname "$0")/check_lib.sh"
names=cmp_top,cmp_key,collect,add_binary,apply
bin=$(cd "$(dirname "$pt")" && pwd)/$(basename "$pt")
python3 "$here/make_sampled_trace.py" --binary="$bin" --names=$names \
    "$tmp/s.ptrace" || exit 1
"$pt" --by-thread "$tmp/s.ptrace" >"$tmp/s.txt" 2>"$tmp/s.err" || bad "text: exit $?"
# thread 7 main: 800 in cmp_top, 200 in cmp_key, both under collect
sed -n '/^thread 7 main/,/^$/p' "$tmp/s.txt" >"$tmp/main.txt"
if grep -Eq '^ +800 +80\.0% .* cmp_top$' "$tmp/main.txt" \
    && grep -Eq '^ +200 +20\.0% .* cmp_key$' "$tmp/main.txt" \
    && grep -Eq '^ +0 +0\.0% .* 1000 +100\.0% .* collect$' "$tmp/main.txt"; then
    ok "main: 80/20 by symbol, the caller's total"
else
    bad "main's functions"; cat "$tmp/s.txt"
fi
if grep -Eq '^ +600 +[0-9.]+%  zone inner: 80\.0% cmp_top, 20\.0% cmp_key$' "$tmp/s.txt"; then
    ok "samples by zone"
else
    bad "samples by zone"; sed -n '/by zone/,$p' "$tmp/s.txt"
fi
grep -q "achieved" "$tmp/s.txt" && grep -q "5 lost" "$tmp/s.txt" \
    && ok "rate and losses said" || bad "rate and losses"
"$pt" --no-symbols "$tmp/s.ptrace" >"$tmp/n.txt" 2>/dev/null
bn=$(basename "$pt")
mkdir "$tmp/x" && cp "$bin" "$tmp/x/$bn" && strip "$tmp/x/$bn" || exit 1
"$pt" --binary="$tmp/x/$bn" "$tmp/s.ptrace" >"$tmp/x.txt" 2>/dev/null
for f in n x; do
    if grep -Eq "^ +1301 .* $bn\+0x[0-9a-f]+$" "$tmp/$f.txt" && ! grep -q cmp_top "$tmp/$f.txt"; then
        ok "$f: module+0xOFFSET"
    else
        bad "$f: names"; cat "$tmp/$f.txt"
    fi
done
"$pt" --folded "$tmp/s.ptrace" >"$tmp/s.folded" 2>/dev/null
sum=$(awk '{ n += $NF } END { print n }' "$tmp/s.folded")
if [ "$sum" = 2002 ] && grep -q '^main;add_binary;collect;cmp_top 800$' "$tmp/s.folded"; then
    ok "folded: the samples' stacks, root first, 2002 in all"
else
    bad "folded ($sum)"; cat "$tmp/s.folded"
fi
"$pt" --folded --zones "$tmp/s.ptrace" 2>/dev/null | grep -q '^main;outer;inner 60000000$' \
    && ok "--folded --zones: the zones'" || bad "--folded --zones"
"$pt" --csv "$tmp/s.ptrace" 2>/dev/null | head -2 >"$tmp/c.csv"
if [ "$(head -1 "$tmp/c.csv")" = "function,self,self_pct,self_ms,total,total_pct,total_ms" ] \
    && grep -q '^cmp_top,1301,' "$tmp/c.csv"; then
    ok "csv: the top functions"
else
    bad "csv"; cat "$tmp/c.csv"
fi
check_done trace_samples
