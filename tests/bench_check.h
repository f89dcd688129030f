/* What the runner's tests share: the fake clock and context-switch
   counter, a 5 ns target, a suite writing format to out (NULL: no console
   output) with no epoch jitter (exact figures under the fake clock) and
   never treated as a terminal, and near() for figures computed in
   floating point.
   SPDX-License-Identifier: MIT */
#ifndef PROF_TEST_BENCH_CHECK_H
#define PROF_TEST_BENCH_CHECK_H

#include "profiler.h"
#include "internal.h"

#include <math.h>
#include <stdio.h>

/* The fake clock: a target adds its cost in ns to fake_now; the runner
   reads it through fake_read, installed with
   prof_impl_set_fake_clock(fake_read, 1e9) (1e9 ticks a second). */
static double fake_now;
static inline double fake_read(void) { return fake_now; }

/* A target whose iterations cost 5 ns each on the fake clock. */
static inline void cost5(void * arg, ulong count)
{
    (void) arg;
    fake_now += 5.0 * (double) count;
}

/* The fake context-switch counter: a target that is "preempted" adds to
   fake_switches; installed with prof_impl_fake_switches = fake_switch_read. */
static long fake_switches;
static inline long fake_switch_read(void) { return fake_switches; }

/* a equals b but for rounding: within 1e-9 of b, relative at every size
   (the strictest of the copies this replaces, so that no test's check got
   looser; b == 0 needs a == 0). */
static inline int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b);
}

/* A new suite whose epochs are of at least 1 ms, given: the fixed
   schedule's default, and under the adaptive one a floor it keeps, so
   that the fake clock's exact figures (5 ns targets: 200000 iterations an
   epoch) hold under both; with no spread the adaptive schedule stops at
   its least epochs, the fixed schedule's 11. */
static inline prof_bench * check_new(void)
{
    prof_bench * b = prof_bench_new();
    prof_bench_set_min_epoch_time_ns(b, 1e6);
    return b;
}

static inline prof_bench * check_suite(FILE * out, prof_format format)
{
    prof_bench * b = check_new();
    prof_bench_set_output(b, out);
    prof_bench_set_format(b, out ? format : PROF_FORMAT_NONE);
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_set_terminal(b, PROF_TERMINAL_NEVER);
    return b;
}

#endif
