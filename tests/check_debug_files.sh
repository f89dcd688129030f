#!/bin/sh
# Names from a separate debug file: make_sampled_trace.py's samples fall in
# functions of debug_target, whose symbols are then moved out
# (objcopy --only-keep-debug, strip --strip-all, --add-gnu-debuglink).
# The stripped file names them through its build-id (ROOT/.build-id/xx/
# rest.debug), through its .gnu_debuglink (the same directory, .debug/,
# ROOT + its directory); a debug file of the wrong CRC or build-id is
# ignored and said once; no debug file: module+0xOFFSET, never a bare
# address, in every output.
# Usage: check_debug_files.sh PROF-TRACE DEBUG-TARGET OTHER-ELF SCRIPT-DIR
set -u
pt=$1 target=$2 other=$3 here=$4
. "$(dirname "$0")/check_lib.sh"
for tool in objcopy strip readelf; do
    command -v $tool >/dev/null || { echo "no $tool: skipped"; exit 77; }
done
a=$tmp/a
mkdir -p "$a" "$tmp/root" "$tmp/none" && cp "$target" "$a/t" || exit 1
python3 "$here/make_sampled_trace.py" --binary="$a/t" \
    --names=dbg_hot,dbg_cold,dbg_work,main,dbg_worker "$tmp/s.ptrace" || exit 1
objcopy --only-keep-debug "$a/t" "$tmp/t.debug" && strip --strip-all "$a/t" \
    && objcopy --add-gnu-debuglink="$tmp/t.debug" "$a/t" || exit 1
id=$(readelf -n "$a/t" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
[ -n "$id" ] || { echo "no build-id in the target: skipped"; exit 77; }
dir=$(echo "$id" | cut -c1-2) rest=$(echo "$id" | cut -c3-)

# named: dbg_hot 1301 of the 2002 samples, dbg_work their caller
named() # WHAT OUT ERR
{
    if grep -Eq '^ +1301 .* dbg_hot$' "$2" && grep -q ' dbg_work$' "$2" \
        && ! grep -q 't+0x' "$2" && ! grep -q 'debug file' "$3"; then
        ok "$1: named from the debug file"
    else
        bad "$1"; cat "$2" "$3"
    fi
}
unnamed() # WHAT OUT
{
    if grep -Eq '^ +1301 .* t\+0x[0-9a-f]+$' "$2" && ! grep -q dbg_hot "$2"; then
        ok "$1: module+0xOFFSET"
    else
        bad "$1"; cat "$2"
    fi
}
report() # ROOT [OPTIONS]: the text report into $tmp/o.txt, stderr $tmp/o.err
{
    r=$1; shift
    PROFILER_DEBUG_ROOT=$r "$pt" "$@" "$tmp/s.ptrace" >"$tmp/o.txt" 2>"$tmp/o.err"
}

report "$tmp/none"
unnamed "no debug file" "$tmp/o.txt"
# by build-id under the root, given by the environment or --debug-root
mkdir -p "$tmp/root/.build-id/$dir" && cp "$tmp/t.debug" "$tmp/root/.build-id/$dir/$rest.debug"
report "$tmp/root"
named "build-id" "$tmp/o.txt" "$tmp/o.err"
report "$tmp/none" --debug-root="$tmp/root"
named "build-id, --debug-root" "$tmp/o.txt" "$tmp/o.err"
rm -r "$tmp/root/.build-id"
# by .gnu_debuglink: beside the file, in .debug/, under ROOT + its directory
cp "$tmp/t.debug" "$a/t.debug"
report "$tmp/none"
named "debuglink, same directory" "$tmp/o.txt" "$tmp/o.err"
mkdir "$a/.debug" && mv "$a/t.debug" "$a/.debug/t.debug"
report "$tmp/none"
named "debuglink, .debug/" "$tmp/o.txt" "$tmp/o.err"
mkdir -p "$tmp/root/$a" && mv "$a/.debug/t.debug" "$tmp/root/$a/t.debug"
report "$tmp/root"
named "debuglink, ROOT + directory" "$tmp/o.txt" "$tmp/o.err"
rm "$tmp/root/$a/t.debug"
# a debug file of another CRC (one byte more): ignored, said once
cp "$tmp/t.debug" "$a/t.debug" && printf x >>"$a/t.debug"
report "$tmp/none" --by-thread
unnamed "wrong CRC" "$tmp/o.txt"
n=$(grep -c "^profiler: .*$a/t.debug.*CRC" "$tmp/o.err")
[ "$n" = 1 ] && ok "wrong CRC: said once" || { bad "wrong CRC said $n times"; cat "$tmp/o.err"; }
rm "$a/t.debug"
# another file's debug file where the build-id leads: ignored, said once
mkdir -p "$tmp/root/.build-id/$dir"
objcopy --only-keep-debug "$other" "$tmp/root/.build-id/$dir/$rest.debug" || exit 1
report "$tmp/root" --by-thread
unnamed "wrong build-id" "$tmp/o.txt"
n=$(grep -c "^profiler: .*$rest.debug.*another build-id" "$tmp/o.err")
[ "$n" = 1 ] && ok "wrong build-id: said once" || { bad "wrong build-id said $n times"; cat "$tmp/o.err"; }

# no debug file: module+0xOFFSET in every output, never a bare address
for f in csv folded speedscope; do
    report "$tmp/none" --$f
    if grep -q 't+0x' "$tmp/o.txt" && ! grep -Eq '(^|[;,"[ ])0x[0-9a-f]{6,}' "$tmp/o.txt"; then
        ok "--$f: module+0xOFFSET"
    else
        bad "--$f: names"; head -20 "$tmp/o.txt"
    fi
done
check_done debug_files
