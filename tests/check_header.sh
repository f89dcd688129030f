#!/bin/sh
# profiler.h compiles warning-free (-Wall -Wextra -pedantic -Werror) as C99,
# C11 and C++ with every compiler given, with tracing on and off, and
# links with the library (first argument) as C99 and C++11; its markers compile, or fail naming the marker,
# alike in both modes; with tracing on, the exec family's calls compile
# whichever of <unistd.h> and the header comes first.
# Each part's header (include/profiler/*.h) compiles alone the same way,
# as C99 and C11 or C++11, tracing on and off.
# Usage: check_header.sh SRCDIR LIBRARY COMPILER... (CTest runs one
# compiler a test, so that -j overlaps them). Exits 77 (skipped) when no
# compiler given is installed, except under CI.
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

# The uses of the markers, one a line: name|outcome in C99 and C11|outcome
# in C++|the body of a function of int x (\n: a new line). The rule
# (doc/tracing.md): PROF_ZONE and PROF_FUNC are declarations, the others
# void expressions. A failure must name the marker (the compilers' "in
# expansion of macro" note).
cat >"$tmp/markers" <<'CASES'
zone in an if|fails|ok|    if (x) PROF_ZONE("a");
func in an if|fails|ok|    if (x) PROF_FUNC();
zone right after a label|fails|ok|    goto l;\nl: PROF_ZONE("a");
zone in a block after a label|ok|ok|    goto l;\nl: { PROF_ZONE("a"); x++; }
two zones on one line|ok|ok|    PROF_ZONE("a"); PROF_ZONE("b");\n    { PROF_FUNC(); PROF_ZONE("c"); PROF_ZONE("d"); }
zones on lines of their own|ok|ok|    PROF_FUNC();\n    PROF_ZONE("a");\n    { PROF_ZONE("b"); }
begin and end in an if|ok|ok|    if (x) PROF_ZONE_BEGIN("a"); else PROF_ZONE_END("a");\n    if (x) PROF_FUNC_BEGIN(); else PROF_FUNC_END();
zone of an undeclared label|fails|fails|    PROF_ZONE(no_such_label);
begin of an undeclared label|fails|fails|    PROF_ZONE_BEGIN(no_such_label);
zone of an int|fails|fails|    PROF_ZONE(x);
CASES
markers() { # compiler, -std=, language (c or c++)
    while IFS='|' read -r name c_want cxx_want body; do
        want=$c_want
        [ "$3" = c++ ] && want=$cxx_want
        printf '#include "profiler.h"\nint f(int x);\nint f(int x)\n{\n%b\n    return x;\n}\n' \
            "$body" >"$tmp/m.c"
        ran=$((ran + 1))
        seen=""
        for mode in on off; do
            d=-UPROF_TRACE
            [ $mode = on ] && d=-DPROF_TRACE
            if "$1" -std="$2" $flags $d -x "$3" -fsyntax-only "$tmp/m.c" >"$tmp/m.$mode" 2>&1
            then seen="$seen ok"
            elif grep -q "PROF_" "$tmp/m.$mode"; then seen="$seen fails"
            else seen="$seen fails-unnamed"
            fi
        done
        if [ "$seen" = " $want $want" ]; then
            ok "$1 -std=$2 $name:$seen"
        else
            bad "$1 -std=$2 $name (on, off):$seen; expected $want in both"
            cat "$tmp/m.c" "$tmp/m.on" "$tmp/m.off"
        fi
    done <"$tmp/markers"
}

# With tracing on, the exec family's names are the recorder's (Linux):
# <unistd.h> before or after the header, called or taken by address, in C
# and C++ (whose declarations must carry glibc's exception specification).
for order in before after; do
    {
        [ $order = before ] && echo '#include <unistd.h>'
        echo '#include "profiler.h"'
        [ $order = after ] && echo '#include <unistd.h>'
        cat <<'CODE'
extern char ** environ;
int run(char ** argv);
int run(char ** argv)
{
    int (*f)(const char *, char * const[]) = execvp;
    if (argv[0] == 0)
        return f("true", argv);
    execv("/bin/true", argv);
    execve("/bin/true", argv, environ);
    execvpe("true", argv, environ);
    fexecve(3, argv, environ);
    execle("/bin/true", "true", (char *) 0, environ);
    execlp("true", "true", (char *) 0);
    return execl("/bin/true", "true", (char *) 0);
}
CODE
    } >"$tmp/exec_$order.c"
