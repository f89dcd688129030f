#!/bin/sh
# The tracing markers and annotations cost nothing when off: tests/trace_markers.c built
# without PROFILE/PROF_TRACE gives the same object code (objdump -dr) and
# symbols (nm) as the same file with the markers deleted, with each compiler
# at -O0 and -O2, warning-free; with -DPROF_TRACE or -DPROFILE it references
# the recorder.
# Usage: check_trace_off.sh SRCDIR OBJDUMP NM COMPILER...
set -u
src=$1 objdump=$2 nm=$3; shift 3
. "$(dirname "$0")/check_lib.sh"
ran=0
dis() { "$objdump" -dr --no-show-raw-insn "$1" | sed -n '/^Disassembly/,$p'; }
for cc in "$@"; do
    command -v "$cc" >/dev/null 2>&1 || { echo "skip $cc: not installed"; continue; }
    for opt in -O0 -O2; do
        flags="-std=c99 -Wall -Wextra -pedantic -Werror $opt -I$src/include -c"
        ran=$((ran + 1))
        if ! "$cc" $flags "$src/tests/trace_markers.c" -o "$tmp/off.o" \
           || ! "$cc" $flags -DPROF_TEST_NO_MARKERS "$src/tests/trace_markers.c" -o "$tmp/none.o" \
           || ! "$cc" $flags -DPROF_TRACE "$src/tests/trace_markers.c" -o "$tmp/on.o" \
           || ! "$cc" $flags -DPROFILE "$src/tests/trace_markers.c" -o "$tmp/piyasa.o"; then
            bad "$cc $opt: does not compile warning-free"; continue
        fi
        dis "$tmp/off.o" >"$tmp/off.s"; dis "$tmp/none.o" >"$tmp/none.s"
        "$nm" "$tmp/off.o" >"$tmp/off.nm"; "$nm" "$tmp/none.o" >"$tmp/none.nm"
        if ! cmp -s "$tmp/off.s" "$tmp/none.s" || ! cmp -s "$tmp/off.nm" "$tmp/none.nm"; then
            bad "$cc $opt: disabled markers change the object code"
            diff "$tmp/none.s" "$tmp/off.s" | head -40
            continue
        fi
        if ! "$nm" "$tmp/on.o" | grep -q prof_impl_trace_slow \
           || ! "$nm" "$tmp/piyasa.o" | grep -q prof_impl_trace_slow \
           || [ "$("$nm" "$tmp/on.o" | grep -c -E 'prof_impl_trace_(ext|zone_text|message)$')" -ne 3 ]; then
            bad "$cc $opt: -DPROF_TRACE / -DPROFILE do not record"; continue
        fi
        ok "$cc $opt: off = no markers ($(grep -c '^ ' "$tmp/off.s") instructions), on records"
    done
done
echo "$ran configurations, $fail failed"
[ "$ran" -gt 0 ] && [ "$fail" -eq 0 ]
