/* demo: what profiler measures on this machine, in a few lines each. */
#include <stdlib.h>
#include "profiler.h"

/* The code under test: a dependent chain of multiply-adds. */
static unsigned long long chain(unsigned long long x, int n)
{
    int i;
    for (i = 0; i < n; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x;
}

static volatile unsigned long long sink;

/* A prof_repeat target: runs the code count times, timing each run. */
static void target(void * arg, ulong count)
{
    int n = *(int *) arg;
    ulong i;
    for (i = 0; i < count; i++)
    {
        prof_start();
        sink = chain(sink, n);
        prof_stop();
    }
}

int main(void)
{
    int n = 1000;
    double min, max;

    printf("tick rate: %.6g ticks/s (FLINT assumes 3.1e9)\n", prof_tick_rate());
    printf("counter read: %.0f ticks\n", prof_tick_overhead());

    printf("TIMEIT, chain of %d: ", n);
    TIMEIT_START
        sink = chain(sink, n);
    TIMEIT_STOP

    prof_repeat(&min, &max, target, &n);
    printf("prof_repeat, chain of %d: min %.4g us, max %.4g us (%.0f ticks)\n",
           n, min, max, min / FLINT_CLOCK_SCALE_FACTOR);

    print_memory_usage();
    return 0;
}
