/* Every public name of FLINT's profiler.h, 2.x (Debian's 2.9.0, as
   installed) and 3.x (3.0-3.3, and 3.4 on, read at FLINT's HEAD), compiled
   against this header and used once: a program written for any of them
   builds here. The list says which versions declare each name
   (doc/core.md's table says the same). FLINT's Windows-only
   gettimeofday is declared here for the same compilers (header_use.c). */
#include "check.h"
#include "profiler.h"

#include <math.h>

/* Each macro FLINT defines, as a preprocessor check. */
#if !defined(FLINT_NUM_CLOCKS) || !defined(FLINT_CLOCKSPEED) \
    || !defined(FLINT_CLOCK_SCALE_FACTOR) || !defined(DURATION_TARGET) \
    || !defined(DURATION_THRESHOLD) || !defined(TIMEIT_PRINT) \
    || !defined(TIMEIT_REPEAT) || !defined(TIMEIT_END_REPEAT) \
    || !defined(TIMEIT_START) || !defined(TIMEIT_STOP) \
    || !defined(TIMEIT_STOP_VALUES) || !defined(TIMEIT_ONCE_START) \
    || !defined(TIMEIT_ONCE_STOP) || !defined(SHOW_MEMORY_USAGE)
# error "a FLINT macro is missing"
#endif
#if defined(__x86_64__) || defined(__aarch64__)
# if !defined(FLINT_HAVE_get_cycle_counter)
#  error "FLINT_HAVE_get_cycle_counter"
# endif
#endif
#if defined(__linux__) && !defined(FLINT_HAVE_getrusage)
# error "FLINT_HAVE_getrusage"
#endif

typedef struct { const char * name, * versions; size_t use; } flint_name;

/* The name, the FLINT versions that declare it, and an expression that
   uses it (statement macros are used in main). */
#define NAME(n, versions, use) { #n, versions, sizeof(use) }
#define STATEMENT sizeof(char)
static const flint_name names[] = {
    /* FLINT 2.x (2.9) to 3.3 only: FLINT 3.4 dropped them */
    NAME(meminfo_t, "2.x-3.3", meminfo_t),
    NAME(get_memory_usage, "2.x-3.3", &get_memory_usage),
    NAME(SHOW_MEMORY_USAGE, "2.x-3.3", STATEMENT),
    NAME(TIMEIT_PRINT, "2.x-3.3", STATEMENT),
    /* every version */
    NAME(timeit_t, "2.x-", timeit_t),
    NAME(timeit_start, "2.x-", &timeit_start),
    NAME(timeit_stop, "2.x-", &timeit_stop),
    NAME(timeit_query_wall, "2.x-", &timeit_query_wall),
    NAME(TIMEIT_REPEAT, "2.x-", STATEMENT),
    NAME(TIMEIT_END_REPEAT, "2.x-", STATEMENT),
    NAME(TIMEIT_START, "2.x-", STATEMENT),
    NAME(TIMEIT_STOP, "2.x-", STATEMENT),
    NAME(TIMEIT_ONCE_START, "2.x-", STATEMENT),
    NAME(TIMEIT_ONCE_STOP, "2.x-", STATEMENT),
    NAME(FLINT_NUM_CLOCKS, "2.x-", FLINT_NUM_CLOCKS),
    NAME(FLINT_CLOCKSPEED, "2.x-", FLINT_CLOCKSPEED),
    NAME(FLINT_CLOCK_SCALE_FACTOR, "2.x-", FLINT_CLOCK_SCALE_FACTOR),
    NAME(clock_last, "2.x-", clock_last),
    NAME(clock_accum, "2.x-", clock_accum),
    NAME(get_cycle_counter, "2.x-", &get_cycle_counter),
    NAME(init_clock, "2.x-", &init_clock),
    NAME(init_all_clocks, "2.x-", &init_all_clocks),
    NAME(get_clock, "2.x-", &get_clock),
    NAME(start_clock, "2.x-", &start_clock),
    NAME(stop_clock, "2.x-", &stop_clock),
    NAME(prof_start, "2.x-", &prof_start),
    NAME(prof_stop, "2.x-", &prof_stop),
    NAME(profile_target_t, "2.x-", profile_target_t),
    NAME(prof_repeat, "2.x-", &prof_repeat),
    NAME(DURATION_TARGET, "2.x-", DURATION_TARGET),
    NAME(DURATION_THRESHOLD, "2.x-", DURATION_THRESHOLD),
    /* FLINT 3.0 on */
    NAME(timeit_start_us, "3.0-", &timeit_start_us),
    NAME(timeit_stop_us, "3.0-", &timeit_stop_us),
    NAME(TIMEIT_STOP_VALUES, "3.0-", STATEMENT),
    /* FLINT 3.4 on */
    NAME(timeit_print, "3.4-", &timeit_print),
    NAME(fprint_memory_usage, "3.4-", &fprint_memory_usage),
    NAME(print_memory_usage, "3.4-", &print_memory_usage),
    NAME(FLINT_HAVE_get_cycle_counter, "3.4-", STATEMENT),
    NAME(FLINT_HAVE_getrusage, "3.4-", STATEMENT),
};

