/* Uses every name of profiler.h, so that compiling it with
   -Wall -Wextra -pedantic -Werror in each language mode shows the header is
   clean there (tests/check_header.sh). Built as C and as C++. */
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
    {
        prof_counters_t c;
        prof_counter_value_t v[PROF_COUNTERS_MAX];
        char line[512];
        size_t size = sizeof line;
        if (prof_counters_open(&c, PROF_COUNTERS_DEFAULT) >= 0)
        {
            (void) prof_counters_start(&c); (void) prof_counters_stop(&c);
            (void) prof_counters_reset(&c); (void) prof_counters_read(&c, v);
            (void) prof_counters_overhead(&c, v);
            (void) prof_counters_size(&c); (void) prof_counters_name(&c, 0);
            (void) prof_counters_unit(&c, 0); (void) prof_counters_find(&c, "cycles");
            (void) prof_counters_available(&c, 0); (void) prof_counters_errno(&c, 0);
            (void) prof_counters_reason(&c, 0);
            (void) prof_counters_context(&c, line, size);
            prof_counters_fprint(stdout, &c);
            prof_counters_close(&c);
        }
        (void) (PROF_COUNTERS_EINVAL + PROF_COUNTERS_ESTATE + PROF_COUNTERS_ESYS);
        (void) v[0].value; (void) v[0].raw; (void) v[0].enabled_ns; (void) v[0].running_ns;
    }
    return (int) (tcpu + twall + mn + mx) * 0;
}
