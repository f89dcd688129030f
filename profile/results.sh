#!/bin/sh
# results.sh: write the profile programs' outputs into doc/results.md, or
# check that page. Each figure of the page sits in a block:
#
#   <!-- results:PROG [ARG...] -->
#   Run: `COMMAND` · DATE · MACHINE · load LOAD
#
#   the output (a fenced block as this script writes it, or a table
#   condensed by hand from it)
#   <!-- /results -->
#
# PROG is a profile program (profile/PROG.c, .cpp, or PROG itself for a
# p-*.sh). MACHINE names the CPU model, the cores and the TSC rate; LOAD is
# the 1-minute load average before and after the run.
#
# Refresh: results.sh [--doc=FILE] BUILD_DIR [PROG...] runs the command of
# each block (of the PROGs named, if any): BUILD_DIR/profile/PROG ARG...,
# or sh profile/PROG BUILD_DIR ARG... for a script. Its output (stdout and
# stderr), stamped, replaces the block, which is written at once. A program
# that fails leaves its block as it was (said; exit status 1). Build the
# programs first (cmake --build BUILD_DIR --target profile). A full refresh
# takes an hour or more on a 2-core machine: CI does not run it.
#
# Check: results.sh --check [--doc=FILE] says what is wrong (exit 1) if a
# marker names no profile program, a block is not closed, its stamp misses a
# field, or it holds no output; or if a page beside FILE has a "Measured
# here" section with no link into FILE (the links' anchors: test doc_links).
# CTest runs it (doc_results); its tests: tests/check_results.sh.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
doc=$src/doc/results.md
check=0
while [ $# -gt 0 ]; do
    case $1 in
        --check) check=1 ;;
        --doc=*) doc=${1#--doc=} ;;
        -*) echo "usage: results.sh [--doc=FILE] BUILD_DIR [PROG...] | --check [--doc=FILE]" >&2
            exit 2 ;;
        *) break ;;
    esac
    shift
done
[ -f "$doc" ] || { echo "profiler: results.sh: no $doc" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# The profile programs of the source tree, one name a line.
for f in "$src"/profile/p-*; do
    f=${f##*/}
    case $f in
        *.c) echo "${f%.c}" ;;
        *.cpp) echo "${f%.cpp}" ;;
        *.sh) echo "$f" ;;
    esac
done >"$tmp/progs"

# check_doc: the blocks of $doc. Prints what is wrong; status 1 if any.
check_doc() {
    awk -v progs="$tmp/progs" '
    BEGIN { while ((getline p < progs) > 0) have[p] = 1 }
    function bad(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg; status = 1 }
    function stamp(line,   f, n, i, w, nw) {
        n = split(line, f, " · ")
        if (n < 4 || f[1] !~ /^Run: `[^`]+`/ || f[2] !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]/ \
            || f[n] !~ /^load [^ ]/)
            return "no stamp (Run: `COMMAND` · DATE · MACHINE · load LOAD)"
        if (f[3] !~ /[0-9]+ cores/ || f[3] !~ /TSC [0-9.]+ GHz/)
            return "the stamp'"'"'s machine lacks the cores or the TSC rate (N cores, TSC X GHz)"
        nw = split(spec, w, " ")
        for (i = 1; i <= nw; i++)
            if (index(f[1], w[i]) == 0)
                return "the stamp'"'"'s command lacks " w[i] " of the marker"
        return ""
    }
    /^<!-- results:/ {
        if (open) bad("the block of line " start " is not closed")
        open = 0
        if ($0 !~ /^<!-- results:p-[a-z0-9-]+(\.sh)?( [^ ]+)* -->$/) {
            bad("a marker is <!-- results:p-NAME [ARG...] -->"); next
        }
        spec = $0; sub(/^<!-- results:/, "", spec); sub(/ -->$/, "", spec)
        prog = spec; sub(/ .*/, "", prog)
        if (!(prog in have)) bad("no profile program " prog " in profile/")
        open = 1; start = FNR; n = 0; body = 0; fence = 0; blocks++
        next
    }
    $0 == "<!-- /results -->" {
        if (!open) bad("a closing marker without a block")
        else if (n == 0) bad("the block of line " start " has no stamp")
        else if (!body) bad("the block of line " start " holds no output")
        else if (fence) bad("the block of line " start " leaves a code fence open")
        open = 0; next
    }
    /^[ \t]*<!-- *\/? *results/ { bad("a marker is <!-- results:p-NAME [ARG...] --> or <!-- /results -->"); next }
    open {
        n++
        if (n == 1) { msg = stamp($0); if (msg != "") bad(msg) }
        else if (n == 2 && $0 != "") bad("a blank line follows the stamp")
        else if (n > 2) {
            if ($0 ~ /[^ \t]/) body = 1
            if ($0 ~ /^[ \t]*(```|~~~)/) fence = !fence
        }
    }
    END {
        if (open) bad("the block of line " start " is not closed")
        if (blocks == 0) { printf "%s: no block\n", FILENAME; status = 1 }
        exit status
    }' "$doc"
}

