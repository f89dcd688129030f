#!/bin/sh
# Install the build tree into a fresh prefix, then build and run a consumer
# program against it twice: with find_package(profiler) and with pkg-config.
# Usage: check_install.sh BUILD_DIR WORK_DIR CONSUMER_SRC CC
set -eu
build=$1 work=$2 consumer=$3 cc=$4
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
test -f "$work/prefix/include/profiler.h"
for part in bench counters trace; do   # the parts' headers beside it
    test -f "$work/prefix/include/profiler/$part.h"
done
test -x "$work/prefix/bin/prof-trace"   # the trace report tool
test -x "$work/prefix/bin/prof-compare" # and the other tools beside it
test -x "$work/prefix/bin/prof-run"
test ! -e "$work/prefix/include/flint/profiler.h"   # opt-in only

cmake -S "$consumer" -B "$work/cmake-build" -DCMAKE_C_COMPILER="$cc" \
      -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_C_FLAGS="${PROFILER_EXTRA_FLAGS:-}" >"$work/configure.log"
cmake --build "$work/cmake-build" >"$work/build.log"
"$work/cmake-build/consumer"

pc=$(find "$work/prefix" -name profiler.pc)
test -n "$pc"
if command -v pkg-config >/dev/null 2>&1; then
    PKG_CONFIG_PATH=$(dirname "$pc") && export PKG_CONFIG_PATH
    "$cc" ${PROFILER_EXTRA_FLAGS:-} "$consumer/main.c" -o "$work/pc-consumer" \
          $(pkg-config --cflags profiler) $(pkg-config --libs profiler)
    "$work/pc-consumer"
    # each part's header alone, from the installed include directory
    for part in bench counters trace; do
        printf '#include <profiler/%s.h>\nint main(void){return 0;}\n' "$part" \
            >"$work/part-$part.c"
        "$cc" ${PROFILER_EXTRA_FLAGS:-} -c "$work/part-$part.c" -o "$work/part.o" \
              $(pkg-config --cflags profiler)
    done
    # libprofiler-alloc.a (glibc builds), named before libprofiler.a
    apc=$(find "$work/prefix" -name profiler-alloc.pc)
    if [ -n "$apc" ]; then
        test -f "$(dirname "$apc")/../libprofiler-alloc.a"
        pkg-config --libs profiler-alloc | grep -q -- '-u,prof_impl_alloc_hook -lprofiler-alloc .*-lprofiler'
    fi
else
    echo "pkg-config not installed: pkg-config consumer not checked"
    [ "${CI:-}" != true ]   # CI installs it: there, missing is a failure
fi
echo "install_consumer: both ways OK"
