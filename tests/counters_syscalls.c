/* Run under strace by check_perf_syscalls.sh. "off": use the timers, the
   clocks, prof_repeat, the memory report and the benchmark runner (counters
   off), and never open counters; "on": also open counters, count a region
   and print the context line; "bench N": N suites of two benchmarks with
   the runner's counters on (and no direct use of the counters API). */
#include <stdio.h>
#include <stdlib.h>
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

static prof_bench * small_suite(void)
{
    prof_bench * b = prof_bench_new();
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_epochs(b, 3);
    prof_bench_set_min_epoch_time_ns(b, 1e4);
    return b;
}

int main(int argc, char ** argv)
{
    timeit_t t;
    double mn, mx;
    int on = argc > 1 && strcmp(argv[1], "on") == 0;
    prof_bench * b;

    if (argc > 2 && strcmp(argv[1], "bench") == 0)
    {
        int i, n = atoi(argv[2]);
        for (i = 0; i < n; i++)
        {
            b = small_suite();
            prof_bench_set_counters(b, "default");
            prof_bench_run(b, "target", target, NULL);
            PROF_BENCH_LOOP(b, "loop") { PROF_CLOBBER(); }
            printf("%d counters\n", prof_bench_result(b, 0)->ncounters);
            prof_bench_free(b);
        }
        return 0;
    }
    b = small_suite();      /* counters off: the default */
    prof_bench_run(b, "target", target, NULL);
    PROF_BENCH_LOOP(b, "loop") { PROF_CLOBBER(); }
    prof_bench_free(b);

    TIMEIT_START
        (void) get_cycle_counter();
    TIMEIT_STOP
    prof_repeat(&mn, &mx, target, NULL);
    timeit_start(t);
    print_memory_usage();
    timeit_stop(t);
    if (on)
    {
        prof_counters c;
        prof_counter_value v[PROF_COUNTERS_MAX];
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
