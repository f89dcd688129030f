#!/bin/sh
# A program that spends its time in sin and cos of Debian's stripped libm,
# sampled by prof-trace record: named from libc6-dbg's debug file (found
# by build-id), never libm.so.6+0xOFFSET. Skipped (77) where that debug
# file is not installed, readelf or ldd are missing, or perf events are
# refused.
# Usage: check_libm_names.sh PROF-TRACE LIBM-TARGET
set -u
pt=$1 target=$2
. "$(dirname "$0")/check_lib.sh"
command -v readelf >/dev/null && command -v ldd >/dev/null || { echo "no readelf or ldd: skipped"; exit 77; }
libm=$(ldd "$target" | sed -n 's/.*libm\.so\.6 => \([^ ]*\) .*/\1/p')
id=$(readelf -n "$libm" 2>/dev/null | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
if [ -z "$libm" ] || [ -z "$id" ] || [ ! -f "$dbg" ]; then
    echo "no debug file for libm ($libm, $dbg; Debian: libc6-dbg): skipped"; exit 77
fi
if readelf -S "$libm" | grep -q '\.symtab'; then
    echo "$libm is not stripped: nothing to check; skipped"; exit 77
fi
"$pt" record -o "$tmp/m.ptrace" -- "$target" 20 2>"$tmp/err"
if grep -q 'perf events refused' "$tmp/err"; then
    cat "$tmp/err"; exit 77
fi
"$pt" "$tmp/m.ptrace" >"$tmp/m.txt" 2>"$tmp/m.err"
top=$(sed -n '3,4p' "$tmp/m.txt")
if echo "$top" | grep -Eq '(sin|cos)' && ! grep -q 'libm\.so\.6+0x' "$tmp/m.txt"; then
    ok "libm named from its debug file: $(echo $top | tr -s ' ')"
else
    bad "libm's functions"; cat "$tmp/m.txt" "$tmp/m.err"
fi
check_done libm_names
