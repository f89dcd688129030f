#!/bin/sh
# Every option a program's --help names (each --word) appears in README.md
# or doc/*.md, as a whole option name (--out does not count for
# --out-format), so that an option added to a tool is documented too.
# Usage: check_doc_options.sh SOURCE_DIR PROGRAM...
set -u
. "$(dirname "$0")/check_lib.sh"
root=$1
shift
for prog in "$@"; do
    if ! "$prog" --help >"$tmp/help" 2>&1; then
        bad "$prog --help failed"
        continue
    fi
    n=0 before=$fail
    for opt in $(grep -o -- '--[a-z][a-z0-9_-]*' "$tmp/help" | sort -u); do
        n=$((n + 1))
        grep -qE -- "$opt([^a-z0-9_-]|\$)" "$root/README.md" "$root"/doc/*.md \
            || bad "$(basename "$prog"): $opt is in --help but in no page"
    done
    [ "$n" -gt 0 ] || bad "$prog --help names no option"
    [ "$fail" -gt "$before" ] || ok "$(basename "$prog"): the $n options of --help are in the pages"
done
check_done check_doc_options
