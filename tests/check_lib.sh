# What the shell tests share; each sources it first:
#     . "$(dirname "$0")/check_lib.sh"
# $tmp, a scratch directory removed at exit (made writable first, so that a
# test may leave read-only files in it; a test with more to undo at exit
# sets its own trap and calls check_cleanup in it); $fail, the checks
# failed so far, counted by bad; ok to say a check passed; and check_done
# WHAT, the last line: the summary, and the status (0 only if none failed;
# never the count itself, which exit would take modulo 256).
tmp=$(mktemp -d) || exit 1
check_cleanup() { chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"; }
trap check_cleanup EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
check_done()
{
    if [ "$fail" -eq 0 ]; then echo "$1: all checks passed"; else echo "$1: $fail failed"; fi
    [ "$fail" -eq 0 ]
}
