/* Multi-threaded benchmarks (prof_bench_set_threads) under a fake clock
   of one time per thread, with exact figures: the time over all threads
   and per thread, processor time, iterations, every thread's calls, clock
   0 per thread, user counters added up, measures, the outputs, a sweep,
   a comparison, an interleaved suite; the loop macro and bad input; then
   one run on the real clock. Run under ThreadSanitizer in CI.

   The fake clock: each thread reads its own time (thread-local), which
   only its target advances. A measure, read by the runner's thread before
   every epoch, sets the epoch's start time that every thread takes at its
   first read in the epoch, so that all threads start the epoch at the
   same time, as they would behind the barrier. */
#include "check.h"
#include "bench.h"
#include "bench_check.h"

#include <math.h>
#include <pthread.h>
#include <time.h>

static __thread double tl_now;
static __thread unsigned long tl_epoch;
static double base;                 /* the epoch's start (written before
                                       the epoch is published) */
static unsigned long epoch = 1;

static double thread_fake_read(void)
{
    if (tl_epoch != epoch)
    {
        tl_epoch = epoch;
        tl_now = base;
    }
    return tl_now;
}

static double sync_epoch(void * arg)
{
    (void) arg;
    base = thread_fake_read();     /* the runner's thread: its time now */
    epoch++;
    return 0.0;
}

/* The threads that called, and how many calls. */
static pthread_t callers[64];
static int ncallers, calls;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void note_caller(void)
{
    int k;
    pthread_mutex_lock(&mu);
    calls++;
    for (k = 0; k < ncallers && !pthread_equal(callers[k], pthread_self()); k++)
        ;
    if (k == ncallers && ncallers < 64)
        callers[ncallers++] = pthread_self();
    pthread_mutex_unlock(&mu);
}

/* cost ns per iteration; 3 "bytes" and 1 "items" (a rate) per
   iteration; one "calls" per iteration for the measure. */
static double iterations_run;

static void target(void * arg, ulong count)
{
    double cost = *(const double *) arg;
    note_caller();
    prof_user_count(prof_user_counter("bytes", 0), 3.0 * (double) count);
    prof_user_count(prof_user_counter("items", PROF_USER_RATE),
                    (double) count);
    pthread_mutex_lock(&mu);
    iterations_run += (double) count;
    pthread_mutex_unlock(&mu);
    (void) thread_fake_read();
    tl_now += cost * (double) count;
}

static double read_iterations(void * arg)
{
    double v;
    (void) arg;
    pthread_mutex_lock(&mu);
    v = iterations_run;
    pthread_mutex_unlock(&mu);
    return v;
}

/* FLINT style: 1000 ns of set-up, then cost per iteration between
   prof_start and prof_stop (clock 0 is each thread's own). */
static void flint_target(void * arg, ulong count)
{
    double cost = *(const double *) arg;
    (void) thread_fake_read();
    tl_now += 1000.0;
    clock_last[0] = tl_now;
    tl_now += cost * (double) count;
    clock_accum[0] += tl_now - clock_last[0];
}

static void reset_callers(void)
{
    ncallers = calls = 0;
}

static prof_bench * suite(FILE * out, prof_format format)
{
    prof_bench * b = check_suite(out, format);
    prof_bench_add_measure(b, "sync", NULL, sync_epoch, sync_epoch, NULL);
    return b;
}

