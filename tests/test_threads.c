/* Threads that use the library at once: the first prof_tick_rate() call is
   measured once and every thread sees the same value (run under TSan in CI).
   The accumulating clocks are global, as in FLINT: not for use from two
   threads at once. Each thread also opens, uses and closes a counter set of
   its own at the same time as the others (one set per thread is allowed). */
#include "check.h"
#include "profiler.h"

#include <pthread.h>

enum { THREADS = 4 };

static pthread_barrier_t barrier;
static double rates[THREADS], overheads[THREADS];
static slong walls[THREADS];
static int counted[THREADS];

/* A counter set of this thread's own: open, count 2 ms of sleep, close. */
static int own_counters(void)
{
    prof_counters_t c;
    prof_counter_value_t v[2];
    int ok, n = prof_counters_open(&c, "task-clock,context-switches");
    ok = n >= 0 && prof_counters_start(&c) == 0;
    sleep_ms(2);
    ok = ok && prof_counters_stop(&c) == 0 && prof_counters_read(&c, v) == 0;
    /* available events count something; unavailable ones read NaN */
    ok = ok && (prof_counters_available(&c, 1) ? v[1].value >= 1 : v[1].value != v[1].value);
    prof_counters_close(&c);
    return ok;
}

static void * worker(void * arg)
{
    int i = (int) (size_t) arg;
    timeit_t t;
    pthread_barrier_wait(&barrier);
    timeit_start(t);
    rates[i] = prof_tick_rate();
    overheads[i] = prof_tick_overhead();
    sleep_ms(5);
    counted[i] = own_counters();
    timeit_stop(t);
    walls[i] = t->wall;
    return NULL;
}

int main(void)
{
    pthread_t th[THREADS];
    int i;

    pthread_barrier_init(&barrier, NULL, THREADS);
    for (i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, worker, (void *) (size_t) i);
    for (i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&barrier);

    for (i = 0; i < THREADS; i++)
    {
        CHECK(rates[i] == rates[0], "thread %d saw rate %g, thread 0 %g", i, rates[i], rates[0]);
        CHECK(rates[i] > 1e6, "rate %g", rates[i]);
        CHECK(overheads[i] >= 0 && overheads[i] < 1e6, "overhead %g", overheads[i]);
        CHECK(walls[i] >= 4, "wall %ld ms", (long) walls[i]);
        CHECK(counted[i], "thread %d: its own counter set failed", i);
    }
    CHECK(prof_tick_rate() == rates[0], "rate changed after the threads");
    return check_report("test_threads");
}
