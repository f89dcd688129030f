#!/bin/sh
# profiler.h compiles warning-free (-Wall -Wextra -pedantic -Werror) as C99,
# C11 and C++ with every compiler given, and (first argument) links.
# Usage: check_header.sh SRCDIR LIBRARY COMPILER...
set -u
src=$1 lib=$2; shift 2
. "$(dirname "$0")/check_lib.sh"
flags="-Wall -Wextra -pedantic -Werror -I$src/include ${PROFILER_EXTRA_FLAGS:-}"
ran=0
try() { # label, command...
    label=$1; shift
    ran=$((ran + 1))
    if "$@" >"$tmp/log" 2>&1; then ok "$label"
    else bad "$label: $*"; cat "$tmp/log"; fi
}
for cc in "$@"; do
    command -v "$cc" >/dev/null 2>&1 || { echo "skip $cc: not installed"; continue; }
    case $cc in
    *++*)
        for std in c++11 c++14 c++17 c++20; do
            try "$cc -std=$std" "$cc" -std=$std $flags -x c++ "$src/tests/header_use.cpp" -x none "$lib" -lm -o "$tmp/a.out"
        done ;;
    *)
        for std in c99 c11 c17 gnu99 gnu11; do
            try "$cc -std=$std" "$cc" -std=$std $flags "$src/tests/header_use.c" "$lib" -lm -o "$tmp/a.out"
        done
        # glibc's <sys/types.h> typedefs ulong too: either order must work.
        printf '#include <stdlib.h>\n#include "profiler.h"\nint main(void){ulong u=0;slong s=0;return (int)(u+s);}\n' >"$tmp/u1.c"
        printf '#include "profiler.h"\n#include <sys/types.h>\nint main(void){ulong u=0;slong s=0;return (int)(u+s);}\n' >"$tmp/u2.c"
        # A program without FLINT's headers on its include path gets none,
        # even where FLINT is installed (flint.h only from "flint.h").
        printf '#include "profiler.h"\n#ifdef FLINT_H\n#error flint.h included\n#endif\nint main(void){return 0;}\n' >"$tmp/nf.c"
        for std in c99 gnu99 c11 gnu11; do
            try "$cc -std=$std libc ulong first" "$cc" -std=$std $flags -c "$tmp/u1.c" -o "$tmp/u1.o"
            try "$cc -std=$std libc ulong after" "$cc" -std=$std $flags -c "$tmp/u2.c" -o "$tmp/u2.o"
            try "$cc -std=$std no FLINT header" "$cc" -std=$std $flags -c "$tmp/nf.c" -o "$tmp/nf.o"
        done ;;
    esac
done
echo "$ran compilations, $fail failed"
[ "$ran" -gt 0 ] && [ "$fail" -eq 0 ]