static void test_two_threads(void)
{
    static const double ten = 10.0;
    prof_bench * b = suite(NULL, PROF_FORMAT_NONE);
    const prof_result * r;
    int i;
    prof_bench_add_measure(b, "iters", NULL, read_iterations,
                           read_iterations, NULL);
    CHECK(prof_bench_set_threads(b, 2) == 0, "2 threads");
    reset_callers();
    r = prof_bench_run(b, "ten", target, (void *) &ten);
    CHECK(r != NULL, "no result");
    if (r == NULL)
        return;
    CHECK(strcmp(r->name, "ten/threads:2") == 0 && r->threads == 2, "%s, %d",
          r->name, r->threads);
    /* calibration 1, 10, ..., 10^4 iterations per thread (10^5 ns of
       wall time >= 1 ms / 10), then 1 ms / 10 ns per thread */
    CHECK(r->epochs == 11 && calls == 2 * (5 + 11) && ncallers == 2,
          "%d epochs, %d calls, %d threads", r->epochs, calls, ncallers);
    CHECK(pthread_equal(callers[0], pthread_self())
          || pthread_equal(callers[1], pthread_self()),
          "the runner's thread is one of them");
    for (i = 0; i < r->epochs; i++)
        CHECK(r->epoch_iters[i] == 100000, "epoch %d: %lu per thread", i,
              (unsigned long) r->epoch_iters[i]);
    CHECK(r->iterations == 2 * 11 * 100000UL, "iterations %lu",
          (unsigned long) r->iterations);
    /* 10 ns per iteration on each of 2 threads at once: 5 ns per
       operation over both, 10 per thread; 10 ns of processor time per
       operation */
    CHECK(near(r->median_ns, 5.0) && near(r->min_ns, 5.0)
          && near(r->max_ns, 5.0), "median %g", r->median_ns);
    CHECK(near(r->cpu_ns, 10.0), "cpu %g", r->cpu_ns);
    CHECK(prof_result_user(r, "bytes") == 3.0
          && prof_result_user(r, "iters") == 1.0, "bytes %g iters %g",
          prof_result_user(r, "bytes"), prof_result_user(r, "iters"));
    /* 2 items every 10 ns */
    CHECK(near(prof_result_user(r, "items"), 2e8), "items/s %g",
          prof_result_user(r, "items"));

    /* the setting stays for the next; run_threads just once */
    r = prof_bench_run_threads(b, "ten", target, (void *) &ten, 4);
    CHECK(r && strcmp(r->name, "ten/threads:4") == 0 && near(r->median_ns, 2.5)
          && near(r->cpu_ns, 10.0) && near(prof_result_user(r, "items"), 4e8),
          "4 threads: %g", r ? r->median_ns : -1);
    r = prof_bench_run(b, "ten", target, (void *) &ten);
    CHECK(r && r->threads == 2, "back to 2 threads");
    prof_bench_set_threads(b, 1);
    r = prof_bench_run(b, "ten", target, (void *) &ten);
    CHECK(r && strcmp(r->name, "ten") == 0 && r->threads == 1
          && near(r->median_ns, 10.0) && near(prof_result_user(r, "items"), 1e8),
          "one thread: %s %g", r ? r->name : "", r ? r->median_ns : -1);
    prof_bench_free(b);
}

static void test_flint_threads(void)
{
    static const double seven = 7.0;
    prof_bench * b = suite(NULL, PROF_FORMAT_NONE);
    const prof_result * r;
    prof_bench_set_threads(b, 2);
    r = prof_bench_run(b, "flint", flint_target, (void *) &seven);
    /* each thread's clock 0 times its own loop: 7 ns per iteration, 3.5
       per operation over 2 threads; the set-up is left out */
    CHECK(r && near(r->median_ns, 3.5), "median %g", r ? r->median_ns : -1);
    CHECK(r && r->cpu_ns <= 7.0 + 1e-9, "cpu capped at the timed part: %g",
          r ? r->cpu_ns : -1);
    prof_bench_free(b);
}

/* A clock whose every read costs 1 ns of the reading thread's time (the
   targets' own reads are free): the runner subtracts its measured cost of
   two reads (1 ns) from each epoch, so an epoch exact to the ns holds no
   read but its call's two. */
static double costly_read(void)
{
    double v = thread_fake_read();
    tl_now += 1.0;
    return v;
}

