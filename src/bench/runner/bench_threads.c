/*
    Multi-threaded benchmarks: a target run by n threads at once, each the
    same iterations per epoch. The runner's thread is thread 0; a pool of
    n - 1 threads waits for epochs (asleep on a condition variable between
    them, so that it takes no processor time from the benchmark). An epoch:
    the runner publishes the target and count and wakes the pool; each pool
    thread says it has arrived and spins until thread 0, once all have,
    starts the event counters and lets them go together, so that all start
    within a few hundred ns of each other instead of a wake-up apart, and
    after the counters' system calls. Then each thread reads its processor
    time and the clock, runs its call, reads the clock and its processor
    time again. The epoch's time is from the first thread's start to the
    last thread's end.

    Each thread times clock 0 and counts user counters in its own (thread-
    local) storage, and its own processor time (CLOCK_THREAD_CPUTIME_ID)
    around its call only: the spinning is in nobody's figure. One thread
    (no pool) is timed the same way, and this file also reads an epoch's
    processor time for the loop macro.
    Runs alive at the same time with the same number of threads (a
    comparison, an interleaved suite) share one pool; the last run to end
    stops its threads.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(PROF_IMPL_HAVE_THREADS)
# include <pthread.h>
# include <sched.h>
# include <time.h>
#endif

/* The meeting before an epoch's clock reads (nothing without a pool):
   thread 0 waits until the pool's threads have arrived, then releases
   them; they arrive and wait until released. */
static void wait_arrived(prof_impl_pool * p);
static void release(prof_impl_pool * p);
static void arrive_and_wait(prof_impl_pool * p);

/* ---- an epoch's processor time ---------------------------------------- */

/* What a pair of processor-clock reads adds (-1: not measured yet). Set
   once, before any pool thread reads it. */
static double cpu_read_ns = -1.0;

double prof_impl_epoch_cpu(void)
{
    if (prof_impl_fake_read != NULL)
        return prof_impl_fake_cpu_ns ? prof_impl_fake_cpu_ns() : 0.0;
    return prof_impl_thread_cpu_ns();
}

double prof_impl_cpu_read_cost(void)
{
    enum { PAIRS = 11 };
    double extra[PAIRS], npt;
    int k;
    if (prof_impl_fake_read != NULL)
        return 0.0;
    if (cpu_read_ns >= 0.0)
        return cpu_read_ns;
    npt = prof_impl_ns_per_tick();
    for (k = 0; k < PAIRS; k++)
    {
        /* an empty epoch's bracket: processor clock, counter, counter,
           processor clock */
        double c0 = prof_impl_epoch_cpu(), t0 = prof_impl_read();
        double t1 = prof_impl_read(), c1 = prof_impl_epoch_cpu();
        extra[k] = (c1 - c0) - (t1 - t0) * npt;
    }
    cpu_read_ns = prof_impl_median(extra, PAIRS);
    if (!(cpu_read_ns > 0.0))
        cpu_read_ns = 0.0;
    return cpu_read_ns;
}

double prof_impl_epoch_cpu_ns(double c0, double c1, double wall_ticks)
{
    double ns;
    if (prof_impl_fake_read != NULL)
        ns = prof_impl_fake_cpu_ns ? c1 - c0
                                   : wall_ticks * prof_impl_ns_per_tick();
    else
        ns = c1 - c0 - (cpu_read_ns > 0.0 ? cpu_read_ns : 0.0);
    return ns > 0.0 ? ns : 0.0;
}

/* Run f(arg, count) once on this thread into sh; leader: the runner's
   thread, which starts and stops the event counters ctr (NULL: none). */
