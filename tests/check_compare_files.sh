#!/bin/sh
# prof-compare's rows of the data-loss matrix: for every file it
# writes (--svg, --html), each error case leaves an existing file whole, and
# an input is never written over:
#   bad arguments, a bad input file, an unwritable directory (missing, or
#   read-only for a user the mode applies to), /dev/full, a full disk
#   (RLIMIT_FSIZE, with SIGXFSZ ignored), the same path as an input (under
#   another name too), and an existing file, which only a complete new
#   picture replaces. No temporary file is left behind.
# Usage: check_compare_files.sh PROF_COMPARE DATA_DIR
set -u
tool=$1 data=$2
. "$(dirname "$0")/check_lib.sh"
chmod 755 "$tmp"
cp "$data/ours-old.json" "$tmp/old.json"; cp "$data/ours-new.json" "$tmp/new.json"
chmod 644 "$tmp/old.json" "$tmp/new.json"
old=$tmp/old.json new=$tmp/new.json
cp "$old" "$tmp/old.orig"; cp "$new" "$tmp/new.orig"

# run CODE PATTERN ARGS...: prof-compare's exit status and a pattern in
# its stderr
run() {
    code=$1 pattern=$2; shift 2
    "$tool" "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
    if [ "$got" != "$code" ] || { [ -n "$pattern" ] && ! grep -q -e "$pattern" "$tmp/err"; }; then
        bad "prof-compare $*: exit $got (want $code), stderr:"; cat "$tmp/err"
        echo "  (wanted pattern: $pattern)"
        return 1
    fi
    return 0
}
# kept FILE CASE: FILE still holds "KEEP" (and nothing else)
kept() {
    if [ "$(cat "$1")" != KEEP ]; then
        bad "$2: $1 was changed: $(head -c 80 "$1")"
    else
        ok "$2: $(basename "$1") kept"
    fi
}
inputs_kept() {
    if cmp -s "$old" "$tmp/old.orig" && cmp -s "$new" "$tmp/new.orig"; then
        ok "$1: inputs unchanged"
    else
        bad "$1: an input was changed"; cp "$tmp/old.orig" "$old"; cp "$tmp/new.orig" "$new"
    fi
}
no_temporary() {
    if ls -a "$1" | grep -q '\.tmp$'; then bad "$2: a temporary file was left in $1"; fi
}

for kind in svg html; do
    out=$tmp/pic.$kind
    echo KEEP >"$out"
    run 2 'a number in (0, 1)' --alpha=2 --$kind="$out" "$old" "$new"; kept "$out" "$kind: bad arguments"
    run 2 'unknown option' --$kind="$out" --frob "$old" "$new"; kept "$out" "$kind: unknown option"
    printf '{"benchmarks": [' >"$tmp/truncated.json"
    run 2 'unexpected end of input' --$kind="$out" "$old" "$tmp/truncated.json"; kept "$out" "$kind: bad input file"
    run 2 'no benchmark in common' --$kind="$out" "$old" "$data/gbench-1.7.1.json"; kept "$out" "$kind: nothing in common"
    run 2 'cannot open ".*/missing/pic' --$kind="$tmp/missing/pic.$kind" "$old" "$new"
    [ ! -e "$tmp/missing" ] || bad "$kind: a missing directory was made"
    if [ -w /dev/full ]; then
        run 2 'writing "/dev/full" failed' --$kind=/dev/full "$old" "$new" && ok "$kind: /dev/full"
    fi
    # a read-only directory: the mode applies to a user that is not root
    mkdir "$tmp/ro"; echo KEEP >"$tmp/ro/pic.$kind"; chmod 555 "$tmp/ro"
    if [ "$(id -u)" != 0 ]; then
        run 2 'Permission denied' --$kind="$tmp/ro/pic.$kind" "$old" "$new"
        kept "$tmp/ro/pic.$kind" "$kind: read-only directory"
    elif command -v setpriv >/dev/null 2>&1; then
        setpriv --reuid=65534 --regid=65534 --clear-groups "$tool" \
            --$kind="$tmp/ro/pic.$kind" "$old" "$new" >/dev/null 2>"$tmp/err"; got=$?
        if [ "$got" != 2 ] || ! grep -q 'Permission denied' "$tmp/err"; then
            bad "$kind: read-only directory (as nobody): exit $got"; cat "$tmp/err"
        fi
        kept "$tmp/ro/pic.$kind" "$kind: read-only directory"
    else
        echo "skip $kind: read-only directory (root, no setpriv)"
    fi
    chmod 755 "$tmp/ro"; rm -rf "$tmp/ro"
    # a full disk: writes past 512 bytes fail (EFBIG); the picture is larger
    sh -c 'trap "" XFSZ; ulimit -f 1; exec "$0" "$@"' "$tool" --$kind="$out" \
        "$old" "$new" >/dev/null 2>"$tmp/err"; got=$?
    if [ "$got" != 2 ] || ! grep -q "writing \".*pic.$kind\" failed: .*the file is unchanged" "$tmp/err"; then
        bad "$kind: full disk: exit $got"; cat "$tmp/err"
    fi
    kept "$out" "$kind: full disk"
    no_temporary "$tmp" "$kind: full disk"
    # the same path as an input, under its own name and others
    ln "$old" "$tmp/hardlink.json"
    for same in "$old" "$tmp/./old.json" "$tmp/hardlink.json"; do
        run 2 'is the input file .*refused' --$kind="$same" "$old" "$new"
        inputs_kept "$kind: --$kind=$same"
        run 2 'is the input file' --$kind="$same" "$new,$new" "$new,$old"
        inputs_kept "$kind: --$kind=$same in a list"
    done
    rm -f "$tmp/hardlink.json"
    # an existing file: replaced by a complete picture
    run 0 '' --$kind="$out" "$old" "$new"
    if tail -n 1 "$out" | grep -q "</$kind>"; then
        ok "$kind: an existing file replaced by a complete picture"
    else
        bad "$kind: incomplete picture: $(tail -c 80 "$out")"
    fi
    no_temporary "$tmp" "$kind"
done
run 2 'name the same file' --svg="$tmp/both" --html="$tmp/./both" "$old" "$new"
run 2 'name the same file' --svg="$tmp/both" --html="$tmp/both" "$old" "$new"
[ ! -e "$tmp/both" ] || bad "--svg and --html the same: written"

check_done "prof-compare files"
