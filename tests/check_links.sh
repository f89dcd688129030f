#!/bin/sh
# Every relative link of README.md and doc/*.md resolves: the file or
# directory exists and, for a #anchor into a markdown file (or into the same
# page), a heading of that file has that anchor. Anchors follow GitHub's
# rule: the heading's text lowercased, punctuation other than '-' and '_'
# dropped, spaces turned into '-', and "-1", "-2", ... added to repeats.
# Links inside fenced code blocks and `code spans` are not links and are
# skipped, as are absolute URLs (scheme:...).
# Usage: check_links.sh SOURCE_DIR
set -eu
. "$(dirname "$0")/check_lib.sh"
root=${1:-.}
cd "$root"

# Print "LINE<TAB>TARGET" for each [text](target) and ![alt](target).
links() {
    awk '
    /^[ \t]*(```|~~~)/ { fence = !fence; next }
    fence { next }
    {
        s = $0
        gsub(/`[^`]*`/, "", s)             # code spans are not links
        while (match(s, /\]\([^)]*\)/)) {
            t = substr(s, RSTART + 2, RLENGTH - 3)
            sub(/[ \t].*$/, "", t)         # an optional "title"
            if (t != "") printf "%d\t%s\n", NR, t
            s = substr(s, RSTART + RLENGTH)
        }
    }' "$1"
}

# Print the anchor of each heading of a markdown file, one a line.
anchors() {
    awk '
    /^[ \t]*(```|~~~)/ { fence = !fence; next }
    fence || !/^#+[ \t]/ { next }
    {
        h = $0
        sub(/^#+[ \t]+/, "", h); sub(/[ \t]+#*[ \t]*$/, "", h)
        h = tolower(h)
        gsub(/[^a-z0-9 _-]/, "", h)
        gsub(/ /, "-", h)
        a = h
        if (h in seen) a = h "-" seen[h]
        seen[h]++
        print a
    }' "$1"
}

status=0
checked=0
tab=$(printf '\t')
for page in README.md doc/*.md; do
    [ -f "$page" ] || continue
    dir=$(dirname "$page")
    links "$page" >"$tmp/links"
    while IFS="$tab" read -r line target; do
        case $target in
            [a-zA-Z]*:*) continue ;;        # http:, https:, mailto: ...
        esac
        checked=$((checked + 1))
        path=${target%%#*}
        anchor=
        case $target in *'#'*) anchor=${target#*#} ;; esac
        if [ -z "$path" ]; then file=$page; else file=$dir/$path; fi
        if [ ! -e "$file" ]; then
            echo "$page:$line: broken link ($target): $file does not exist"
            status=1
            continue
        fi
        [ -n "$anchor" ] || continue
        case $file in
            *.md)
                if ! anchors "$file" | grep -Fqx -- "$anchor"; then
                    echo "$page:$line: broken link ($target): no heading" \
                         "with anchor #$anchor in $file"
                    status=1
                fi ;;
        esac
    done <"$tmp/links"
done
if [ "$checked" = 0 ]; then
    echo "no relative link found under $root: wrong directory?"
    exit 1
fi
[ "$status" = 0 ] && echo "$checked relative links resolve"
exit "$status"
