/* A benchmark program for the dashboards' check (check_dashboards.py):
   "scaled" runs a chain of multiply-adds whose length is 2000 times the
   factor in PROFILER_TEST_WORK (default 1: 1.2 makes it about 20% slower),
   "fixed" a chain of 2000 that never changes. Both run with the default
   settings and whatever flags are given. */
#include <stdint.h>
#include <stdlib.h>
#include "profiler.h"

static void chain(void * arg, ulong count)
{
    long n = *(const long *) arg, i;
    uint64_t x = 1;
    ulong k;
    for (k = 0; k < count; k++)
    {
        for (i = 0; i < n; i++)
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        PROF_DO_NOT_OPTIMIZE(x);
    }
}

int main(int argc, char ** argv)
{
    prof_bench * b = prof_bench_new();
    const char * work = getenv("PROFILER_TEST_WORK");
    double factor = work != NULL ? strtod(work, NULL) : 1.0;
    long fixed = 2000, scaled = (long) (2000.0 * factor + 0.5);
    int rc;
    if (b == NULL || prof_bench_args(b, argc, argv) != 0 || !(factor > 0.0))
    {
        prof_bench_free(b);
        return 2;
    }
    prof_bench_run(b, "scaled", chain, &scaled);
    prof_bench_run(b, "fixed", chain, &fixed);
    rc = prof_bench_finish(b);
    prof_bench_free(b);
    return rc == 0 ? 0 : 1;
}
