/* Uses every name of profiler.h, so that compiling it with
   -Wall -Wextra -pedantic -Werror in each language mode shows the header is
   clean there (tests/check_header.sh). Built as C and as C++. */
#define PROF_TRACE 1 /* the tracing markers' enabled form */
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

static int traced(int n)
{
    PROF_FUNC();
    PROF_ZONE("scoped");
    PROF_ZONE_BEGIN("zone");
    PROF_ZONE_END("zone");
    PROF_FUNC_BEGIN();
    PROF_FUNC_END();
    if (n > 0)
        return n;
    prof_trace_thread_name("main");
    return prof_trace_open(NULL) + prof_trace_flush() + (int) prof_trace_lost()
           + PROF_TRACE_ENABLED;
}

int main(void)
{
    timeit_t t;
    slong reps;
    double mn, mx, tcpu, twall;
    profile_target_t f = target;

    timeit_start(t); timeit_stop(t); (void) timeit_query_wall(t);
    timeit_start_us(t); timeit_stop_us(t); timeit_print(t, 1);
    TIMEIT_REPEAT(t, reps) TIMEIT_END_REPEAT(t, reps)
    TIMEIT_START TIMEIT_STOP
    TIMEIT_START TIMEIT_STOP_VALUES(tcpu, twall)
    TIMEIT_ONCE_START TIMEIT_ONCE_STOP
    TIMEIT_PRINT(t, 1)
    init_clock(0); init_all_clocks(); start_clock(1); stop_clock(1);
    (void) get_clock(1);
    (void) get_cycle_counter();
    (void) FLINT_CLOCK_SCALE_FACTOR; (void) FLINT_CLOCKSPEED;
    (void) prof_tick_rate(); (void) prof_tick_overhead();
    (void) clock_last[FLINT_NUM_CLOCKS - 1]; (void) clock_accum[0];
    prof_repeat(&mn, &mx, f, NULL);
    (void) DURATION_TARGET; (void) DURATION_THRESHOLD;
    fprint_memory_usage(stdout); print_memory_usage();
    (void) traced(1);
    return (int) (tcpu + twall + mn + mx) * 0;
}