static void share_run(prof_impl_share * sh, profile_target_t f, void * arg,
        ulong count, prof_impl_run_counters * ctr, prof_impl_pool * pool,
        int leader)
{
    double npt = prof_impl_ns_per_tick(), c0, c1;
    long s0, w0, w1;
    prof_impl_user_reset();
    s0 = prof_impl_switch_counts(&w0);
    /* the counters' ioctls before anybody's first clock read, and they
       and the spinning outside the processor times */
    if (!leader)
        arrive_and_wait(pool);
    else
    {
        wait_arrived(pool);
        if (ctr != NULL)
            prof_impl_bench_counters_start(ctr);
        release(pool);
    }
    /* the thread's own processor time (Google Benchmark's cpu_time: threads
       the target starts itself are not in it) */
    c0 = prof_impl_epoch_cpu();
    sh->timed = prof_impl_call_target(f, arg, count, &sh->start, &sh->end);
    c1 = prof_impl_epoch_cpu();
    if (ctr != NULL)
        prof_impl_bench_counters_stop(ctr, count);
    sh->switches = prof_impl_switch_counts(&w1) - s0;
    sh->waits = w1 - w0;
    prof_impl_user_harvest(sh->user);
    sh->cpu_ns = prof_impl_epoch_cpu_ns(c0, c1, sh->end - sh->start);
    /* The processor time covers the whole call, set-up included, the real
       time only prof_start..prof_stop: cap it at the timed wall time,
       which one thread cannot exceed there (doc/runner.md). */
    if (!isnan(sh->timed) && sh->cpu_ns > sh->timed * npt)
        sh->cpu_ns = sh->timed * npt;
}

void prof_impl_share_run(prof_impl_share * sh, profile_target_t f,
        void * arg, ulong count, prof_impl_run_counters * ctr)
{
    share_run(sh, f, arg, count, ctr, NULL, 1);
}

#if defined(PROF_IMPL_HAVE_THREADS)

struct prof_impl_pool
{
    int n, refs;
    pthread_mutex_t mu;
    pthread_cond_t go, finished;
    unsigned long generation;   /* epochs published */
    int done;                   /* pool threads done with this epoch */
    int quit;
    int arrived;                /* pool threads ready to start (atomic) */
    int released;               /* 1: they start (atomic) */
    profile_target_t f;
    void * arg;
    ulong count;
    pthread_t * th;             /* [n - 1] */
    prof_impl_share * shares;   /* [n], the runner's first */
    struct pool_thread { prof_impl_pool * p; int k; } * who;   /* [n] */
    prof_impl_pool * next;
};

static pthread_mutex_t pools_mu = PTHREAD_MUTEX_INITIALIZER;
static prof_impl_pool * pools;

/* Spin until *v reaches want, yielding after 100 spins: with more
   threads than cores, the ones awaited get to run. */
static void spin_until(int * v, int want)
{
    int spins = 0;
    while (__atomic_load_n(v, __ATOMIC_ACQUIRE) < want)
        if (++spins > 100)
            sched_yield();
}

static void wait_arrived(prof_impl_pool * p)
{
    if (p != NULL)
        spin_until(&p->arrived, p->n - 1);
}

static void release(prof_impl_pool * p)
{
    if (p != NULL)
        __atomic_store_n(&p->released, 1, __ATOMIC_RELEASE);
}

static void arrive_and_wait(prof_impl_pool * p)
{
    __atomic_add_fetch(&p->arrived, 1, __ATOMIC_RELEASE);
    spin_until(&p->released, 1);
}

