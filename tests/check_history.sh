#!/bin/sh
# Commit subjects say what changed in at most 72 characters, the why in the
# body (DESIGN.md, "Habits"). Checked from the commit where the rule began
# (FROM) to HEAD; a subject git writes itself (Revert "...", Merge ...) is
# exempt. Skips (77) outside a git checkout or in a clone too shallow to
# hold FROM.
# Usage: check_history.sh SOURCE_DIR [FROM]
dir=$1
from=${2:-81408a7}
git -C "$dir" rev-parse --git-dir >/dev/null 2>&1 || { echo "not a git checkout: skipped"; exit 77; }
git -C "$dir" cat-file -e "$from^{commit}" 2>/dev/null || { echo "$from not in this clone: skipped"; exit 77; }
bad=$(git -C "$dir" log --no-merges --format='%h %s' "$from..HEAD" |
    awk '{ s = substr($0, index($0, " ") + 1) }
         s !~ /^Revert "/ && length(s) > 72 { print length(s) ": " $0 }')
n=$(git -C "$dir" rev-list --no-merges --count "$from..HEAD")
if [ -n "$bad" ]; then
    echo "commit subjects over 72 characters:"
    echo "$bad"
    exit 1
fi
echo "$n commits since $from: every subject within 72 characters"
