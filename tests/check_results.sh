#!/bin/sh
# doc/results.md and profile/results.sh: the page's blocks name profile
# programs and are well formed (results.sh --check), the check refuses
# broken copies of the page, and a refresh with fake programs rewrites
# only the blocks it ran, stamped, leaving the rest of the page as it was.
# Usage: check_results.sh SOURCE_DIR
set -u
. "$(dirname "$0")/check_lib.sh"
src=$1
script=$src/profile/results.sh
page=$src/doc/results.md

if sh "$script" --check >"$tmp/out" 2>&1; then
    ok "doc/results.md passes its check"
else
    bad "doc/results.md fails its check:"; cat "$tmp/out"
fi

# refused NAME SED MESSAGE: a copy of the page edited by SED fails the
# check with MESSAGE.
refused() {
    mkdir -p "$tmp/$1"
    sed "$2" "$page" >"$tmp/$1/results.md"
    if sh "$script" --check --doc="$tmp/$1/results.md" >"$tmp/out" 2>&1; then
        bad "$1: the check passed"
    elif grep -q -- "$3" "$tmp/out"; then
        ok "$1: refused ($3)"
    else
        bad "$1: refused, but without \"$3\":"; cat "$tmp/out"
    fi
}
refused unknown '0,/^<!-- results:p-overhead -->$/s//<!-- results:p-nothing -->/' \
    'no profile program p-nothing'
refused malformed '0,/^<!-- results:p-overhead -->$/s//<!-- results: p-overhead -->/' \
    'a marker is'
refused unclosed '0,/^<!-- \/results -->$/{/^<!-- \/results -->$/d}' 'is not closed'
refused stray '0,/^## The core$/s//<!-- \/results -->/' 'a closing marker without a block'
refused no_load '0,/ · load 9.0$/s///' 'no stamp'
refused no_tsc '0,/TSC 2.096 GHz · load 9.0$/s//2.096 GHz · load 9.0/' 'the TSC rate'
refused no_args '0,/p-repeat-load --part1 1` ·/s//p-repeat-load` ·/' 'lacks --part1'
refused empty '/^| what | ticks | ns | target |$/,/^| `clock_gettime(CLOCK_MONOTONIC)`/d' \
    'holds no output'
refused empty_all '/^<!-- results:/,/^<!-- \/results -->$/d' 'no block'

# A page beside the results page needs a link into it from "Measured here".
mkdir -p "$tmp/pages"
cp "$page" "$tmp/pages/results.md"
printf '# A part\n\n## Measured here\n\nNo link.\n\n## Limits\n\n[x](results.md#the-core)\n' \
    >"$tmp/pages/part.md"
if sh "$script" --check --doc="$tmp/pages/results.md" >"$tmp/out" 2>&1; then
    bad "a Measured here without a link into the page passed"
elif grep -q 'part.md: its Measured here section has no link' "$tmp/out"; then
    ok "a Measured here without a link into the page is refused"
else
    bad "unlinked page refused, but not for its link:"; cat "$tmp/out"
fi
printf '# A part\n\n## Measured here\n\nSee [it](results.md#the-core).\n' >"$tmp/pages/part.md"
sh "$script" --check --doc="$tmp/pages/results.md" >"$tmp/out" 2>&1 \
    && ok "a Measured here that links into the page passes" \
    || { bad "a linked page refused:"; cat "$tmp/out"; }

# A refresh with fake programs: p-overhead prints two lines (counted in
# runs), p-repeat fails; the demo prints a tick rate.
build=$tmp/build
mkdir -p "$build/profile" "$build/examples" "$tmp/fresh"
printf '#!/bin/sh\necho run >>"%s/runs"\necho "fake overhead $*"\nprintf "no newline"\n' "$tmp" \
    >"$build/profile/p-overhead"
