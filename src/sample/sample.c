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
#include <link.h>
#include <math.h>
#include <stddef.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct
{
    int running;
    int from_env;               /* started by PROF_SAMPLE_HZ at the trace's open */
    int method;                 /* PROF_TF_METHOD_PERF, or _TIMER: the fallback */
    double hz;
    sample_rings rings;
    pthread_t thread;
    int wake[2];                /* the stop's pipe */
    /* time: CLOCK_MONOTONIC_RAW ns to ticks, through two sync points */
    uint64_t ns0, tk0, ns1, tk1;
    sample_writer w;
    uint64_t start61;
    unsigned long long loads;   /* objects loaded + unloaded at the last pass */
    uint64_t pass61;            /* ticks (mod 2^61) of the last pass */
} sampler;

static sampler S;                 /* zero: not sampling */
static pthread_mutex_t S_mutex = PTHREAD_MUTEX_INITIALIZER;

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

static void on_sample(void * ctx, uint32_t pid, uint32_t tid, uint64_t ns,
                      const uint64_t * ip, size_t n, int flags, const sample_copy * c)
{
    (void) ctx;
    (void) pid; /* this process */
    prof_impl_sw_add(&S.w, 0, tid, ns, ip, n, flags, 1, c);
}

static int put(void * ctx, uint32_t type, uint32_t tid, const void * p, size_t n)
{
    (void) ctx;
    return prof_impl_tr_put_chunk(type, tid, p, n);
}

static uint64_t ticks_for(void * ctx, uint64_t ns)
{
    (void) ctx;
    return ticks_of(ns);
}

static int count_loads(struct dl_phdr_info * info, size_t size, void * ctx)
{
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
        *(unsigned long long *) ctx = info->dlpi_adds + info->dlpi_subs;
    return 1; /* the counts are the loader's, the same for every object */
}

/* The mappings again (MAPS2, replacing the process's) when the loader has
   loaded or unloaded objects since the last pass (dlopen, dlclose),
   stamped with that pass's time: they were unchanged until then. */
static void maps_if_changed(void)
{
    unsigned long long n = 0;
    uint64_t now61 = prof_impl_ticks() & PROF_TF_TICK_MASK, * p;
    size_t len = 0;
    char * text;
    dl_iterate_phdr(count_loads, &n);
    if (S.loads != 0 && n != S.loads && (text = prof_impl_tr_read_maps(&len)) != NULL)
    {
        if ((p = (uint64_t *) malloc(16 + len)) != NULL)
        {
            uint32_t flags[2] = { PROF_TF_MAPS_REPLACE, 0 };
            p[0] = S.pass61;
            memcpy(p + 1, flags, 8);
            memcpy(p + 2, text, len);
            (void) prof_impl_tr_put_chunk(PROF_TF_MAPS2, 0, p, 16 + len);
            free(p);
        }
        free(text);
    }
    S.loads = n;
    S.pass61 = now61;
}

static void drain(int last)
{
    maps_if_changed();
    sync_point(&S.ns1, &S.tk1);
    if (S.method == PROF_TF_METHOD_TIMER)
        prof_impl_sample_timers_poll(&S.w); /* new threads get timers too */
    else
        prof_impl_sample_rings_drain(&S.rings, on_sample, NULL, NULL);
    prof_impl_sw_flush(&S.w, last ? UINT64_MAX : S.ns1 - SAMPLE_HOLD_NS);
}

/* ---- the reader thread --------------------------------------------------- */

