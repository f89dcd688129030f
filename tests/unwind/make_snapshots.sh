#!/bin/sh
# Makes the unwinder's stored snapshots (test_unwind_snap): builds snap.c
# for x86-64 (gcc) and ARM64 (aarch64-linux-gnu-gcc, run under
# qemu-aarch64 -L /usr/aarch64-linux-gnu; -mbranch-protection=pac-ret, so
# that the saved return addresses are signed where the CPU has PAC), runs
# each once (it stops itself in leaf and dumps its registers, executable
# mappings and top of stack), and keeps beside the dump the program (not
# static: libc's frames are outside the chain) and its functions (nm -S).
# snap-x86_64-debug is built without .eh_frame for its own code
# (-fno-asynchronous-unwind-tables -g): its CFI is in .debug_frame.
# Run by hand from anywhere, then commit tests/unwind/snap-*; CI does not
# run it (the snapshots are the point: the same bytes on every machine).
# Needs gcc, gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
flags="-O2 -fomit-frame-pointer -fno-inline"
gcc $flags -o "$here/snap-x86_64" "$here/snap.c"
"$here/snap-x86_64" >"$here/snap-x86_64.txt"
nm -S "$here/snap-x86_64" >"$here/snap-x86_64.nm"
gcc $flags -g -fno-asynchronous-unwind-tables -fno-unwind-tables \
    -o "$here/snap-x86_64-debug" "$here/snap.c"
"$here/snap-x86_64-debug" >"$here/snap-x86_64-debug.txt"
nm -S "$here/snap-x86_64-debug" >"$here/snap-x86_64-debug.nm"
aarch64-linux-gnu-gcc $flags -mbranch-protection=pac-ret -o "$here/snap-arm64" "$here/snap.c"
qemu-aarch64 -L /usr/aarch64-linux-gnu "$here/snap-arm64" >"$here/snap-arm64.txt"
aarch64-linux-gnu-nm -S "$here/snap-arm64" >"$here/snap-arm64.nm"
for a in x86_64 x86_64-debug arm64; do
    grep -q '^end$' "$here/snap-$a.txt" || { echo "snap-$a: no dump"; exit 1; }
    echo "snap-$a: $(wc -c <"$here/snap-$a") bytes, $(grep -c '^map' "$here/snap-$a.txt") mappings"
done