done
exec_calls() { # compiler, -std=, language
    [ "$(uname -s)" = Linux ] || return 0
    for order in before after; do
        try "$1 -std=$2 exec names, <unistd.h> $order" "$1" -std="$2" $flags \
            -D_GNU_SOURCE -DPROF_TRACE -x "$3" -c "$tmp/exec_$order.c" -o "$tmp/exec.o"
    done
}

# link STD FIRST-STD: the arguments that end a compilation of header_use
# as STD: a link with the library for the first standard of each language
# (both modes), the front end alone (-fsyntax-only) for the others: what
# the header declares is the same, and what only code generation can say
# (an inline asm operand, a call the link cannot resolve) does not change
# with the standard; code generation and the link cost twice what the
# front end does (gcc: 0.21 against 0.05 CPU-s)
link() {
    if [ "$1" = "$2" ]; then echo "-x none $lib -lm -o $tmp/a.out"
    else echo "-fsyntax-only"; fi
}
# parts COMPILER LANGUAGE STD...: each part's header alone, the first line
# of a translation unit, tracing on and off (the front end: -fsyntax-only)
parts() {
    p_cc=$1 p_lang=$2; shift 2
    n=0
    for h in "$src"/include/profiler/*.h; do
        [ -f "$h" ] || continue
        n=$((n + 1))
        printf '#include "profiler/%s"\n' "${h##*/}" >"$tmp/part.c"
        for p_std in "$@"; do
            for d in -DPROF_TRACE -UPROF_TRACE; do
                try "$p_cc -std=$p_std $d ${h##*/} alone" "$p_cc" -std="$p_std" $flags $d \
                    -x "$p_lang" -fsyntax-only "$tmp/part.c"
            done
        done
    done
    [ "$n" -ge 3 ] || { ran=$((ran + 1)); bad "$n part headers in $src/include/profiler, expected 3 or more"; }
}

for cc in "$@"; do
    command -v "$cc" >/dev/null 2>&1 || { echo "skip $cc: not installed"; continue; }
    case $cc in
    *++*)
        for std in c++11 c++14 c++17 c++20; do
            for d in -DPROF_TRACE -UPROF_TRACE; do
                try "$cc -std=$std $d" "$cc" -std=$std $flags $d -x c++ "$src/tests/header_use.cpp" $(link $std c++11)
            done
        done
        markers "$cc" c++11 c++
        parts "$cc" c++ c++11
        exec_calls "$cc" c++11 c++ ;;
    *)
        for std in c99 c11 c17 gnu99 gnu11; do
            for d in -DPROF_TRACE -UPROF_TRACE; do
                try "$cc -std=$std $d" "$cc" -std=$std $flags $d "$src/tests/header_use.c" $(link $std c99)
            done
        done
        markers "$cc" c99 c
        markers "$cc" c11 c
        parts "$cc" c c99 c11
        exec_calls "$cc" c99 c
        # glibc's <sys/types.h> typedefs ulong too: either order must work.
        printf '#include <stdlib.h>\n#include "profiler.h"\nint main(void){ulong u=0;slong s=0;return (int)(u+s);}\n' >"$tmp/u1.c"
        printf '#include "profiler.h"\n#include <sys/types.h>\nint main(void){ulong u=0;slong s=0;return (int)(u+s);}\n' >"$tmp/u2.c"
        # A program without FLINT's headers on its include path gets none,
        # even where FLINT is installed (flint.h only from "flint.h").
        printf '#include "profiler.h"\n#ifdef FLINT_H\n#error flint.h included\n#endif\nint main(void){return 0;}\n' >"$tmp/nf.c"
        # (typedefs and includes: the front end's, -fsyntax-only)
        for std in c99 gnu99 c11 gnu11; do
            try "$cc -std=$std libc ulong first" "$cc" -std=$std $flags -fsyntax-only "$tmp/u1.c"
            try "$cc -std=$std libc ulong after" "$cc" -std=$std $flags -fsyntax-only "$tmp/u2.c"
            try "$cc -std=$std no FLINT header" "$cc" -std=$std $flags -fsyntax-only "$tmp/nf.c"
        done ;;
    esac
done
echo "$ran compilations, $fail failed"
if [ "$ran" -eq 0 ]; then
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
[ "$fail" -eq 0 ]