static volatile double sink;

static void target(void * arg, ulong count)
{
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
    {
        prof_start();
        sink = sink * 1.0000001 + 1.0;
        prof_stop();
    }
}

int main(void)
{
    size_t i, n = sizeof names / sizeof names[0];
    capture_t cap;
    const char * out;
    meminfo_t m;
    timeit_t t;
    double tcpu = -1, twall = -1, mn, mx;
    slong reps;

    for (i = 0; i < n; i++)
        CHECK(names[i].use > 0, "%s", names[i].name);
    printf("%d FLINT names compile here\n", (int) n);

    /* The statement macros, in FLINT 2's spelling (no semicolon after
       them) and FLINT 3's (one). */
    capture_begin(&cap, 1);
    TIMEIT_START
        sink += 1.0;
    TIMEIT_STOP
    TIMEIT_START
        sink += 1.0;
    TIMEIT_STOP;
    TIMEIT_ONCE_START
        sink += 1.0;
    TIMEIT_ONCE_STOP
    TIMEIT_REPEAT(t, reps)
        sink += 1.0;
    TIMEIT_END_REPEAT(t, reps)
    TIMEIT_PRINT(t, reps)
    timeit_print(t, (ulong) reps);
    SHOW_MEMORY_USAGE
    SHOW_MEMORY_USAGE;
    print_memory_usage();
    fprint_memory_usage(stdout);
    out = capture_end(&cap);
    CHECK(check_matches(out, "^(cpu/wall\\(s\\): [^\n]*\n){5}"
                        "(virt/peak/res/peak\\(MB\\):( [0-9.]+| n/a){4}\n){2}"
                        "(virt/[a-z/]*: [^\n]*\n){2}$"), "stdout [%s]", out);
    TIMEIT_START
        sink += 1.0;
    TIMEIT_STOP_VALUES(tcpu, twall)
    CHECK(tcpu >= 0 && twall >= 0 && tcpu < 1 && twall < 1, "%g %g", tcpu, twall);

    /* The functions, once each. */
    timeit_start(t);
    CHECK(timeit_query_wall(t) >= 0, "query_wall");
    timeit_stop(t);
    timeit_start_us(t);
    timeit_stop_us(t);
    CHECK(t->wall >= 0, "wall %ld", (long) t->wall);
    get_memory_usage(m);
    CHECK(m->size >= m->rss && m->peak >= m->size && m->hwm >= m->rss,
          "meminfo %lu %lu %lu %lu", (unsigned long) m->size,
          (unsigned long) m->peak, (unsigned long) m->rss, (unsigned long) m->hwm);
    init_all_clocks();
    init_clock(1);
    start_clock(1);
    sink += get_cycle_counter();
    stop_clock(1);
    CHECK(get_clock(1) >= 0 && clock_accum[1] >= 0 && clock_last[1] > 0,
          "clock 1: %g", get_clock(1));
    CHECK(FLINT_CLOCK_SCALE_FACTOR * FLINT_CLOCKSPEED > 0.999999e6
          && FLINT_NUM_CLOCKS == 20 && DURATION_TARGET == 10000.0
          && DURATION_THRESHOLD == 5000.0, "constants");
    {
        profile_target_t f = target;
        prof_repeat(&mn, &mx, f, NULL);
        CHECK(mn > 0 && mn <= mx, "prof_repeat %g %g", mn, mx);
    }
    return check_report("test_flint_names");
}