static void test_reads_in_epoch(void)
{
    static const double ten = 10.0;
    prof_bench * b;
    const prof_result * r;
    prof_impl_set_fake_clock(costly_read, 1e9);
    b = suite(NULL, PROF_FORMAT_NONE);
    r = prof_bench_run_threads(b, "ten", target, (void *) &ten, 2);
    CHECK(r && near(r->overhead_ns, 1.0) && near(r->median_ns, 5.0)
          && near(r->max_ns, 5.0), "2 threads: overhead %g, median %g",
          r ? r->overhead_ns : -1, r ? r->median_ns : -1);
    r = prof_bench_run(b, "ten", target, (void *) &ten);
    CHECK(r && near(r->median_ns, 10.0), "1 thread: median %g",
          r ? r->median_ns : -1);
    prof_bench_free(b);
    prof_impl_set_fake_clock(thread_fake_read, 1e9);
}

/* The event counters' start made slow: 5 ms of real time, then 5000 ns
   on the runner's thread's clock, which becomes the epoch's start for a
   thread that first reads its clock after it (as on the real clock). The
   pool's threads wait until the start is done: it is in no epoch. */
static double fake_instructions(const char * event, ulong iterations)
{
    (void) event;
    return (double) iterations;
}

static void slow_start(void)
{
    struct timespec ts = { 0, 5000000 };
    nanosleep(&ts, NULL);
    (void) thread_fake_read();
    tl_now += 5000.0;
    base = tl_now;
}

static void test_counters_start_outside(void)
{
    static const double ten = 10.0;
    prof_bench * b = suite(NULL, PROF_FORMAT_NONE);
    const prof_result * r;
    prof_impl_fake_counts = fake_instructions;
    prof_impl_fake_counters_start = slow_start;
    prof_bench_set_counters(b, "instructions");
    r = prof_bench_run_threads(b, "ten", target, (void *) &ten, 2);
    CHECK(r && near(r->median_ns, 5.0) && near(r->max_ns, 5.0)
          && prof_result_counter(r, "instructions") == 1.0,
          "median %g, max %g, instructions %g", r ? r->median_ns : -1,
          r ? r->max_ns : -1, r ? prof_result_counter(r, "instructions") : -1);
    prof_impl_fake_counters_start = NULL;
    prof_impl_fake_counts = NULL;
    prof_bench_free(b);
}

static void test_outputs(void)
{
    static const double ten = 10.0;
    FILE * f = tmpfile(), * csv = tmpfile(), * json = tmpfile();
    prof_bench * b = suite(f, PROF_FORMAT_MD);
    const char * s;
    prof_bench_set_wide(b, 1);
    prof_bench_set_threads(b, 2);
    prof_bench_run(b, "ten", target, (void *) &ten);
    s = check_slurp(f);
    CHECK(strstr(s, "|  time/op | time/op/thread |") && strstr(s, "| 5.000 ns "
          "|       10.00 ns |") && strstr(s, "`ten/threads:2`"), "table: %s", s);
    prof_bench_write(csv, b, PROF_FORMAT_CSV);
    s = check_slurp(csv);
    CHECK(strstr(s, ",samples,threads,") && strstr(s, "\"5;5;5;5;5;5;5;5;5;5;5\",2,"),
          "csv: %s", s);
    prof_bench_set_json_epochs(b, 1);    /* an entry per epoch */
    prof_bench_write(json, b, PROF_FORMAT_JSON);
    s = check_slurp(json);
    CHECK(strstr(s, "\"threads\": 2,\n      \"iterations\": 200000,\n"
                 "      \"real_time\": 5,\n      \"cpu_time\": 10,")
          /* 11 epochs, 4 aggregates, 3 percentiles */
          && check_count(s, "\"threads\": 2,") == 18, "json: %.2000s", s);
    prof_bench_free(b);
    fclose(f);
    fclose(csv);
    fclose(json);
}

