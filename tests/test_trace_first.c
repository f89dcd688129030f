/* The recorder's set-up is not charged to a zone: a thread's first zone
   (the thread's record, its buffer touched page by page, its label ids)
   costs what its later zones cost. Every zone spins for SPIN_US on the
   counter, so that a zone's own cost is known; the 4 MiB buffers make the
   set-up (1024 page faults, ~0.3 ms here) many times that. The first zone
   of main and of each of THREADS threads, alive together so that each
   gets a new record, is compared with the median zone of the trace: it
   must be within 2x. A loaded machine may preempt one thread inside its
   first zone, so the median of those ratios is what must stay under 2
   (before the fix each was 10x or more). The threads record one after
   another, each started once the one before has recorded: spinning
   together on two cores, a thread just created preempted the others
   inside their first zones (3-8x under a loaded CI). */
#define PROF_TRACE 1
#define TRACE_TEST_DIR "/tmp/prof-trace-first-XXXXXX"
#include "trace_util.h"

#include <pthread.h>

enum { THREADS = 4, ZONES = 21, SPIN_US = 20 };

static unsigned long long spin_ticks;
static pthread_barrier_t all_recorded;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t recorded_one = PTHREAD_COND_INITIALIZER;
static int recorded;    /* threads that have recorded their zones */

static void spin(void)
{
    unsigned long long t0 = prof_impl_ticks();
    while (prof_impl_ticks() - t0 < spin_ticks)
        ;
}

static void record(void)
{
    int i;
    for (i = 0; i < ZONES; i++)
    {
        PROF_ZONE_BEGIN("spin");
        spin();
        PROF_ZONE_END("spin");
    }
}

static void * thread_main(void * arg)
{
    (void) arg;
    record();
    pthread_mutex_lock(&lock);
    recorded++;
    pthread_cond_signal(&recorded_one);
    pthread_mutex_unlock(&lock);
    pthread_barrier_wait(&all_recorded); /* no record freed for the next */
    return NULL;
}

static int by_value(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double * v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The first zone of each thread over the median zone: their median. */
static double first_over_median(const pt_trace * t)
{
    double all[(THREADS + 1) * ZONES], ratio[THREADS + 1], typical;
    size_t i, n = 0, th;
    for (i = 0; i < t->nzones && n < sizeof all / sizeof all[0]; i++)
        all[n++] = (double) (t->zones[i].end - t->zones[i].begin);
    CHECK(n == sizeof all / sizeof all[0], "%zu zones", n);
    CHECK(t->nthreads == THREADS + 1, "%zu threads", t->nthreads);
    typical = median(all, n);
    for (th = 0; th < t->nthreads && th <= THREADS; th++)
    {
        const pt_zone * first = NULL;
        for (i = 0; i < t->nzones && first == NULL; i++)
            if (t->zones[i].thread == th)
                first = &t->zones[i];
        ratio[th] = first != NULL ? (double) (first->end - first->begin) / typical : 0;
        printf("thread %zu: first zone %.1f us, median zone %.1f us: %.2fx\n",
               th, first != NULL ? (first->end - first->begin) / t->tick_rate * 1e6 : 0,
               typical / t->tick_rate * 1e6, ratio[th]);
    }
    return median(ratio, th);
}

int main(void)
{
    pthread_t th[THREADS];
    pt_trace t;
    const char * w;
    int i;
    double r;
    if (mkdtemp(dir) == NULL)
        return 1;
    set_path("first.ptrace");
    setenv("PROF_TRACE_BUFFER_KB", "4096", 1);
    spin_ticks = (unsigned long long) (SPIN_US * 1e-6 * prof_tick_rate());
    CHECK(prof_trace_open(path) == 0, "open");
    record();
    pthread_barrier_init(&all_recorded, NULL, THREADS);
    for (i = 0; i < THREADS; i++)
    {
        pthread_create(&th[i], NULL, thread_main, NULL);
        pthread_mutex_lock(&lock);
        while (recorded < i + 1)
            pthread_cond_wait(&recorded_one, &lock);
        pthread_mutex_unlock(&lock);
    }
    for (i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&all_recorded);
    CHECK(prof_trace_flush() == 0, "flush");
    CHECK(load_trace(path, &t, &w) == 0, "read: %s", w); /* no end yet */
    r = first_over_median(&t);
    CHECK(r < 2, "a thread's first zone is %.2fx the median zone: the "
          "recorder's set-up is charged to it", r);
    pt_free(&t);
    return finish_in(dir, "test_trace_first");
}
