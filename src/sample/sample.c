/*
    In-process sampling (prof_sample_start / prof_sample_stop): perf events
    on the task clock (sample_ring.c), drained by a reader thread of the
    sampler's own, which interns the call chains and writes STACKS and
    SAMPLES chunks into the trace file beside the zones, and a SAMPLING
    chunk with the counts at the stop (src/trace/trace_format.h).
    The reader thread is made before the events are opened, so it is never
    sampled itself, and blocks every signal. Samples are sorted by thread
    and time at each drain; those of the last SAMPLE_HOLD_NS wait for the
    next one, since each ring is in time order only by itself.
    SPDX-License-Identifier: MIT
*/
#include "sample_impl.h"
#include "trace_impl.h"
#include "profiler.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct
{
    int running;
    double hz;
    sample_rings rings;
    pthread_t thread;
    pthread_mutex_t mutex;      /* held while the events open */
    int wake[2];                /* the stop's pipe */
    /* time: CLOCK_MONOTONIC_RAW ns to ticks, through two sync points */
    uint64_t ns0, tk0, ns1, tk1;
    /* stacks: ips in a pool, a hash table of ids */
    uint64_t * ips;
    size_t nips, ipcap;
    size_t * first;             /* id -> start in ips; first[id + 1]: end */
    size_t nstacks, stcap, written;
    uint32_t * table;           /* id + 1, 0 empty */
    size_t tcap;
    sample_rec * batch;
    size_t nbatch, bcap;
    uint64_t samples, truncated, dropped, start61;
} sampler;

static sampler S = { 0, 0, { { 0 }, { 0 }, 0, 0, 0, 0 }, 0,
                     PTHREAD_MUTEX_INITIALIZER, { -1, -1 }, 0, 0, 0, 0,
                     NULL, 0, 0, NULL, 0, 0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, 0 };

/* ---- time ---------------------------------------------------------------- */

/* The counter and the raw clock read together: the narrowest of a few. */
static void sync_point(uint64_t * ns, uint64_t * tk)
{
    uint64_t best = UINT64_MAX;
    int i;
    for (i = 0; i < 7; i++)
    {
        struct timespec ts;
        uint64_t a = prof_impl_ticks(), b;
        clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
        b = prof_impl_ticks();
        if (b - a < best)
        {
            best = b - a;
            *tk = a + (b - a) / 2;
            *ns = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
        }
    }
}

static uint64_t ticks_of(uint64_t ns)
{
    double rate = S.ns1 > S.ns0 + 1000000 ? (double) (S.tk1 - S.tk0) / (double) (S.ns1 - S.ns0)
                                          : TR.tick_rate * 1e-9;
    double d = ((double) ns - (double) S.ns0) * rate;
    return (uint64_t) ((double) S.tk0 + d);
}

/* ---- stacks ---------------------------------------------------------------- */

static uint64_t hash_ips(const uint64_t * ip, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ n;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ ip[i]) * 0x100000001B3u;
    return h ^ (h >> 29);
}

static int same(uint32_t id, const uint64_t * ip, size_t n)
{
    size_t a = S.first[id], b = S.first[id + 1];
    return b - a == n && memcmp(S.ips + a, ip, n * 8) == 0;
}

static int grow_table(void)
{
    size_t cap = S.tcap ? 2 * S.tcap : 4096, i;
    uint32_t * t = (uint32_t *) calloc(cap, sizeof *t);
    if (t == NULL)
        return -1;
    for (i = 0; i < S.nstacks; i++)
    {
        size_t at = hash_ips(S.ips + S.first[i], S.first[i + 1] - S.first[i]) & (cap - 1);
        while (t[at] != 0)
            at = (at + 1) & (cap - 1);
        t[at] = (uint32_t) i + 1;
    }
    free(S.table);
    S.table = t;
    S.tcap = cap;
    return 0;
}

/* The id of chain ip[0..n), made if new; PROF_TF_NO_STACK if there is no
   room (the table is full or memory ran out). */
