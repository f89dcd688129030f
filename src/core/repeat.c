/*
    prof_repeat: FLINT's adaptive repetition of a target, made to end and
    to define its results for every target.

    Two time scales meet here. The results, and the count's aim at
    DURATION_TARGET, are in the program's microseconds (its
    FLINT_CLOCKSPEED, as in FLINT). The budget is wall time: the whole of
    every call, set-up outside prof_start/prof_stop included, converted at
    the counter's real rate, so that neither an untimed part nor a
    FLINT_CLOCKSPEED far from the truth can stretch it.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <math.h>

#undef prof_repeat

enum { GOOD_CALLS = 5 };

double prof_impl_call_target(profile_target_t target, void * arg,
        ulong count, double * t0, double * t1)
{
    double a, b;
    /* NaN in clock_last[0] marks "prof_start not called": if the target
       never calls it, clock 0 stays NaN (or its accumulator becomes NaN) and
       the caller times the whole call instead. */
    clock_accum[0] = 0.0;
    clock_last[0] = NAN;
    a = prof_impl_read();
    target(arg, count);
    b = prof_impl_read();
    *t0 = a;            /* stored after the second read, not between */
    *t1 = b;
    return isnan(clock_last[0]) || isnan(clock_accum[0]) ? NAN
                                                        : clock_accum[0];
}

/* Calls whose timed section stays this far below the threshold grow count
   by up to 10x per call; near the target, by the ratio that hits it. */
#define MAX_GROWTH 10.0
#define MIN_SHRINK 0.5
/* The count cap: far beyond any useful count, far from ulong overflow. */
#define MAX_COUNT (((ulong) -1) / 16)
/* The time budget, in units of the target duration (5 s by default). */
#define BUDGET_TARGETS 500.0
/* A call that would count, during which the thread was preempted, is run
   again (same count) while the calls run again have taken less than this
   many target durations of wall time (1 s by default, a fifth of the
   budget). Measured with profile/p-repeat-load (doc/core.md): under about
   3 runnable processes on 2 cores, 100, 200 and 400 all brought 39-40 of
   40 results within 10% of the quiet figure (22-25 without); 100 costs
   least where no call runs clean. */
double prof_impl_repeat_retry_targets = 100.0;

/* One prof_repeat in progress. */
typedef struct
{
    profile_target_t target;
    void * arg;
    double us_per_tick;         /* the program's (FLINT_CLOCKSPEED) */
    double wall_us_per_tick;    /* the counter's real rate */
    double target_us, threshold_us, budget_us;
    double spent_us;            /* wall time of every call so far */
    double retry_us;            /* of the calls run again */
    double lo, hi, last_per_run;
    double pre_lo, pre_hi;      /* time per run of the calls run again */
    ulong count;
    int good, calls, whole_call, retried;
} repeat_run;

/* What one call gave: the timed section in the program's microseconds, the
   whole call's wall time in real ones, and whether the scheduler took the
   thread's CPU away during the call. */
typedef struct { double timed_us, wall_us; int preempted; } call_result;

/* Check the arguments; replace nonsense parameters (with a message).
   0 if there is nothing to run (a NULL target: results NaN). */
static int start_run(repeat_run * r, double * min, double * max,
        double ticks_per_second, double target_us, double threshold_us)
{
    if (r->target == NULL)
    {
        prof_impl_warn("prof_repeat: target is NULL; results set to NaN");
        if (min) *min = NAN;
        if (max) *max = NAN;
        return 0;
    }
    if (!(ticks_per_second > 0.0 && ticks_per_second < INFINITY))
    {
        prof_impl_warn("prof_repeat: FLINT_CLOCKSPEED is %g; using the "
                       "measured tick rate", ticks_per_second);
        ticks_per_second = prof_tick_rate();
    }
    if (!(target_us > 0.0 && target_us < 1e12))
    {
        prof_impl_warn("prof_repeat: DURATION_TARGET is %g us; using 10000",
                       target_us);
        target_us = 10000.0;
    }
    if (!(threshold_us >= 0.0 && threshold_us <= target_us))
    {
        prof_impl_warn("prof_repeat: DURATION_THRESHOLD is %g us, not in "
                       "0..DURATION_TARGET; using DURATION_TARGET / 2",
                       threshold_us);
        threshold_us = target_us / 2;
    }
    r->us_per_tick = 1e6 / ticks_per_second;
    r->wall_us_per_tick = 1e6 / prof_impl_read_rate();
    r->target_us = target_us;
    r->threshold_us = threshold_us;
    r->budget_us = BUDGET_TARGETS * target_us;
    r->lo = r->pre_lo = INFINITY;
    r->hi = r->pre_hi = -INFINITY;
    r->last_per_run = NAN;
    r->count = 1;
    return 1;
}

