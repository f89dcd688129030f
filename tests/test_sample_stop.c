/*
    The timer fallback (perf events refused through the fake seam) on
    threads made after prof_sample_start and still running at
    prof_sample_stop, the usual shape of a program that samples from the
    top of main: each thread is sampled, and the CPU time the trace counts
    is most of what the threads used (a thread was seen only at the
    reader's next pass, 100 ms later, so that a short run had no samples
    at all), never much less, and the rate achieved is not above the rate
    asked. Then threads that end before the stop: their time is counted up
    to their last sample, so the rate achieved stays near the rate asked
    (it went above, their ends uncounted). Skipped (77) where the fallback
    cannot run. No timing is asserted: each thread spins until its own
    CPU clock has gone far enough, whatever the load.
    SPDX-License-Identifier: MIT
*/
#define PROF_TRACE 1
#include "check.h"
#include "profiler.h"
#include "internal.h"
#include "../src/sample/sample_impl.h"
#include "trace_read.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { NT = 4, NSHORT = 8 };

static int done;                 /* atomic: the threads read it */
static uint32_t tids[NT + NSHORT];
static unsigned long per_thread[NT + NSHORT];

static int refuse(void * attr, long pid, int cpu)
{
    (void) attr; (void) pid; (void) cpu;
    errno = EACCES;
    return -1;
}

static double cpu_ms(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

typedef struct { int k; double ms; } job;

/* Spin until done, or until this thread's CPU clock reaches ms. */
static void * spin(void * arg)
{
    job * j = (job *) arg;
    volatile unsigned long x = 0;
    int i;
    tids[j->k] = (uint32_t) syscall(SYS_gettid);
    while (!__atomic_load_n(&done, __ATOMIC_RELAXED)
           && (j->ms == 0 || cpu_ms(CLOCK_THREAD_CPUTIME_ID) < j->ms))
        for (i = 0; i < 10000; i++)
            x++;
    return NULL;
}

static void on_sample(void * ctx, const pt_trace * t, const pt_sample * s)
{
    int k;
    (void) ctx;
    (void) t;
    for (k = 0; k < NT + NSHORT; k++)
        if (tids[k] == s->tid)
            per_thread[k] += s->weight;
}

/* The trace read back: its sampling counts. */
static pt_sampling read_back(const char * path)
{
    pt_handler h;
    pt_options o;
    pt_trace t;
    pt_sampling s;
    memset(&o, 0, sizeof o);
    o.warn = stderr;
    pt_handler_init(&h, NULL);
    h.sample = on_sample;
    memset(per_thread, 0, sizeof per_thread);
    CHECK(pt_stream(path, &o, &h, &t) == 0, "read %s", path);
    s = t.sampling;
    pt_free(&t);
    return s;
}

/* NT threads made after the start, stopped while they run. 0, or 77:
   the fallback cannot run here. */
static int running_at_stop(const char * path)
{
    pthread_t th[NT];
    clockid_t clk[NT];
    job j[NT];
    double used = 0;
    pt_sampling s;
    capture_t cap;
    const char * said;
    int k, all, rc;
    CHECK(prof_trace_open(path) == 0, "open %s", path);
    capture_begin(&cap, 2);
    rc = prof_sample_start(1000);
    said = capture_end(&cap);
    if (rc != 0 && strstr(said, "timer fallback failed too") != NULL)
    {
        printf("the fallback cannot run here: %s", said);
        return 77;
    }
    CHECK(rc == 0 && strstr(said, "fallback instead") != NULL, "start: %s", said);
    for (k = 0; k < NT; k++)
    {
        j[k].k = k;
        j[k].ms = 0;
        pthread_create(&th[k], NULL, spin, &j[k]);
        pthread_getcpuclockid(th[k], &clk[k]);
    }
    /* each thread 40 ms of CPU: 40 periods */
    do
    {
        struct timespec nap = { 0, 1000000 };
        nanosleep(&nap, NULL);
        for (k = 0, all = 1; k < NT; k++)
            all &= cpu_ms(clk[k]) >= 40;
    } while (!all);
    prof_sample_stop();
    for (k = 0; k < NT; k++)
        used += cpu_ms(clk[k]);
    __atomic_store_n(&done, 1, __ATOMIC_RELAXED);
    for (k = 0; k < NT; k++)
        pthread_join(th[k], NULL);
    CHECK(prof_trace_flush() == 0, "flush");
    s = read_back(path);
    printf("running at the stop: %llu samples (weight %llu), %.1f ms of CPU counted "
           "of %.1f used, %.0f Hz achieved of %.0f\n", (unsigned long long) s.recorded,
           (unsigned long long) s.weight, s.cpu_ns * 1e-6, used, s.achieved_hz, s.hz);
    for (k = 0; k < NT; k++)
        CHECK(per_thread[k] > 0, "thread %d (tid %u): no samples", k, tids[k]);
    /* the threads' first milliseconds, before the reader's next pass,
       are all that may be missing */
    CHECK(s.cpu_ns * 1e-6 > 0.85 * used, "%.1f ms counted of %.1f", s.cpu_ns * 1e-6, used);
    CHECK(s.achieved_hz < 1.5 * s.hz, "%.0f Hz achieved", s.achieved_hz);
    return 0;
}

/* NSHORT threads of 30 ms of CPU each, all ended before the stop. */
static void ended_before_stop(const char * path)
{
    pthread_t th[NSHORT];
    job j[NSHORT];
    pt_sampling s;
    int k;
    __atomic_store_n(&done, 0, __ATOMIC_RELAXED);
    CHECK(prof_trace_open(path) == 0, "open %s", path);
    CHECK(prof_sample_start(2000) == 0, "start");
    for (k = 0; k < NSHORT; k++)
    {
        j[k].k = NT + k;
        j[k].ms = 30;
        pthread_create(&th[k], NULL, spin, &j[k]);
    }
    for (k = 0; k < NSHORT; k++)
        pthread_join(th[k], NULL);
    prof_sample_stop();
    CHECK(prof_trace_flush() == 0, "flush");
    s = read_back(path);
    printf("ended before the stop: %llu samples (weight %llu), %.1f ms of CPU counted "
           "of %d used, %.0f Hz achieved of %.0f\n", (unsigned long long) s.recorded,
           (unsigned long long) s.weight, s.cpu_ns * 1e-6, 30 * NSHORT, s.achieved_hz,
           s.hz);
    CHECK(s.recorded > 0 && s.achieved_hz < 1.25 * s.hz
          && s.cpu_ns * 1e-6 > 0.75 * 30 * NSHORT, "%.0f Hz achieved, %.1f ms counted",
          s.achieved_hz, s.cpu_ns * 1e-6);
}

int main(int argc, char ** argv)
{
    char path[512];
    const char * base = argc > 1 ? argv[1] : "test_sample_stop";
    prof_impl_sample_open = refuse;
    snprintf(path, sizeof path, "%s.ptrace", base);
    if (running_at_stop(path) == 77)
        return 77;
    snprintf(path, sizeof path, "%s-ended.ptrace", base);
    ended_before_stop(path);
    return check_report("test_sample_stop");
}
