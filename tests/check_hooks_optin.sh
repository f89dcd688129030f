#!/bin/sh
# The -finstrument-functions hooks are linked only into programs that call
# them: an ordinary program linked with libprofiler.a has none of them, an
# instrumented one has both.
# Usage: check_hooks_optin.sh NM PLAIN-EXE INSTRUMENTED-EXE
set -u
nm=$1 plain=$2 inst=$3
if "$nm" "$plain" | grep -q __cyg_profile_func; then
    echo "FAIL: $plain has the instrumentation hooks"; exit 1
fi
n=$("$nm" "$inst" | grep -c ' T __cyg_profile_func_\(enter\|exit\)$')
[ "$n" -eq 2 ] || { echo "FAIL: $inst has $n of the 2 hooks"; exit 1; }
echo "hooks: absent from $plain, present in $inst"
