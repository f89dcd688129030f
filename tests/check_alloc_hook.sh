#!/bin/sh
# libprofiler-alloc.a records a whole program's allocations, and only a
# program that links it has them replaced: alloc_target (linked with it)
# run with a trace file, then prof-trace --alloc's rows of its zones,
# exact (sizes, a realloc chain, leaks of malloc, aligned_alloc and
# posix_memalign, a block freed on another thread, a thread's 1000 pairs,
# a fork child's own file); nm: the target defines malloc and free, a
# program that links libprofiler.a alone defines no allocation function.
# Usage: check_alloc_hook.sh PROF-TRACE ALLOC-TARGET NM PLAIN-PROGRAM...
set -u
prof_trace=$1 target=$2 nm=$3; shift 3
. "$(dirname "$0")/check_lib.sh"
alloc_names='^(malloc|calloc|realloc|reallocarray|free|aligned_alloc|memalign|posix_memalign|valloc|pvalloc)$'

if ! (cd "$tmp" && PROF_TRACE_FILE="$tmp/a.ptrace" "$target" >"$tmp/out" 2>&1); then
    bad "alloc_target failed: $(cat "$tmp/out")"
elif ! "$prof_trace" --alloc "$tmp/a.ptrace" >"$tmp/alloc" 2>"$tmp/err"; then
    bad "prof-trace --alloc failed: $(cat "$tmp/err")"
else
    # allocs bytes live live_bytes (then thread, zone): each zone's row
    row() { # ZONE ALLOCS BYTES LIVE LIVE_BYTES
        if awk -v z="$1" -v a="$2" -v b="$3" -v l="$4" -v lb="$5" '
            /^allocations by zone/ { on = 1; next } /^leaks/ { on = 0 }
            on && $NF == z && $1 == a && $2 == b && $3 == l && $4 == lb { f = 1 }
            END { exit !f }' "$tmp/alloc"; then
            ok "zone $1: $2 allocations, $3 bytes, $4 live ($5 bytes)"
        else
            bad "zone $1: not $2 allocations, $3 bytes, $4 live ($5 bytes)"
        fi
    }
    row sized 2 400 0 0
    row chain 3 112 0 0
    row leak 3 1384 3 1384
    row shared 1 77 0 0
    row worker 1000 24000 0 0
    awk '/^leaks/ { on = 1; next } on && $NF == "leak" && $2 == 1384 { f = 1 }
         END { exit !f }' "$tmp/alloc" && ok "the leak view names zone leak" \
        || bad "the leak view: $(cat "$tmp/alloc")"
    grep -q ' 0 double frees' "$tmp/alloc" || bad "a double free counted: $(head -1 "$tmp/alloc")"
    child=$(ls "$tmp"/a.ptrace.* 2>/dev/null | head -1)
    if [ -n "$child" ] && "$prof_trace" --alloc "$child" >"$tmp/child" 2>/dev/null \
       && awk '$NF == "child" && $1 == 1 && $2 == 5 && $3 == 0 { f = 1 } END { exit !f }' "$tmp/child"; then
        ok "the fork child's file has its allocation"
    else
        bad "the fork child's trace ($child): $(cat "$tmp/child" 2>/dev/null)"
    fi
fi
[ $fail -gt 0 ] && cat "$tmp/alloc" 2>/dev/null
"$nm" "$target" | awk -v re="$alloc_names" '$(NF - 1) == "T" && $NF ~ re' >"$tmp/defs"
grep -q ' T malloc$' "$tmp/defs" && grep -q ' T free$' "$tmp/defs" \
    && ok "alloc_target defines malloc and free" || bad "alloc_target: $(cat "$tmp/defs")"
for p in "$@"; do
    if "$nm" "$p" | awk -v re="$alloc_names" '$(NF - 1) ~ /^[TW]$/ && $NF ~ re { f = 1 } END { exit !f }'; then
        bad "$(basename "$p") defines an allocation function without libprofiler-alloc.a"
    else
        ok "$(basename "$p"): no allocation function defined"
    fi
done
check_done check_alloc_hook