# check_links: each page beside $doc whose "## Measured here" section has
# no link into $doc.
check_links() {
    name=${doc##*/} unlinked=0
    for page in "$(dirname "$doc")"/*.md; do
        [ "$page" = "$doc" ] && continue
        awk -v name="$name" '
        /^## / { in_section = ($0 == "## Measured here"); if (in_section) seen = 1; next }
        in_section && index($0, "](" name "#") { linked = 1 }
        END { exit (seen && !linked) }' "$page" \
            || { echo "$page: its Measured here section has no link into $name"; unlinked=1; }
    done
    return "$unlinked"
}

if [ "$check" = 1 ]; then
    status=0
    check_doc || status=1
    check_links || status=1
    [ "$status" = 0 ] && echo "$doc: every block names a profile program and is well formed"
    exit "$status"
fi

[ $# -ge 1 ] || { echo "usage: results.sh [--doc=FILE] BUILD_DIR [PROG...]" >&2; exit 2; }
build=$1
shift
only=" $* "
check_doc >"$tmp/errors" || { cat "$tmp/errors" >&2; exit 2; }

# The machine, as the stamps name it: CPU model, cores, TSC rate (the
# demo's measured tick rate), and a virtual machine.
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$model" ] || model=$(uname -m)
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
ghz=$("$build/examples/demo" 2>/dev/null \
      | awk '/^tick rate:/ { printf "%.4g", $3 / 1e9; exit }')
[ -n "$ghz" ] || { echo "profiler: results.sh: build $build/examples/demo first (the TSC rate)" >&2; exit 2; }
vm=""
grep -qw hypervisor /proc/cpuinfo 2>/dev/null && vm=" (VM)"
machine="$model, $cores cores$vm, TSC $ghz GHz"
load() { cut -d ' ' -f 1 /proc/loadavg 2>/dev/null || echo "?"; }

# The blocks' specs, in order: the k-th line is the k-th block's.
sed -n 's/^<!-- results:\(.*\) -->$/\1/p' "$doc" >"$tmp/specs"
status=0 k=0
while IFS= read -r spec; do
    k=$((k + 1))
    set -f
    # shellcheck disable=SC2086 # the marker's words
    set -- $spec
    set +f
    prog=$1
    shift
    case $only in "  " | *" $prog "*) ;; *) continue ;; esac
    case $prog in
        *.sh) shown="sh profile/$prog $build $*" ; set -- sh "$src/profile/$prog" "$build" "$@" ;;
        *) shown="./$build/profile/$prog $*" ; set -- "$build/profile/$prog" "$@" ;;
    esac
    shown=$(echo "$shown" | sed 's/ *$//; s|^\./\./|./|; s|^\.//|/|')
    # Blocks with the same marker share one run.
    body=$tmp/body.$(printf '%s' "$spec" | cksum | cut -d ' ' -f 1)
    if [ ! -f "$body" ]; then
        echo "--- $shown" >&2
        day=$(date -u '+%Y-%m-%d %H:%M UTC') before=$(load)
        "$@" </dev/null >"$tmp/out" 2>&1
        rc=$? after=$(load)
        if [ "$rc" != 0 ]; then
            echo "profiler: results.sh: $shown: exit status $rc; its block is left as it was" >&2
            tail -n 5 "$tmp/out" >&2
            status=1
            continue
        fi
        l=$before
        [ "$after" = "$before" ] || l="$before-$after"
        {
            printf 'Run: `%s` · %s · %s · load %s\n\n```text\n' "$shown" "$day" "$machine" "$l"
            awk '{ print }' "$tmp/out"   # a last line ends with a newline
            printf '```\n'
        } >"$body"
    fi
    awk -v k="$k" -v body="$body" '
        /^<!-- results:.* -->$/ {
            print; if (++n == k) { while ((getline l < body) > 0) print l; skip = 1 }; next
        }
        $0 == "<!-- /results -->" { skip = 0 }
        !skip { print }' "$doc" >"$doc.new" && mv "$doc.new" "$doc"
done <"$tmp/specs"
exit "$status"
