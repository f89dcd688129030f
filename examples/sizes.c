/* A size sweep: one call runs the target once per size, each a row named
   "sum/N" with its N, then prints the family's complexity fits.
   --sizes=LIST (or PROFILER_SIZES) replaces the sizes, because the program
   opts in with prof_bench_set_sizes_flag.

       ./build/examples/sizes [--sizes=1000..1000000x10] [benchmark options] */
#include "profiler.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long * data;
static ulong have;

/* Sum the first n numbers; the size comes as arg, a const ulong. The
   first call of a larger size grows the array: a calibration call, never
   a measured epoch. A size from the command line can be any number: one
   whose bytes do not fit in a size_t is refused before the multiplication
   wraps (2^61 + 1 numbers would ask for 8 bytes). */
static void sum(void * arg, ulong count)
{
    ulong n = *(const ulong *) arg, i, k;
    if (n > have)
    {
        unsigned long long * more = n > SIZE_MAX / sizeof *data ? NULL
            : (unsigned long long *) realloc(data, n * sizeof *data);
        if (more == NULL)
        {
            fprintf(stderr, "sizes: out of memory for %llu numbers\n",
                    (unsigned long long) n);
            exit(1);
        }
        for (data = more; have < n; have++)
            data[have] = have;
    }
    for (i = 0; i < count; i++)
    {
        unsigned long long s = 0;
        for (k = 0; k < n; k++)
            s += data[k];
        PROF_DO_NOT_OPTIMIZE(s);
    }
}

int main(int argc, char ** argv)
{
    static const ulong sizes[] = { 1000, 4000, 16000, 64000 };
    prof_bench * b = prof_bench_new();
    int rc;
    if (b == NULL || prof_bench_set_sizes_flag(b, 1) != 0
        || prof_bench_args(b, argc, argv) != 0)
    {
        prof_bench_free(b);   /* NULL is allowed */
        return 2;
    }
    /* or the range form: prof_bench_run_range(b, "sum", sum, 1000, 64000, 4) */
    rc = prof_bench_run_sizes(b, "sum", sum, sizes, 4) < 0;
    rc |= prof_bench_finish(b) != 0;
    prof_bench_free(b);
    free(data);
    return rc;
}
