/*
    A library loaded with dlopen after prof_sample_start: "FILE MODULE"
    samples, loads MODULE (sample_module.c) and spends about a second in
    its function; check_sample_dlopen.sh then finds that function named in
    prof-trace's report of FILE. Exit 77 when sampling is unavailable.
    SPDX-License-Identifier: MIT
*/
#include "check.h"
#include "profiler.h"
#include "internal.h"

#include <dlfcn.h>

int main(int argc, char ** argv)
{
    void * lib;
    void (*hot)(unsigned long);
    double end;
    if (argc < 3)
        return fprintf(stderr, "usage: test_sample_dlopen FILE MODULE\n"), 2;
    CHECK(prof_trace_open(argv[1]) == 0, "open %s", argv[1]);
    if (prof_sample_start(997) != 0)
        return 77;
    lib = dlopen(argv[2], RTLD_NOW);
    CHECK(lib != NULL, "dlopen %s: %s", argv[2], dlerror());
    if (lib == NULL)
        return check_report("test_sample_dlopen");
    *(void **) &hot = dlsym(lib, "sample_module_hot");
    CHECK(hot != NULL, "dlsym: %s", dlerror());
    for (end = prof_impl_now_ns() + 1e9; hot != NULL && prof_impl_now_ns() < end;)
        hot(200000);
    prof_sample_stop();
    CHECK(prof_trace_flush() == 0, "flush");
    return check_report("test_sample_dlopen");
}
