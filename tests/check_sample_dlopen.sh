#!/bin/sh
# A library loaded after sampling began is named in prof-trace's report
# (from the mappings the sampler wrote again at the dlopen), not shown as
# an address; 77 (skipped) when sampling is unavailable.
# Usage: check_sample_dlopen.sh PROGRAM MODULE PROF_TRACE TRACE
set -u
prog=$1 module=$2 trace=$3 file=$4
"$prog" "$file" "$module"; rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
out=$("$trace" "$file" 2>&1)
if printf '%s\n' "$out" | grep -q '%.*sample_module_hot'; then
    echo "ok: sample_module_hot named"
else
    printf '%s\n' "$out" | sed -n '1,30p'
    echo "FAILED: no sample named sample_module_hot"; exit 1
fi
