/* Threads that use the library at once: the first prof_tick_rate() call is
   measured once and every thread sees the same value; each thread has its
   own clocks, so that clocks and prof_repeat (clock 0) are used from
   several threads at once; each thread also opens, uses and closes a
   counter set of its own at the same time as the others (one set per
   thread is allowed). Run under TSan in CI. */
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
    prof_counters c;
    prof_counter_value v[2];
    int ok, n = prof_counters_open(&c, "task-clock,context-switches");
    ok = n >= 0 && prof_counters_start(&c) == 0;
    sleep_ms(2);
    ok = ok && prof_counters_stop(&c) == 0 && prof_counters_read(&c, v) == 0;
    /* available events count something; unavailable ones read NaN */
    ok = ok && (prof_counters_available(&c, 1) ? v[1].value >= 1 : v[1].value != v[1].value);
    prof_counters_close(&c);
    return ok;
}

static double own[THREADS], repeat_min[THREADS];

/* A prof_repeat target timed between prof_start and prof_stop. */
static void timed_target(void * arg, ulong count)
{
    volatile ulong x = (ulong) (size_t) arg;
    ulong i;
    prof_start();
    for (i = 0; i < count; i++)
        x = x * 3 + 1;
    prof_stop();
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
    /* the clocks are this thread's: what another thread does at the same
       time does not show */
    init_clock(3);
    clock_accum[3] = (double) (i + 1);
    pthread_barrier_wait(&barrier);
    start_clock(5);
    stop_clock(5);
    pthread_barrier_wait(&barrier);
    own[i] = clock_accum[3];
    prof_repeat(&repeat_min[i], NULL, timed_target, (void *) (size_t) i);
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
        CHECK(own[i] == (double) (i + 1), "thread %d's clock 3 reads %g", i,
              own[i]);
        CHECK(repeat_min[i] > 0.0 && repeat_min[i] < 1e6, "prof_repeat %g us",
              repeat_min[i]);
    }
    CHECK(prof_tick_rate() == rates[0], "rate changed after the threads");
    CHECK(clock_accum[3] == 0.0, "the main thread's clock 3 reads %g",
          clock_accum[3]);
    return check_report("test_threads");
}
