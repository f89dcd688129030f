/*
    The runner's event counters: one prof_counters per process, opened by
    the first benchmark run that asks for counters (never before: with
    counters off no perf system call is made), kept open for all suites and
    closed at exit. Opening costs a few dozen system calls and the overhead
    measurement 101 start/stop pairs, so it is done once, not per benchmark.

    Per epoch: start before the epoch's first clock read, stop and read
    after its last, so that the ioctls stay outside the timed interval. The
    set is never reset: an epoch's counts are the difference of the running
    totals read after this stop and after the previous one (one read per
    group per epoch instead of two), rescaled for multiplexing from the
    differences of time enabled and time running. The counts one empty
    start/stop pair records (prof_counters_overhead, measured at open) are
    subtracted once per epoch.

    The events of the first list asked for are the ones opened; a later run
    asking for events outside that set gets n/a for them, with a message.
    A set counts the thread that opened it: a run on another thread gets n/a
    for all its events, with a message.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
# include <sys/syscall.h>
# include <unistd.h>
#endif

static prof_counters set;
static int set_state;       /* 0: never opened, 1: open, -1: open failed */
static prof_counter_value ovh[PROF_COUNTERS_MAX];
static prof_counter_value last[PROF_COUNTERS_MAX];
static long owner;
static int warned_thread, warned_missing;
static char opened_list[256];

double (*prof_impl_fake_counts)(const char * event, ulong iterations);
void (*prof_impl_fake_counters_start)(void);

static long this_thread(void)
{
#if defined(__linux__) && defined(SYS_gettid)
    return (long) syscall(SYS_gettid);
#else
    return 0;
#endif
}

static void close_at_exit(void)
{
    if (set_state == 1)
        prof_counters_close(&set);
    set_state = 0;
}

static int open_set(const char * list)
{
    int i;
    if (set_state != 0)
        return set_state == 1;
    if (prof_counters_open(&set, list) < 0)
    {
        set_state = -1;
        return 0;
    }
    set_state = 1;
    owner = this_thread();
    prof_impl_copy(opened_list, sizeof opened_list, list);
    memset(last, 0, sizeof last);
    if (prof_counters_overhead(&set, ovh) != 0)
        for (i = 0; i < PROF_COUNTERS_MAX; i++)
            ovh[i].value = 0.0;
    atexit(close_at_exit);
    return 1;
}

void prof_impl_bench_counters_init(prof_impl_run_counters * rc,
        const char * list)
{
    int i, k, n;
    const char * p;
    memset(rc, 0, sizeof *rc);
    if (list == NULL || *list == '\0')
        return;
    n = prof_impl_counters_check(list, "prof_bench_set_counters");
    if (n <= 0)
        return;
    if (prof_impl_fake_counts == NULL)
        open_set(list);
    /* Names in the order asked for; each mapped onto the set. */
    for (p = list, k = 0; k < n; k++)
    {
        char name[64];
        size_t len;
        while (*p == ' ' || *p == '\t')
            p++;
        len = strcspn(p, ",");
        if (len >= sizeof name)
            len = sizeof name - 1;
        memcpy(name, p, len);
        while (len > 0 && (name[len - 1] == ' ' || name[len - 1] == '\t'))
            len--;
        name[len] = '\0';
        p += strcspn(p, ",");
        if (*p == ',')
            p++;
        rc->names[k] = prof_impl_counters_canonical(name);
        if (rc->names[k] == NULL)
            rc->names[k] = "?";
        rc->idx[k] = set_state == 1 ? prof_counters_find(&set, name) : -1;
        rc->epoch[k] = NAN;
        if (set_state == 1 && rc->idx[k] < 0 && !warned_missing)
        {
            prof_impl_warn("counters: the runner opens one event set per "
                           "process (\"%s\"); \"%s\" is not in it: n/a",
                           opened_list, rc->names[k]);
            warned_missing = 1;
        }
    }
    rc->n = n;
    if (prof_impl_fake_counts != NULL)
    {
        rc->active = 1;
        return;
    }
    rc->active = set_state == 1;
    if (set_state == 1 && owner != this_thread())
    {
        if (!warned_thread)
            prof_impl_warn("counters: the event set counts the thread that "
                           "opened it; benchmarks on another thread get n/a");
        warned_thread = 1;
        for (i = 0; i < n; i++)
            rc->idx[i] = -1;
        rc->active = 0;
    }
}

void prof_impl_bench_counters_start(const prof_impl_run_counters * rc)
{
    if (rc->n > 0 && prof_impl_fake_counts != NULL)
    {
        if (prof_impl_fake_counters_start != NULL)
            prof_impl_fake_counters_start();
    }
    else if (rc->active && set_state == 1)
        (void) prof_counters_start(&set);
}

double prof_impl_bench_counters_delta(const prof_counter_value * a,
        const prof_counter_value * b, double overhead)
{
    /* NaN (unknown, or enabled but never on the PMU) stays NaN */
    double v = prof_impl_counters_scale(b->raw - a->raw,
                                        b->enabled_ns - a->enabled_ns,
                                        b->running_ns - a->running_ns);
    v -= overhead;
    return v < 0.0 ? 0.0 : v;   /* noise below the overhead: like times */
}

void prof_impl_bench_counters_stop(prof_impl_run_counters * rc,
        ulong iterations)
{
    prof_counter_value now[PROF_COUNTERS_MAX];
    int i, ok;
    if (rc->n == 0)
        return;
    if (prof_impl_fake_counts != NULL)
    {
        for (i = 0; i < rc->n; i++)
            rc->epoch[i] = prof_impl_fake_counts(rc->names[i], iterations);
        return;
    }
    ok = rc->active && set_state == 1 && prof_counters_stop(&set) == 0
      && prof_counters_read(&set, now) == 0;
    for (i = 0; i < rc->n; i++)
    {
        int j = rc->idx[i];
        double v = NAN;
        if (ok && j >= 0 && prof_counters_available(&set, j))
        {
            v = prof_impl_bench_counters_delta(&last[j], &now[j],
                                               ovh[j].value);
        }
        rc->epoch[i] = v;
    }
    if (ok)
        memcpy(last, now, (size_t) prof_counters_size(&set) * sizeof now[0]);
}

int prof_impl_bench_counters_context(char * buf, size_t size)
{
    if (size > 0)
        buf[0] = '\0';
    if (set_state != 1)
        return 0;
    prof_counters_context(&set, buf, size);
    return 1;
}
