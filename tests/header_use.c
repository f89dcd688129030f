/* Uses every name of profiler.h, so that compiling it with
   -Wall -Wextra -pedantic -Werror in each language mode shows the header is
   clean there (tests/check_header.sh). Built as C and as C++, with
   -DPROF_TRACE (the markers' enabled form) and without. */
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

static double fit_sqrt(double n) { return n * 0.5; }

static double reading(void * arg) { (void) arg; return 1.0; }

static void counting(void * arg, ulong count)
{
    int h = prof_user_counter("bytes", PROF_USER_RATE);
    (void) arg;
    prof_user_count(h, (double) count);
}

static void use_bench(void)
{
    prof_bench * b = prof_bench_new();
    const prof_result * r;
    prof_comparison c;
    prof_fit fits[8];
    prof_format fmt = PROF_FORMAT_NONE;
    ulong x = 0;
    char arg0[] = "prog";
    char * argv[] = { arg0 };

    prof_bench_set_format(b, fmt);
    prof_bench_set_epochs(b, 6);
    prof_bench_set_min_epoch_time_ns(b, 1e4);
    prof_bench_set_max_epoch_time_ns(b, 1e6);
    prof_bench_set_resolution_multiple(b, 1000);
    prof_bench_set_min_epoch_iterations(b, 1);
    prof_bench_set_epoch_iterations(b, 0);
    prof_bench_set_warmup(b, 0);
    prof_bench_set_preempt_retries(b, 11);
    prof_bench_set_budget_s(b, 1);
    prof_bench_set_epoch_jitter(b, 0.2);
    prof_bench_set_batch(b, 1, "op");
    prof_bench_set_time_unit(b, "ns");
    prof_bench_set_relative(b, 0);
    prof_bench_set_complexity_n(b, 10);
    prof_bench_set_interleave(b, 1);
    prof_bench_set_terminal(b, PROF_TERMINAL_AUTO);
    prof_bench_set_counters(b, NULL);
    prof_bench_set_threads(b, 1);
    prof_bench_set_sizes_flag(b, 1);
    prof_bench_add_measure(b, "reads", "B", reading, reading, NULL);
    prof_bench_set_output(b, stdout);
    (void) prof_bench_set_output_path;
    prof_bench_set_filter(b, "");
    prof_bench_args(b, 1, argv);
    r = prof_bench_run(b, "t", target, NULL);
    prof_bench_add(b, "t2", target, NULL);
    prof_bench_run_all(b);
    PROF_BENCH_LOOP(b, "loop") { x++; PROF_DO_NOT_OPTIMIZE(x); PROF_CLOBBER(); }
    (void) prof_result_percentile(r, 50);
    (void) prof_result_counter(r, "page-faults");
    if (r != NULL && r->ncounters > 0)
        (void) (r->counters[0] + r->ipc + r->branch_miss_pct
                + (double) (r->counter_names[0][0]));
    (void) prof_bench_result(b, prof_bench_count(b) - 1);
    r = prof_bench_run_threads(b, "t", counting, NULL, 2);
    (void) prof_result_user(r, "bytes");
    if (r != NULL && r->nuser > 0)
        (void) (r->user[0] + r->user_flags[0] + r->threads
                + (double) (r->user_names[0][0] + r->user_units[0][0]));
    {
        static const ulong sizes[2] = { 1, 2 };
        (void) prof_bench_run_sizes(b, "s", target, sizes, 2);
        (void) prof_bench_run_range(b, "s", target, 1, 4, 2);
        (void) (PROF_SIZES_MAX + PROF_THREADS_MAX + PROF_MEASURES_MAX
                + PROF_USER_COUNTERS_MAX + PROF_USER_MEASURE);
    }
    c = prof_bench_compare(b, "a", target, NULL, "b", target, NULL);
    prof_bench_add_complexity(b, "O(n/2)", fit_sqrt);
    (void) prof_bench_complexity(b, NULL, fits, 8);
    prof_bench_print_complexity(stdout, b, NULL);
    prof_bench_write(stdout, b, PROF_FORMAT_CSV);
    prof_bench_finish(b);
    prof_bench_free(b);
    (void) c.significant;
    (void) (PROF_RESULT_UNSTABLE | PROF_RESULT_BIMODAL | PROF_RESULT_BUDGET
            | PROF_RESULT_RESOLUTION | PROF_RESULT_FEW_EPOCHS);
    (void) PROF_FORMAT_MD; (void) PROF_FORMAT_CSV; (void) PROF_FORMAT_JSON;
}

static int traced(int n)
{
    PROF_FUNC();
    PROF_ZONE("scoped");
    PROF_ZONE_BEGIN("zone");
    PROF_ZONE_END("zone");
    PROF_FUNC_BEGIN();
    PROF_FUNC_END();
    /* the annotations are statements anywhere, in both modes */
    if (n > 1)
        PROF_ZONE_VALUE(n);
    else
        PROF_ZONE_VALUE_F(n * 0.5);
    if (n > 2)
        PROF_ZONE_TEXT("text", 4);
    if (n > 3)
        PROF_MESSAGE("message");
    if (n > 4)
        PROF_PLOT("n", n);
    if (n > 5)
        PROF_FRAME_MARK();
    if (n > 6)
        PROF_FRAME_MARK_NAMED("frame");
    if (n > 7)
        PROF_LOCK_NAME(&n, "n");
    if (n > 8)
        PROF_LOCK_WAIT(&n);
    if (n > 9)
        PROF_LOCK_ACQUIRED(&n);
    if (n > 10)
        PROF_LOCK_RELEASED(&n);
    if (n > 11)
        PROF_ALLOC(&n, sizeof n);
    if (n > 12)
        PROF_FREE(&n);
    if (n > 0)
        return n;
    prof_trace_thread_name("main");
    return prof_trace_open(NULL) + prof_trace_flush() + (int) prof_trace_lost()
#if defined(PROF_TRACE)
           + PROF_TRACE_ENABLED
#endif
           ;
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
        meminfo_t m;
        get_memory_usage(m);
        (void) (m->size + m->peak + m->hwm + m->rss);
        SHOW_MEMORY_USAGE
        SHOW_MEMORY_USAGE;
    }
    {
        prof_counters c;
        prof_counter_value v[PROF_COUNTERS_MAX];
        prof_counters_t * old_name = &c;            /* the names before */
        prof_counter_value_t * old_value_name = v;
        char line[512];
        size_t size = sizeof line;
        (void) old_name; (void) old_value_name;
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
    use_bench();
    (void) traced(1);
    return (int) (tcpu + twall + mn + mx) * 0;
}