/* 2 ns per unit of size per iteration. */
static void sized(void * arg, ulong count)
{
    (void) thread_fake_read();
    tl_now += 2.0 * (double) *(const ulong *) arg * (double) count;
}

static void test_sweep_compare_interleave(void)
{
    static const ulong sizes[4] = { 10, 20, 40, 80 };
    static const double ten = 10.0, fourteen = 14.0;
    FILE * f = tmpfile();
    prof_bench * b = suite(f, PROF_FORMAT_MD);
    prof_comparison c;
    prof_fit fits[8];
    capture_t cap;
    const char * s;
    int n;
    n = prof_bench_run_sizes(b, "lin", sized, sizes, 4);   /* 1 thread */
    prof_bench_set_threads(b, 2);
    capture_begin(&cap, 2);
    n += prof_bench_run_sizes(b, "lin", sized, sizes, 4);
    capture_end(&cap);
    CHECK(n == 8 && strcmp(prof_bench_result(b, 7)->name,
                           "lin/80/threads:2") == 0, "%d rows", n);
    /* each thread count is a family of its own: 2 ns x N on one thread,
       1 ns x N per operation on two */
    CHECK(prof_bench_complexity(b, "lin", fits, 8) > 0
          && strcmp(fits[0].name, "O(n)") == 0 && near(fits[0].coefficient, 2.0),
          "one thread: %s %g", fits[0].name, fits[0].coefficient);
    CHECK(prof_bench_complexity(b, "lin/threads:2", fits, 8) > 0
          && strcmp(fits[0].name, "O(n)") == 0 && near(fits[0].coefficient, 1.0),
          "two threads: %s %g", fits[0].name, fits[0].coefficient);
    s = check_slurp(f);
    CHECK(strstr(s, "complexity of `lin/threads:2` (4 sizes;"), "%s", s);

    c = prof_bench_compare(b, "a", target, (void *) &ten, "b", target,
                           (void *) &fourteen);
    CHECK(near(c.ratio, 1.4) && near(c.median_a_ns, 5.0), "ratio %g, a %g",
          c.ratio, c.median_a_ns);

    prof_bench_set_interleave(b, 1);
    prof_bench_add(b, "x", target, (void *) &ten);
    prof_bench_add(b, "y", target, (void *) &fourteen);
    CHECK(prof_bench_run_all(b) == 2, "run_all");
    n = prof_bench_count(b);
    CHECK(strcmp(prof_bench_result(b, n - 2)->name, "x/threads:2") == 0
          && near(prof_bench_result(b, n - 2)->median_ns, 5.0)
          && near(prof_bench_result(b, n - 1)->median_ns, 7.0),
          "interleaved: %g %g", prof_bench_result(b, n - 2)->median_ns,
          prof_bench_result(b, n - 1)->median_ns);
    prof_bench_free(b);
    fclose(f);
}

static void test_bad_and_loop(void)
{
    static const double ten = 10.0;
    prof_bench * b = suite(NULL, PROF_FORMAT_NONE);
    const prof_result * r;
    capture_t cap;
    const char * err;
    int i = 0;
    capture_begin(&cap, 2);
    CHECK(prof_bench_set_threads(b, 0) == -1
          && prof_bench_set_threads(b, -1) == -1
          && prof_bench_set_threads(b, PROF_THREADS_MAX + 1) == -1
          && prof_bench_set_threads(b, 1 << 30) == -1
          && prof_bench_set_threads(NULL, 2) == -1, "bad numbers taken");
    CHECK(prof_bench_run_threads(b, "x", target, (void *) &ten, 0) == NULL
          && prof_bench_run_threads(NULL, "x", target, (void *) &ten, 2) == NULL
          && prof_bench_run_threads(b, "x", NULL, (void *) &ten, 2) == NULL,
          "bad run_threads");
    err = capture_end(&cap);
    CHECK(prof_bench_count(b) == 0 && b->s.threads == 1, "%d results",
          prof_bench_count(b));
    CHECK(strstr(err, "profiler: prof_bench_set_threads: threads must be "
                 "1..256: bad value 0; setting unchanged")
          && strstr(err, "profiler: prof_bench_run_threads(\"x\"): nothing run"),
          "messages: %s", err);
    /* the loop macro runs on one thread, with a message */
    prof_bench_set_threads(b, 2);
    capture_begin(&cap, 2);
    PROF_BENCH_LOOP(b, "loop")
    {
        i++;
        tl_now += 1.0;
    }
    err = capture_end(&cap);
    r = prof_bench_result(b, prof_bench_count(b) - 1);
    CHECK(r && strcmp(r->name, "loop") == 0 && r->threads == 1
          && near(r->median_ns, 1.0), "loop: %s", r ? r->name : "");
    CHECK(strstr(err, "PROF_BENCH_LOOP(\"loop\"): inline code runs on one "
                 "thread"), "message: %s", err);
    prof_bench_free(b);
}