static void * reader(void * arg)
{
    struct pollfd p[SAMPLE_MAX_CPUS + 1];
    int i, stop = 0;
    (void) arg;
    pthread_mutex_lock(&S_mutex); /* the events are open */
    pthread_mutex_unlock(&S_mutex);
    if (S.method == PROF_TF_METHOD_TIMER)
        drain(0); /* the timers armed at once */
    while (!stop)
    {
        p[0].fd = S.wake[0];
        p[0].events = POLLIN;
        for (i = 0; i < S.rings.n; i++)
        {
            p[i + 1].fd = S.rings.fd[i];
            p[i + 1].events = POLLIN;
        }
        if (poll(p, (nfds_t) S.rings.n + 1, S.method == PROF_TF_METHOD_TIMER
                 ? SAMPLE_TIMER_SCAN_MS : SAMPLE_POLL_MS) > 0 && (p[0].revents & POLLIN))
            stop = 1;
        if (S.rings.n > 0 || S.method == PROF_TF_METHOD_TIMER)
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
        if ((hz = prof_impl_sample_rate(e)) == 0)
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

/* PROF_SAMPLE_CALL_GRAPH: fp, dwarf or dwarf,BYTES as the bytes of stack
   to copy a sample (else the default, after a message for another value). */
static unsigned cg_for(void)
{
    const char * e = getenv("PROF_SAMPLE_CALL_GRAPH");
    long cg = e != NULL && e[0] != '\0' ? prof_impl_sample_cg(e) : (long) SAMPLE_CG_DEFAULT;
    if (cg < 0)
        prof_impl_warn("PROF_SAMPLE_CALL_GRAPH=%s: not fp, dwarf or dwarf,BYTES (%d to "
                       "%d); %s used", e, SAMPLE_MIN_STACK, SAMPLE_MAX_STACK,
                       SAMPLE_CG_DEFAULT == 0 ? "fp" : "dwarf");
    return cg < 0 ? SAMPLE_CG_DEFAULT : (unsigned) cg;
}

/* Perf events refused (err): the message, with the fallback's outcome
   (terr 0: in use; else an errno, why). */
static void refused(int err, int terr, const char * why)
{
    char reason[512];
    prof_impl_counters_reason(reason, sizeof reason, err, prof_impl_why_process(),
                              prof_impl_perf_paranoid());
    if (terr == 0)
        prof_impl_warn("sampling: perf events refused (%s): %s; sampling with the "
                       "fallback instead: a timer on each thread's CPU clock (SIGPROF "
                       "every %.0f us, at most the kernel's tick rate) and a "
                       "frame-pointer walk", strerror(err), reason, 1e6 / S.hz);
    else
        prof_impl_warn("sampling: perf events refused (%s): %s; the timer fallback "
                       "failed too (%s: %s); not sampling (zones are still recorded)",
                       strerror(err), reason, why, strerror(terr));
}

/* Threads of this process other than the caller, the sampler's reader
   (made already) and the recorder's writer: they are not sampled. */
static long other_threads(void)
{
    FILE * f = fopen("/proc/self/status", "r");
    char line[256];
    long n = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "Threads:", 8) == 0)
            n = strtol(line + 8, NULL, 10) - 2
                - (__atomic_load_n(&TR.writer_state, __ATOMIC_ACQUIRE) == 1);
    if (f != NULL)
        fclose(f);
    return n;
}

/* The settings and counts at the stop: the perf events', or the timers'
   (lost: their rings were full). */