static void * pool_thread(void * arg)
{
    struct pool_thread * who = (struct pool_thread *) arg;
    prof_impl_pool * p = who->p;
    unsigned long seen = 0;
    for (;;)
    {
        profile_target_t f;
        void * farg;
        ulong count;
        pthread_mutex_lock(&p->mu);
        while (p->generation == seen && !p->quit)
            pthread_cond_wait(&p->go, &p->mu);
        seen = p->generation;
        f = p->f;
        farg = p->arg;
        count = p->count;
        if (p->quit)
        {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        pthread_mutex_unlock(&p->mu);
        share_run(&p->shares[who->k], f, farg, count, NULL, p, 0);
        pthread_mutex_lock(&p->mu);
        if (++p->done == p->n - 1)
            pthread_cond_signal(&p->finished);
        pthread_mutex_unlock(&p->mu);
    }
}

/* Stop the pool's first started threads and free it. */
static void pool_free(prof_impl_pool * p, int started)
{
    int k;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (k = 0; k < started; k++)
        pthread_join(p->th[k], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->finished);
    free(p->th);
    free(p->shares);
    free(p->who);
    free(p);
}

/* A new pool of n - 1 threads, or NULL after a message. */
static prof_impl_pool * pool_new(int n)
{
    prof_impl_pool * p = (prof_impl_pool *) calloc(1, sizeof *p);
    int k, rc = 0;
    if (p == NULL || (p->th = (pthread_t *) calloc((size_t) n, sizeof *p->th)) == NULL
        || (p->shares = (prof_impl_share *) calloc((size_t) n, sizeof *p->shares)) == NULL
        || (p->who = (struct pool_thread *) calloc((size_t) n, sizeof *p->who)) == NULL)
    {
        if (p != NULL)
        {
            free(p->th);
            free(p->shares);
        }
        free(p);
        prof_impl_warn("%d threads: out of memory", n);
        return NULL;
    }
    p->n = n;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->finished, NULL);
    for (k = 1; k < n && rc == 0; k++)
    {
        p->who[k].p = p;
        p->who[k].k = k;
        rc = pthread_create(&p->th[k - 1], NULL, pool_thread, &p->who[k]);
    }
    if (rc != 0)
    {
        prof_impl_warn("%d threads: cannot start thread %d: %s", n, k - 1,
                       strerror(rc));
        pool_free(p, k - 2);
        return NULL;
    }
    return p;
}

prof_impl_pool * prof_impl_pool_get(int threads)
{
    prof_impl_pool * p;
    pthread_mutex_lock(&pools_mu);
    for (p = pools; p != NULL && p->n != threads; p = p->next)
        ;
    if (p == NULL && (p = pool_new(threads)) != NULL)
    {
        p->next = pools;
        pools = p;
    }
    if (p != NULL)
        p->refs++;
    pthread_mutex_unlock(&pools_mu);
    return p;
}

void prof_impl_pool_put(prof_impl_pool * p)
{
    prof_impl_pool ** at;
    if (p == NULL)
        return;
    pthread_mutex_lock(&pools_mu);
    if (--p->refs > 0)
    {
        pthread_mutex_unlock(&pools_mu);
        return;
    }
    for (at = &pools; *at != p; at = &(*at)->next)
        ;
    *at = p->next;
    pthread_mutex_unlock(&pools_mu);
    pool_free(p, p->n - 1);
}

const prof_impl_share * prof_impl_pool_run(prof_impl_pool * p,
        profile_target_t f, void * arg, ulong count,
        prof_impl_run_counters * ctr)
{
    pthread_mutex_lock(&p->mu);
    p->f = f;
    p->arg = arg;
    p->count = count;
    p->done = 0;
    __atomic_store_n(&p->arrived, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&p->released, 0, __ATOMIC_RELEASE);
    p->generation++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    share_run(&p->shares[0], f, arg, count, ctr, p, 1);
    pthread_mutex_lock(&p->mu);
    while (p->done < p->n - 1)
        pthread_cond_wait(&p->finished, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return p->shares;
}

#else   /* no threads: the setters refuse more than one */

static void wait_arrived(prof_impl_pool * p)
{
    (void) p;
}

static void release(prof_impl_pool * p)
{
    (void) p;
}

static void arrive_and_wait(prof_impl_pool * p)
{
    (void) p;
}

prof_impl_pool * prof_impl_pool_get(int threads)
{
    prof_impl_warn("%d threads: this build runs a target on one thread "
                   "only", threads);
    return NULL;
}

void prof_impl_pool_put(prof_impl_pool * p)
{
    (void) p;
}

const prof_impl_share * prof_impl_pool_run(prof_impl_pool * p,
        profile_target_t f, void * arg, ulong count,
        prof_impl_run_counters * ctr)
{
    (void) p; (void) f; (void) arg; (void) count; (void) ctr;
    return NULL;
}
#endif