printf '#!/bin/sh\necho ran >"%s/repeat-ran"\necho boom\nexit 3\n' "$tmp" >"$build/profile/p-repeat"
printf '#!/bin/sh\necho "tick rate: 2.5e+09 ticks/s (FLINT assumes 3.1e9)"\n' >"$build/examples/demo"
chmod +x "$build/profile/p-overhead" "$build/profile/p-repeat" "$build/examples/demo"
old='Run: `./build/profile/p-overhead` · 2026-12-01 · X, 2 cores, TSC 2.096 GHz · load 9.0'
cat >"$tmp/fresh/results.md" <<EOF
# Results

Before.

<!-- results:p-overhead -->
$old

old figures
<!-- /results -->

<!-- results:p-repeat -->
Run: \`./build/profile/p-repeat\` · 2026-12-01 · X, 2 cores, TSC 2.096 GHz · load 8.0

| old | table |
<!-- /results -->

Between.

<!-- results:p-overhead -->
$old

old figures again
<!-- /results -->

After.
EOF
cp "$tmp/fresh/results.md" "$tmp/before.md"
sh "$script" --doc="$tmp/fresh/results.md" "$build" >"$tmp/out" 2>&1
rc=$?
new=$tmp/fresh/results.md
[ "$rc" = 1 ] && grep -q 'p-repeat: exit status 3; its block is left as it was' "$tmp/out" \
    && ok "a failing program: exit status 1, said" \
    || { bad "a failing program: exit status $rc, or not said:"; cat "$tmp/out"; }
[ "$(grep -c '^fake overhead $' "$new")" = 2 ] && [ "$(grep -c '^no newline$' "$new")" = 2 ] \
    && ! grep -q 'old figures' "$new" \
    && ok "both p-overhead blocks hold the new output, whole" \
    || { bad "the p-overhead blocks:"; cat "$new"; }
[ "$(wc -l <"$tmp/runs")" = 1 ] && ok "blocks with one marker share one run" \
    || bad "p-overhead ran $(wc -l <"$tmp/runs") times"
grep -q '| old | table |' "$new" && ok "the failed program's block is left as it was" \
    || bad "the p-repeat block changed"
grep -Eq '^Run: `[^`]*/profile/p-overhead` · [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]+ UTC · .*, [0-9]+ cores.*, TSC 2.5 GHz · load [0-9.]+(-[0-9.]+)?$' "$new" \
    && ok "the new stamp: command, date, machine with the TSC rate, load" \
    || { bad "no stamp as expected:"; grep '^Run:' "$new"; }
for line in '# Results' 'Before.' 'Between.' 'After.'; do
    grep -qx "$line" "$new" || bad "the text outside the blocks lost \"$line\""
done
sh "$script" --check --doc="$new" >"$tmp/out" 2>&1 && ok "the refreshed page passes the check" \
    || { bad "the refreshed page fails the check:"; cat "$tmp/out"; }

# Only the programs named: p-repeat does not run.
cp "$tmp/before.md" "$new"
rm -f "$tmp/repeat-ran"
sh "$script" --doc="$new" "$build" p-overhead >"$tmp/out" 2>&1 \
    && [ ! -f "$tmp/repeat-ran" ] && grep -q '| old | table |' "$new" \
    && ok "results.sh BUILD p-overhead runs only p-overhead's blocks" \
    || { bad "a refresh of p-overhead alone:"; cat "$tmp/out"; }
# Without the demo, no stamp can name the TSC rate: nothing runs.
rm "$build/examples/demo"
cp "$tmp/before.md" "$new"
if sh "$script" --doc="$new" "$build" >"$tmp/out" 2>&1; then
    bad "a refresh without the demo succeeded"
else
    cmp -s "$new" "$tmp/before.md" && grep -q '^profiler: results.sh: build .*demo first' "$tmp/out" \
        && ok "without the demo: said, the page unchanged" \
        || { bad "without the demo:"; cat "$tmp/out"; }
fi
check_done check_results