static uint32_t intern(const uint64_t * ip, size_t n)
{
    size_t at;
    if ((S.nstacks + 1) * 2 > S.tcap && grow_table() != 0)
        return PROF_TF_NO_STACK;
    at = hash_ips(ip, n) & (S.tcap - 1);
    for (; S.table[at] != 0; at = (at + 1) & (S.tcap - 1))
        if (same(S.table[at] - 1, ip, n))
            return S.table[at] - 1;
    if (S.nstacks + 1 >= PROF_TF_NO_STACK
        || prof_impl_grow(&S.ips, &S.ipcap, S.nips + n, 8) != 0
        || prof_impl_grow(&S.first, &S.stcap, S.nstacks + 2, sizeof *S.first) != 0)
        return PROF_TF_NO_STACK;
    memcpy(S.ips + S.nips, ip, n * 8);
    S.first[S.nstacks] = S.nips;
    S.nips += n;
    S.first[S.nstacks + 1] = S.nips;
    S.table[at] = (uint32_t) ++S.nstacks;
    return (uint32_t) S.nstacks - 1;
}

static void on_sample(void * ctx, uint32_t tid, uint64_t ns, const uint64_t * ip,
                      size_t n, int truncated)
{
    sample_rec * r;
    (void) ctx;
    if (prof_impl_grow(&S.batch, &S.bcap, S.nbatch + 1, sizeof *S.batch) != 0)
    {
        S.dropped++;
        return;
    }
    r = &S.batch[S.nbatch++];
    r->tid = tid;
    r->ns = ns;
    r->stack = intern(ip, n);
    r->flags = truncated ? PROF_TF_SAMPLE_TRUNCATED : 0;
    S.truncated += truncated != 0;
}

/* ---- chunks ---------------------------------------------------------------- */

/* The stacks made since the last call, in chunks of at most 1 MiB. */
static void write_stacks(void)
{
    while (S.written < S.nstacks)
    {
        size_t words = 0, id = S.written, cap = 1 << 17;
        uint64_t * p = (uint64_t *) malloc(cap * 8);
        if (p == NULL)
            return;
        while (id < S.nstacks && words + 1 + (S.first[id + 1] - S.first[id]) <= cap)
        {
            uint32_t head[2];
            size_t k = S.first[id + 1] - S.first[id];
            head[0] = (uint32_t) id;
            head[1] = (uint32_t) k;
            memcpy(p + words, head, 8);
            memcpy(p + words + 1, S.ips + S.first[id], k * 8);
            words += 1 + k;
            id++;
        }
        prof_impl_tr_put_chunk(PROF_TF_STACKS, 0, p, words * 8);
        S.written = id;
        free(p);
    }
}