/* The real clock: the barrier, the threads' own processor time. */
static void spin(void * arg, ulong count)
{
    volatile unsigned long x = (unsigned long) (size_t) arg;
    ulong i;
    for (i = 0; i < count; i++)
        x = x * 3 + 1;
}

/* 100 ms of real time in each start of the event counters: the pool's
   threads spin (yielding) while it lasts. */
static void slower_start(void)
{
    struct timespec ts = { 0, 100000000 };
    nanosleep(&ts, NULL);
}

static void test_real_clock(void)
{
    prof_bench * b = prof_bench_new();
    const prof_result * r;
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_epochs(b, 6);
    prof_bench_set_budget_s(b, 2.0);
    r = prof_bench_run_threads(b, "spin", spin, (void *) 7, 2);
    CHECK(r && r->threads == 2 && r->epochs >= 1 && r->median_ns > 0.0
          && r->cpu_ns > 0.0 && r->iterations > 0, "real clock: %g ns, "
          "cpu %g", r ? r->median_ns : -1, r ? r->cpu_ns : -1);
    /* neither the slow start nor the spinning while it lasts is in an
       epoch's time or a thread's processor time: each thread's is at most
       the epoch's wall time. Bounds for a loaded machine, where a pool
       thread may wait milliseconds for a core once released: a typical
       epoch under 90% of the 100 ms start (it was over the start when the
       start was timed; under qemu-user at load 16 an epoch took 69 ms:
       the pool threads spin through the start, so a longer one costs
       CPU), the processor time per thread under 1.5x the wall. */
    prof_impl_fake_counts = fake_instructions;
    prof_impl_fake_counters_start = slower_start;
    prof_bench_set_counters(b, "instructions");
    prof_bench_set_epochs(b, 3);
    r = prof_bench_run_threads(b, "spin", spin, (void *) 7, 2);
    CHECK(r && r->epochs > 0
          && r->median_ns * (double) r->iterations / r->epochs < 90e6
          && r->cpu_ns <= 1.5 * 2 * r->max_ns,
          "a slow start: %g ns x %g iterations an epoch, cpu %g, max %g",
          r ? r->median_ns : -1, r && r->epochs ? (double) r->iterations / r->epochs : -1,
          r ? r->cpu_ns : -1, r ? r->max_ns : -1);
    prof_impl_fake_counters_start = NULL;
    prof_impl_fake_counts = NULL;
    prof_bench_free(b);
}

int main(void)
{
    prof_impl_set_fake_clock(thread_fake_read, 1e9);
    test_two_threads();
    test_flint_threads();
    test_reads_in_epoch();
    test_counters_start_outside();
    test_outputs();
    test_sweep_compare_interleave();
    test_bad_and_loop();
    prof_impl_set_fake_clock(NULL, 0);
    test_real_clock();
    return check_report("test_bench_threads");
}
