/* A tiny benchmark program for prof-compare --run (check_compare_run.sh):
   one benchmark, "work", on a fake clock that advances RUN_TARGET_NS ns
   (default 100) per iteration, so that its results are exact whatever the
   load. It takes the runner's flags (--out=, --format=) and PROFILER_OUT.
   RUN_TARGET_LOG names a file to which each run appends RUN_TARGET_SIDE
   (the order of the runs); RUN_TARGET_FAIL=1 makes it fail with a message
   on stderr after writing its result. */
#include "internal.h"
#include "bench_check.h"

#include <stdlib.h>

static double cost_ns = 100.0;

static void work(void * arg, ulong count)
{
    (void) arg;
    fake_now += cost_ns * (double) count;
}

int main(int argc, char ** argv)
{
    const char * ns = getenv("RUN_TARGET_NS"), * log = getenv("RUN_TARGET_LOG");
    const char * side = getenv("RUN_TARGET_SIDE"), * fail = getenv("RUN_TARGET_FAIL");
    prof_bench * b = prof_bench_new();
    int rc;

    if (ns != NULL)
        cost_ns = atof(ns);
    if (log != NULL)
    {
        FILE * f = fopen(log, "a");
        if (f != NULL)
        {
            fprintf(f, "%s\n", side != NULL ? side : "?");
            fclose(f);
        }
    }
    prof_impl_set_fake_clock(fake_read, 1e9);
    if (b == NULL || prof_bench_args(b, argc, argv) != 0)
    {
        prof_bench_free(b);
        return 2;
    }
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_set_epochs(b, 7);
    prof_bench_set_epoch_iterations(b, 10);
    prof_bench_run(b, "work", work, NULL);
    rc = prof_bench_finish(b);
    prof_bench_free(b);
    if (fail != NULL && atoi(fail) == 1)
    {
        fprintf(stderr, "run_target: failing as asked (RUN_TARGET_FAIL=1)\n");
        return 1;
    }
    return rc == 0 ? 0 : 1;
}