static int by_thread_time(const void * a, const void * b)
{
    const sample_rec * x = (const sample_rec *) a, * y = (const sample_rec *) b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* One thread's samples b[0..n) (sorted) as SAMPLES chunks. */
static void write_thread(const sample_rec * b, size_t n)
{
    uint64_t * p = (uint64_t *) malloc((n + 1) * 8), prev;
    size_t i, k = 1;
    if (p == NULL)
    {
        S.dropped += n;
        return;
    }
    prev = p[0] = ticks_of(b[0].ns) & PROF_TF_TICK_MASK;
    for (i = 0; i < n; i++)
    {
        uint64_t t = ticks_of(b[i].ns) & PROF_TF_TICK_MASK, d = (t - prev) & PROF_TF_TICK_MASK;
        if (d >> PROF_TF_DELTA_BITS)
        {
            if (prof_impl_tr_put_chunk(PROF_TF_SAMPLES, b[0].tid, p, k * 8) != 0)
                S.dropped += k - 1;
            k = 1;
            p[0] = prev = t;
            d = 0;
        }
        p[k++] = d << 24 | (uint64_t) b[i].stack << 3 | b[i].flags;
        prev = t;
    }
    if (prof_impl_tr_put_chunk(PROF_TF_SAMPLES, b[0].tid, p, k * 8) != 0)
        S.dropped += k - 1;
    else
        S.samples += k - 1;
    free(p);
}

/* The batch up to upto_ns (all of it: UINT64_MAX), the rest kept. */
static void write_batch(uint64_t upto_ns)
{
    size_t i = 0, j, kept = 0;
    write_stacks();
    qsort(S.batch, S.nbatch, sizeof *S.batch, by_thread_time);
    while (i < S.nbatch)
    {
        for (j = i; j < S.nbatch && S.batch[j].tid == S.batch[i].tid; j++)
            ;
        {
            size_t m = i;
            while (m < j && S.batch[m].ns <= upto_ns)
                m++;
            if (m > i)
                write_thread(S.batch + i, m - i);
            memmove(S.batch + kept, S.batch + m, (j - m) * sizeof *S.batch);
            kept += j - m;
        }
        i = j;
    }
    S.nbatch = kept;
}

static void drain(int last)
{
    sync_point(&S.ns1, &S.tk1);
    prof_impl_sample_rings_drain(&S.rings, on_sample, NULL);
    write_batch(last ? UINT64_MAX : S.ns1 - SAMPLE_HOLD_NS);
}

/* ---- the reader thread --------------------------------------------------- */

static void * reader(void * arg)
{
    struct pollfd p[SAMPLE_MAX_CPUS + 1];
    int i, stop = 0;
    (void) arg;
    pthread_mutex_lock(&S.mutex); /* the events are open */
    pthread_mutex_unlock(&S.mutex);
    while (!stop)
    {
        p[0].fd = S.wake[0];
        p[0].events = POLLIN;
        for (i = 0; i < S.rings.n; i++)
        {
            p[i + 1].fd = S.rings.fd[i];
            p[i + 1].events = POLLIN;
        }
        if (poll(p, (nfds_t) S.rings.n + 1, SAMPLE_POLL_MS) > 0 && (p[0].revents & POLLIN))
            stop = 1;
        if (S.rings.n > 0)
            drain(stop);
    }
    return NULL;
}

/* ---- the API -------------------------------------------------------------- */

/* The rate to use for hz (0: PROF_SAMPLE_HZ, else the default), or 0 after
   a message. */
static double rate_for(double hz)
{
    const char * e = getenv("PROF_SAMPLE_HZ");
    if (hz == 0 && e != NULL && e[0] != '\0')
    {
        char * end;
        hz = strtod(e, &end);
        if (*end != '\0' || !(hz > 0 && hz <= SAMPLE_MAX_HZ))
        {
            prof_impl_warn("PROF_SAMPLE_HZ=%s: not a rate in (0, %d] samples a "
                           "second; not sampling", e, SAMPLE_MAX_HZ);
            return 0;
        }
    }
    else if (hz == 0)
        hz = SAMPLE_DEFAULT_HZ;
    if (!(hz > 0 && hz <= SAMPLE_MAX_HZ))
    {
        prof_impl_warn("prof_sample_start: %g samples a second is out of range "
                       "(0, %d]; not sampling", hz, SAMPLE_MAX_HZ);
        return 0;
    }
    return hz;
}

static void refused(int err)
{
    char why[512];
    prof_impl_counters_reason(why, sizeof why, err, PROF_IMPL_WHY_LINUX,
                              prof_impl_perf_paranoid());
    prof_impl_warn("sampling: perf events refused (%s): %s; not sampling "
                   "(zones are still recorded)", strerror(err), why);
}

/* Threads of this process other than the caller: they are not sampled. */
static long other_threads(void)
{
    FILE * f = fopen("/proc/self/status", "r");
    char line[256];
    long n = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "Threads:", 8) == 0)
            n = strtol(line + 8, NULL, 10) - 1;
    if (f != NULL)
        fclose(f);
    return n;
}

