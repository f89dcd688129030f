/*
    prof_repeat: FLINT's adaptive repetition of a target, made to end and
    to define its results for every target.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <math.h>

#undef prof_repeat

enum { GOOD_CALLS = 5 };

double prof_impl_call_target(profile_target_t target, void * arg,
        ulong count, double * call_ticks)
{
    double t0, t1;
    /* NaN in clock_last[0] marks "prof_start not called": if the target
       never calls it, clock 0 stays NaN (or its accumulator becomes NaN) and
       the caller times the whole call instead. */
    clock_accum[0] = 0.0;
    clock_last[0] = NAN;
    t0 = prof_impl_read();
    target(arg, count);
    t1 = prof_impl_read();
    *call_ticks = t1 - t0;
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

void prof_impl_repeat(double * min, double * max, profile_target_t target,
        void * arg, double ticks_per_second, double target_us,
        double threshold_us)
{
    double us_per_tick, spent_us = 0.0, lo = INFINITY, hi = -INFINITY;
    double last_per_run = NAN;
    ulong count = 1;
    int good = 0, whole_call = 0, calls = 0;

    if (target == NULL)
    {
        prof_impl_warn("prof_repeat: target is NULL; results set to NaN");
        if (min) *min = NAN;
        if (max) *max = NAN;
        return;
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
    us_per_tick = 1e6 / ticks_per_second;

    for (;;)
    {
        double call_ticks, timed_ticks, call_us, timed_us, growth;

        timed_ticks = prof_impl_call_target(target, arg, count, &call_ticks);
        call_us = call_ticks * us_per_tick;
        spent_us += call_us;

        if (isnan(timed_ticks))
        {
            if (!whole_call)
                prof_impl_warn("prof_repeat: the target did not call "
                               "prof_start() and prof_stop(); timing whole "
                               "calls instead");
            whole_call = 1;
        }
        timed_us = whole_call ? call_us : timed_ticks * us_per_tick;
        last_per_run = timed_us / (double) count;
        calls++;

        /* The first call warms caches, page tables and lazy bindings up:
           it steers count but is never a timing. */
        if (timed_us > threshold_us && calls > 1)
        {
            if (last_per_run < lo) lo = last_per_run;
            if (last_per_run > hi) hi = last_per_run;
            if (++good == GOOD_CALLS)
                break;
        }

        if (spent_us > BUDGET_TARGETS * target_us)
        {
            if (good > 0)
                prof_impl_warn("prof_repeat: stopped after %.3g s with %d of "
                               "%d timings (one run takes %.6g us)",
                               spent_us * 1e-6, good, GOOD_CALLS,
                               last_per_run);
            else
                prof_impl_warn("prof_repeat: stopped after %.3g s: a call of "
                               "%lu runs timed %.6g us, below "
                               "DURATION_THRESHOLD (%g us); the result is "
                               "meaningless", spent_us * 1e-6,
                               (unsigned long) count, timed_us, threshold_us);
            break;
        }
        if (count >= MAX_COUNT)
        {
            prof_impl_warn("prof_repeat: %lu runs timed %.6g us, below "
                           "DURATION_THRESHOLD (%g us): is the work "
                           "optimized away? the result is meaningless",
                           (unsigned long) count, timed_us, threshold_us);
            break;
        }

        /* Aim the next call at target_us. */
        growth = timed_us > 0.0 ? target_us / timed_us : MAX_GROWTH;
        if (!(growth <= MAX_GROWTH)) growth = MAX_GROWTH;
        if (growth < MIN_SHRINK) growth = MIN_SHRINK;
        {
            double next = ceil((double) count * growth);
            count = next >= (double) MAX_COUNT ? MAX_COUNT
                  : next < 1.0 ? 1 : (ulong) next;
        }
    }

    if (good == 0)
        lo = hi = last_per_run > 0.0 ? last_per_run : 0.0;
    if (min) *min = lo;
    if (max) *max = hi;
}

void prof_repeat(double * min, double * max, profile_target_t target,
                 void * arg)
{
    prof_impl_repeat(min, max, target, arg, prof_tick_rate(),
                     DURATION_TARGET, DURATION_THRESHOLD);
}
