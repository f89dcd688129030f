#!/bin/sh
# --binary: an executable built with -finstrument-functions is run, then
# moved: prof-trace says it is not there and how to fix it (its functions
# read prog+0xOFFSET, never a bare address), and names its
# functions again with --binary=NEW-PATH; a rebuilt one (another file at
# the same path) is warned about; a --binary that names nothing (cut
# short, not ELF, no mapping of its file name) is said.
# Usage: check_trace_binary.sh PROF-TRACE INSTRUMENTED-PROGRAM
set -u
pt=$1 prog=$2
. "$(dirname "$0")/check_lib.sh"
mkdir "$tmp/a" "$tmp/b"
cp "$prog" "$tmp/a/prog"
"$tmp/a/prog" "$tmp/t.ptrace" >/dev/null || { echo "FAIL run"; exit 1; }
"$pt" --csv "$tmp/t.ptrace" >"$tmp/out" 2>"$tmp/err"
grep -q '^i,leaf,1000,' "$tmp/out" && [ ! -s "$tmp/err" ] && ok "named in place" \
    || { bad "in place"; cat "$tmp/err"; }
mv "$tmp/a/prog" "$tmp/b/prog"
"$pt" --csv "$tmp/t.ptrace" >"$tmp/out" 2>"$tmp/err"
grep -q "a/prog is not there (moved?).*--binary=PATH" "$tmp/err" && ! grep -q ',leaf,' "$tmp/out" \
    && grep -q '^i,prog+0x[0-9a-f]*,1000,' "$tmp/out" && ! grep -q ',0x' "$tmp/out" \
    && ok "moved: warned, module+0xOFFSET" || { bad "moved"; cat "$tmp/err" "$tmp/out"; }
"$pt" --csv --binary "$tmp/b/prog" "$tmp/t.ptrace" >"$tmp/out" 2>"$tmp/err"
grep -q '^i,leaf,1000,' "$tmp/out" && [ ! -s "$tmp/err" ] && ok "--binary names them" \
    || { bad "--binary"; cat "$tmp/err" "$tmp/out"; }
# a --binary that cannot name anything is said, never ignored: cut short,
# not ELF, or of a file name no mapping of the trace has
mkdir "$tmp/c" "$tmp/d"
head -c 5000 "$tmp/b/prog" >"$tmp/c/prog"
echo hello >"$tmp/d/prog"
cp "$tmp/b/prog" "$tmp/d/other"
for c in "c/prog:is cut short or damaged" "d/prog:is not a 64-bit ELF file" \
         "d/other:no executable of the trace has that file name; not used"; do
    f=${c%%:*} want=${c#*:}
    "$pt" --csv --binary "$tmp/$f" "$tmp/t.ptrace" >"$tmp/out" 2>"$tmp/err"
    grep -q "prof-trace: .*$f.*$want" "$tmp/err" && ok "--binary $f: said" \
        || { bad "--binary $f"; cat "$tmp/err"; }
done
cp "$tmp/b/prog" "$tmp/a/prog.new" && mv "$tmp/a/prog.new" "$tmp/a/prog"
"$pt" --csv "$tmp/t.ptrace" >"$tmp/out" 2>"$tmp/err"
grep -q "has changed since the run (rebuilt?)" "$tmp/err" && ok "rebuilt: warned" \
    || { bad "rebuilt"; cat "$tmp/err"; }
check_done "prof-trace --binary"