static void put_sampling(uint64_t cpu_ns)
{
    uint64_t kv[][2] = {
        { PROF_TF_SAMPLING_METHOD, PROF_TF_METHOD_PERF },
        { PROF_TF_SAMPLING_EVENT, 1 /* PERF_COUNT_SW_TASK_CLOCK */ },
        { PROF_TF_SAMPLING_HZ, (uint64_t) (S.hz + 0.5) },
        { PROF_TF_SAMPLING_CLOCK, CLOCK_MONOTONIC_RAW },
        { PROF_TF_SAMPLING_RING, S.rings.ring_bytes },
        { PROF_TF_SAMPLING_MAX_STACK, S.rings.max_stack },
        { PROF_TF_SAMPLING_START, S.start61 },
        { PROF_TF_SAMPLING_STOP, prof_impl_ticks() & PROF_TF_TICK_MASK },
        { PROF_TF_SAMPLING_SAMPLES, S.samples },
        { PROF_TF_SAMPLING_LOST, S.rings.lost },
        { PROF_TF_SAMPLING_TRUNCATED, S.truncated },
        { PROF_TF_SAMPLING_DROPPED, S.dropped },
        { PROF_TF_SAMPLING_CPU_NS, cpu_ns } };
    prof_impl_tr_put_chunk(PROF_TF_SAMPLING, 0, kv, sizeof kv);
}

static void stop_at_exit(void)
{
    prof_sample_stop();
}

static int start_reader(void)
{
    sigset_t all, old;
    int rc;
    if (pipe(S.wake) != 0)
        return -1;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&S.thread, NULL, reader, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
    {
        close(S.wake[0]);
        close(S.wake[1]);
    }
    return rc == 0 ? 0 : -1;
}

static void end_reader(void)
{
    char c = 1;
    if (write(S.wake[1], &c, 1) != 1)
        prof_impl_warn("sampling: cannot wake the reader thread: %s", strerror(errno));
    pthread_join(S.thread, NULL);
    close(S.wake[0]);
    close(S.wake[1]);
}

int prof_sample_start(double hz)
{
    static int registered;
    int err;
    if (S.running)
    {
        prof_impl_warn("prof_sample_start: already sampling");
        return -1;
    }
    if ((hz = rate_for(hz)) == 0)
        return -1;
    if (prof_impl_trace_begin() != 0)
        return -1;
    S.hz = hz;
    sync_point(&S.ns0, &S.tk0);
    S.start61 = S.tk0 & PROF_TF_TICK_MASK;
    pthread_mutex_lock(&S.mutex);
    if (start_reader() != 0)
    {
        pthread_mutex_unlock(&S.mutex);
        prof_impl_warn("sampling: cannot start the reader thread; not sampling");
        return -1;
    }
    err = prof_impl_sample_rings_open(&S.rings, hz); /* after the thread */
    pthread_mutex_unlock(&S.mutex);
    if (err != 0)
    {
        end_reader();
        refused(err);
        return -1;
    }
    if (other_threads() > 0)
        prof_impl_warn("sampling: %ld threads started before prof_sample_start "
                       "are not sampled (start sampling at the top of main)",
                       other_threads());
    S.running = 1;
    if (!registered)
        registered = atexit(stop_at_exit) == 0;
    prof_impl_sample_rings_enable(&S.rings, 1);
    return 0;
}

void prof_sample_stop(void)
{
    uint64_t cpu_ns;
    if (!S.running)
        return;
    prof_impl_sample_rings_enable(&S.rings, 0);
    end_reader();
    cpu_ns = prof_impl_sample_rings_close(&S.rings);
    put_sampling(cpu_ns);
    if (S.rings.lost > 0 || S.dropped > 0)
        prof_impl_warn("sampling: %llu samples lost (the ring was full) and %llu "
                       "not written", (unsigned long long) S.rings.lost,
                       (unsigned long long) S.dropped);
    S.running = 0;
    S.samples = S.truncated = S.dropped = 0;
    S.rings.lost = 0;
}
