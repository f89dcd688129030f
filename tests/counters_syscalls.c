/* Run under strace by check_perf_syscalls.sh. "off": use the timers, the
   clocks, prof_repeat and the memory report, and never open counters;
   "on": also open counters, count a region and print the context line. */
#include <stdio.h>
#include <string.h>
#include "profiler.h"

static void target(void * arg, ulong count)
{
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
    {
        prof_start();
        prof_stop();
    }
}

int main(int argc, char ** argv)
{
    timeit_t t;
    double mn, mx;
    int on = argc > 1 && strcmp(argv[1], "on") == 0;

    TIMEIT_START
        (void) get_cycle_counter();
    TIMEIT_STOP
    prof_repeat(&mn, &mx, target, NULL);
    timeit_start(t);
    print_memory_usage();
    timeit_stop(t);
    if (on)
    {
        prof_counters_t c;
        prof_counter_value_t v[PROF_COUNTERS_MAX];
        char line[1024];
        prof_counters_open(&c, NULL);
        prof_counters_start(&c);
        print_memory_usage();
        prof_counters_stop(&c);
        prof_counters_read(&c, v);
        prof_counters_context(&c, line, sizeof line);
        printf("%s\n", line);
        prof_counters_close(&c);
    }
    return 0;
}