/* Call the target once with r->count runs. */
static call_result run_call(repeat_run * r)
{
    call_result c;
    double t0, t1, call_ticks, timed_ticks;
    long switches = prof_impl_switches();

    timed_ticks = prof_impl_call_target(r->target, r->arg, r->count, &t0,
                                        &t1);
    call_ticks = t1 - t0;
    c.preempted = prof_impl_switches() != switches;
    c.wall_us = call_ticks * r->wall_us_per_tick;
    r->spent_us += c.wall_us;
    r->calls++;
    if (isnan(timed_ticks))
    {
        if (!r->whole_call)
            prof_impl_warn("prof_repeat: the target did not call "
                           "prof_start() and prof_stop(); timing whole "
                           "calls instead");
        r->whole_call = 1;
    }
    c.timed_us = r->whole_call ? call_ticks * r->us_per_tick
                               : timed_ticks * r->us_per_tick;
    r->last_per_run = c.timed_us / (double) r->count;
    return c;
}

/* Does the call count as one of the five? The first call warms caches,
   page tables and lazy bindings up: it steers count but is never a
   timing. */
static int counts(const repeat_run * r, const call_result * c)
{
    return c->timed_us > r->threshold_us && r->calls > 1;
}

/* A call that would count but was preempted includes another process's
   time: it is run again, as the runner's epochs are, while retries last
   (the budget bounds them too). Its time is kept apart, for a budget that
   ends before any call ran clean. */
static int retry(repeat_run * r, const call_result * c)
{
    if (!(c->preempted && counts(r, c)
          && r->retry_us < prof_impl_repeat_retry_targets * r->target_us))
        return 0;
    r->retried++;
    r->retry_us += c->wall_us;
    if (r->last_per_run < r->pre_lo) r->pre_lo = r->last_per_run;
    if (r->last_per_run > r->pre_hi) r->pre_hi = r->last_per_run;
    return 1;
}

/* Keep the call's time per run if it counts: 1 when five calls have. */
static int record(repeat_run * r, const call_result * c)
{
    if (!counts(r, c))
        return 0;
    if (r->last_per_run < r->lo) r->lo = r->last_per_run;
    if (r->last_per_run > r->hi) r->hi = r->last_per_run;
    return ++r->good == GOOD_CALLS;
}

static void budget_spent(const repeat_run * r, const call_result * c)
{
    if (r->good > 0)
        prof_impl_warn("prof_repeat: stopped after %.3g s with %d of %d "
                       "timings (one run takes %.6g us)", r->spent_us * 1e-6,
                       r->good, GOOD_CALLS, r->last_per_run);
    else if (r->retried > 0)
        prof_impl_warn("prof_repeat: stopped after %.3g s: the %d calls long "
                       "enough to count were all preempted; the result "
                       "includes other processes' time", r->spent_us * 1e-6,
                       r->retried);
    else
        prof_impl_warn("prof_repeat: stopped after %.3g s: a call of %lu "
                       "runs timed %.6g us, below DURATION_THRESHOLD (%g us); "
                       "the result is meaningless", r->spent_us * 1e-6,
                       (unsigned long) r->count, c->timed_us, r->threshold_us);
}

/* The count of the next call: aimed at target_us of timed section (the
   same count again for a retry), and no more runs than the wall time left
   in the budget holds at the wall time per run of this call. 0 (after a
   message) to stop. */
static ulong next_count(const repeat_run * r, const call_result * c,
                        int again)
{
    double growth, next, wall_per_run, fits;

    if (r->count >= MAX_COUNT && !again)
    {
        prof_impl_warn("prof_repeat: %lu runs timed %.6g us, below "
                       "DURATION_THRESHOLD (%g us): is the work optimized "
                       "away? the result is meaningless",
                       (unsigned long) r->count, c->timed_us, r->threshold_us);
        return 0;
    }
    growth = c->timed_us > 0.0 ? r->target_us / c->timed_us : MAX_GROWTH;
    if (!(growth <= MAX_GROWTH)) growth = MAX_GROWTH;
    if (growth < MIN_SHRINK) growth = MIN_SHRINK;
    next = again ? (double) r->count : ceil((double) r->count * growth);
    if (next >= (double) MAX_COUNT)
        next = (double) MAX_COUNT;
    wall_per_run = c->wall_us / (double) r->count;
    fits = wall_per_run > 0.0
         ? floor((r->budget_us - r->spent_us) / wall_per_run) : INFINITY;
    if (next > fits)
        next = fits;
    if (next < 1.0)
    {
        budget_spent(r, c);
        return 0;
    }
    return (ulong) next;
}

void prof_impl_repeat(double * min, double * max, profile_target_t target,
        void * arg, double ticks_per_second, double target_us,
        double threshold_us)
{
    repeat_run r = { 0 };

    r.target = target;
    r.arg = arg;
    if (!start_run(&r, min, max, ticks_per_second, target_us, threshold_us))
        return;
    for (;;)
    {
        call_result c = run_call(&r);
        int again = retry(&r, &c);
        if ((!again && record(&r, &c))
            || (r.count = next_count(&r, &c, again)) == 0)
            break;
    }
    if (r.good == 0 && r.retried > 0)
    {
        r.lo = r.pre_lo;
        r.hi = r.pre_hi;
    }
    else if (r.good == 0)
        r.lo = r.hi = r.last_per_run > 0.0 ? r.last_per_run : 0.0;
    if (min) *min = r.lo;
    if (max) *max = r.hi;
}

void prof_repeat(double * min, double * max, profile_target_t target,
                 void * arg)
{
    prof_impl_repeat(min, max, target, arg, prof_tick_rate(),
                     DURATION_TARGET, DURATION_THRESHOLD);
}
