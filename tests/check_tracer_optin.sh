#!/bin/sh
# Only a program that traces gets the tracer's hooks into the process. The
# library defines none of the C library's exec names. A program that does
# not trace (the runner with its worker processes, a FLINT-style program,
# one that calls execvp itself) contains no object of the library that
# has a constructor, installs a fork handler or defines an exec function.
# A program that traces has the constructor and the fork handlers, and,
# when its traced code calls exec, the recorder's exec functions.
# Usage: check_tracer_optin.sh NM OBJDUMP LIBRARY KIND:PROGRAM...
#   KIND: plain (does not trace), traced, exec (traces and calls exec)
set -u
nm=$1 objdump=$2 lib=$3; shift 3
. "$(dirname "$0")/check_lib.sh"
libc_exec='^(execve|execv|execvp|execvpe|execl|execle|execlp|fexecve)$'

# The library's members of each kind, one a line: their constructors
# (.init_array, .ctors; a sanitizer's, of priority 1 in .init_array.1, are
# not the library's: priorities up to 100 are the implementation's), their
# fork handlers (pthread_atfork), their exec functions (prof_impl_exec*,
# or a definition of a C library name).
"$objdump" -h "$lib" | awk '/file format/ { m = $1; sub(/:$/, "", m) }
    $2 ~ /^[.](init_array|ctors)([.][0-9]+)?$/ {
        n = split($2, p, "."); if (n < 3 || p[3] + 0 > 100) print m }' \
    | sort -u >"$tmp/ctor"
"$nm" -A "$lib" | awk -v re="$libc_exec" -v d="$tmp" '{
        n = split($1, p, ":"); m = p[n - 1]; t = $(NF - 1); s = $NF
        if (t == "U" && (s == "pthread_atfork" || s == "__register_atfork"))
            print m > (d "/fork")
        if (t ~ /^[TW]$/ && (s ~ /^prof_impl_f?exec/ || s ~ re))
            print m > (d "/exec")
        if (t ~ /^[TDBRWV]$/)
            print m, s > (d "/globals")
    }'
# No member defines a name of the C library's: a static link would take
# it from the library in every program that calls it.
"$nm" -A "$lib" | awk -v re="$libc_exec" \
    '$(NF - 1) ~ /^[TW]$/ && $NF ~ re { n = split($1, p, ":"); print p[n - 1] ":" $NF }' \
    >"$tmp/libc"
if [ -s "$tmp/libc" ]; then
    bad "the library defines the C library's exec functions: $(tr '\n' ' ' <"$tmp/libc")"
else
    ok "the library defines none of the C library's exec functions"
fi
for k in ctor fork exec; do
    [ -f "$tmp/$k" ] || : >"$tmp/$k"
    sort -u "$tmp/$k" -o "$tmp/$k"
done
[ -s "$tmp/ctor" ] && [ -s "$tmp/fork" ] && [ -s "$tmp/exec" ] \
    || bad "$lib: no member with a constructor, a fork handler or exec functions (ctor: $(cat "$tmp/ctor"), fork: $(cat "$tmp/fork"), exec: $(cat "$tmp/exec"))"

# linked KIND: 0 if a member of that kind of the library is in the
# program whose symbols are in $tmp/defined (one of the member's global
# symbols is defined there); the members found go to $tmp/found.
linked()
{
    awk -v d="$tmp/defined" 'BEGIN { while ((getline s < d) > 0) def[s] = 1 }
        NR == FNR { want[$1] = 1; next } ($1 in want) && ($2 in def) { print $1 }' \
        "$tmp/$1" "$tmp/globals" | sort -u >"$tmp/found"
    [ -s "$tmp/found" ]
}

for arg in "$@"; do
    kind=${arg%%:*} prog=${arg#*:}
    name=$(basename "$prog")
    "$nm" "$prog" | awk '$(NF - 1) ~ /^[TDBRWV]$/ { print $NF }' >"$tmp/defined"
    for k in ctor fork exec; do
        case $k in
        ctor) what="constructors of the library" ;;
        fork) what="fork handlers of the library" ;;
        exec) what="exec functions of the recorder" ;;
        esac
        want=0
        case $kind:$k in
        traced:ctor|traced:fork|exec:*) want=1 ;;
        esac
        if linked "$k"; then
            [ "$want" -eq 1 ] && ok "$name has $what ($(tr '\n' ' ' <"$tmp/found"))" \
                || bad "$name ($kind) has $what: $(tr '\n' ' ' <"$tmp/found")"
        else
            [ "$want" -eq 0 ] && ok "$name ($kind) has no $what" \
                || bad "$name ($kind) lacks $what"
        fi
    done
done
check_done "tracer opt-in"