static void put_sampling(uint64_t cpu_ns, uint64_t lost, uint64_t period_ns)
{
    int timer = S.method == PROF_TF_METHOD_TIMER;
    uint64_t kv[][2] = {
        { PROF_TF_SAMPLING_METHOD, (uint64_t) S.method },
        { PROF_TF_SAMPLING_EVENT, timer ? CLOCK_THREAD_CPUTIME_ID
                                        : 1 /* PERF_COUNT_SW_TASK_CLOCK */ },
        { PROF_TF_SAMPLING_HZ, (uint64_t) (S.hz + 0.5) },
        { PROF_TF_SAMPLING_PERIOD_NS, period_ns },
        { PROF_TF_SAMPLING_CLOCK, CLOCK_MONOTONIC_RAW },
        { PROF_TF_SAMPLING_RING, timer ? 0 : S.rings.ring_bytes },
        { PROF_TF_SAMPLING_MAX_STACK, timer ? SAMPLE_TIMER_FRAMES : S.rings.max_stack },
        { PROF_TF_SAMPLING_START, S.start61 },
        { PROF_TF_SAMPLING_STOP, prof_impl_ticks() & PROF_TF_TICK_MASK },
        { PROF_TF_SAMPLING_SAMPLES, S.w.samples },
        { PROF_TF_SAMPLING_LOST, lost },
        { PROF_TF_SAMPLING_TRUNCATED, S.w.truncated },
        { PROF_TF_SAMPLING_DROPPED, S.w.dropped },
        { PROF_TF_SAMPLING_CPU_NS, cpu_ns },
        { PROF_TF_SAMPLING_WEIGHT, S.w.weight } };
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

/* The perf events opened (after the reader thread), or the fallback;
   S_mutex held. 0, or -1 after a message. */
static int open_events(double hz)
{
    const char * why = "";
    unsigned cg = cg_for();
    int err = prof_impl_sample_rings_open(&S.rings, hz, 0, 1, cg), terr = 0, n;
    S.method = PROF_TF_METHOD_PERF;
    if (err != 0)
    {
        if ((terr = prof_impl_sample_timers_start(hz, cg, &why)) == 0)
            S.method = PROF_TF_METHOD_TIMER;
        refused(err, terr, why);
        return terr == 0 ? 0 : -1;
    }
    if ((n = (int) other_threads()) > 0)
        prof_impl_warn("sampling: %d threads started before prof_sample_start "
                       "are not sampled (start sampling at the top of main)", n);
    return 0;
}

int prof_sample_start(double hz)
{
    static int registered;
    int rc;
    if (S.running && S.from_env)
        return 0; /* PROF_SAMPLE_HZ's sampling goes on, at its rate */
    if (S.running)
    {
        prof_impl_warn("prof_sample_start: already sampling");
        return -1;
    }
    if ((hz = rate_for(hz)) == 0)
        return -1;
    if (prof_impl_trace_begin() != 0)
        return -1;
    if (S.running)
        return 0; /* that began the trace, whose open started PROF_SAMPLE_HZ's
                     sampling: it goes on, at its rate, as above */
    S.hz = hz;
    S.w.put = put;
    S.w.ticks = ticks_for;
    sync_point(&S.ns0, &S.tk0);
    S.start61 = S.tk0 & PROF_TF_TICK_MASK;
    S.loads = 0;
    maps_if_changed(); /* the loader's counts now: mappings are in MAPS */
    pthread_mutex_lock(&S_mutex);
    if (start_reader() != 0)
    {
        pthread_mutex_unlock(&S_mutex);
        prof_impl_warn("sampling: cannot start the reader thread; not sampling");
        return -1;
    }
    rc = open_events(hz);
    pthread_mutex_unlock(&S_mutex);
    if (rc != 0)
    {
        end_reader();
        return -1;
    }
    S.running = 1;
    if (!registered)
        registered = atexit(stop_at_exit) == 0;
    if (S.method == PROF_TF_METHOD_PERF)
        prof_impl_sample_rings_enable(&S.rings, 1);
    return 0;
}

void prof_sample_stop(void)
{
    sample_timer_counts c;
    if (!S.running)
        return;
    memset(&c, 0, sizeof c);
    if (S.method == PROF_TF_METHOD_PERF)
        prof_impl_sample_rings_enable(&S.rings, 0);
    end_reader();
    if (S.method == PROF_TF_METHOD_TIMER)
    {
        c = prof_impl_sample_timers_stop(&S.w);
        prof_impl_sw_flush(&S.w, UINT64_MAX);
    }
    else
    {
        c.cpu_ns = prof_impl_sample_rings_close(&S.rings);
        c.lost = S.rings.lost;
    }
    put_sampling(c.cpu_ns, c.lost, c.period_ns);
    if (c.lost > 0 || S.w.dropped > 0)
        prof_impl_warn("sampling: %llu samples lost (the ring was full) and %llu "
                       "not written", (unsigned long long) c.lost,
                       (unsigned long long) S.w.dropped);
    S.running = S.from_env = 0;
    S.w.samples = S.w.truncated = S.w.dropped = S.w.weight = 0;
    S.rings.lost = 0;
}

/* Called by the recorder when it opens its trace (a weak reference in
   src/trace/trace.c, so only where the sampler is linked): PROF_SAMPLE_HZ
   set starts sampling without a prof_sample_start call. */
void prof_impl_sample_at_open(void)
{
    const char * e = getenv("PROF_SAMPLE_HZ");
    if (e != NULL && e[0] != '\0' && !S.running && prof_sample_start(0) == 0)
        S.from_env = 1;
}
