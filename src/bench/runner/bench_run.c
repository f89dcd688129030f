/*
    One benchmark's run: a state machine fed with epoch timings. It
    measures the loop macro's fixed cost (empty epochs), warms up,
    calibrates the iterations of an epoch to the target epoch time, then
    measures epochs with a little jitter, runs a preempted epoch again, and
    one shorter than the target time with a longer count, times a preempted
    epoch it must keep by the time it ran where it can, and stops at the
    time budget. Every time reading goes through
    prof_impl_read(), so that tests drive it with a fake clock and check
    exact results.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"
#include "bench_settings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITERS PROF_IMPL_MAX_ITERS
/* Empty epochs of the loop macro that measure its fixed cost. */
#define OVERHEAD_EPOCHS 11
/* An epoch that times under this many resolutions counts as doing next to
   no work: most epochs so flag the row "no work?" (bench_result.c). */
#define LOW_EPOCH_RESOLUTIONS 10.0

/* The resolution: one tick, or the cost of the two reads if larger (a
   coarse counter's two reads can cost no tick at all). */
static double resolution(const prof_impl_run * r)
{
    return r->pair_ticks > 1.0 ? r->pair_ticks : 1.0;
}

static void run_after_overhead(prof_impl_run * r);
static void run_after_warmup(prof_impl_run * r);

/* The schedule: the epoch's target time and the epochs. Fixed: the epochs
   set, of at least the minimum epoch time. Adaptive: epochs of the
   resolution multiple, over the minimum epoch time only where one was set
   (a floor, never lowered); at least the epochs of an interval
   (PROF_MIN_INTERVAL_EPOCHS) and of the outputs' percentiles (11 for the
   default p10 and p90), at most the epochs set or its own maximum. */
static void schedule_init(prof_impl_run * r, double npt)
{
    prof_impl_settings * s = &r->s;
    double floor_ns = s->min_epoch_ns;
    r->adaptive = s->schedule == PROF_SCHEDULE_ADAPTIVE;
    if (r->adaptive)
    {
        if (!s->min_epoch_set)
            floor_ns = 0.0;
        if (!s->epochs_set)
            s->epochs = (int) prof_impl_adaptive_epochs_range.def;
    }
    r->min_epochs = s->percentile_epochs > PROF_MIN_INTERVAL_EPOCHS
                  ? s->percentile_epochs : PROF_MIN_INTERVAL_EPOCHS;
    if (!r->adaptive || r->min_epochs > s->epochs)
        r->min_epochs = s->epochs;
    r->next_check = r->min_epochs;
    /* nor, unless the epochs were given, more time in its epochs than the
       fixed schedule's least: its epochs of the minimum epoch time (a
       noisy long operation would spend its most epochs of it) */
    r->cap_ticks = r->adaptive && !s->epochs_set
                 ? prof_impl_epochs_range.def * s->min_epoch_ns / npt
                 : HUGE_VAL;
    r->target_ticks = resolution(r) * s->resolution_multiple;
    if (r->target_ticks < floor_ns / npt)
        r->target_ticks = floor_ns / npt;
    r->max_ticks = s->max_epoch_ns / npt;
    if (r->target_ticks > r->max_ticks)
        r->target_ticks = r->max_ticks;
}

/* Whether the adaptive schedule has what it needs: its least epochs, and
   the median's interval within the precision (looked at again after an
   eighth more epochs: each look sorts the samples), or its time. */
static int precise_enough(prof_impl_run * r)
{
    double lo, hi, level, median;
    int n = r->got;
    if (!r->adaptive || n < r->min_epochs)
        return 0;
    if (r->net_ticks_sum >= r->cap_ticks)
        return 1;
    if (n < r->next_check)
        return 0;
    r->next_check = n + n / 8 + 1;
    memcpy(r->sorted, r->samples, (size_t) n * sizeof *r->sorted);
    prof_impl_sort(r->sorted, n);
    median = prof_impl_quantile(r->sorted, n, 0.5);
    if (prof_impl_median_interval(r->sorted, n, PROF_CI_LEVEL, &lo, &hi,
                                  &level) != 0)
        return 0;
    return (hi - lo) / 2.0 <= r->s.precision_pct / 100.0 * median;
}

void prof_impl_run_init(prof_impl_run * r, const char * name,
        const prof_impl_settings * s, prof_impl_run_kind kind,
        double pair_ticks)
{
    double npt = prof_impl_ns_per_tick();
    int is_loop = kind == PROF_IMPL_RUN_LOOP;
    memset(r, 0, sizeof *r);
    r->s = *s;
    r->name = name;
    r->pair_ticks = pair_ticks;
    r->rng = 0x9E3779B97F4A7C15ULL;
    schedule_init(r, npt);
    s = &r->s;      /* its epochs: the adaptive schedule's maximum */
    r->budget_ticks = s->budget_s * 1e9 / npt;
    r->samples = (double *) calloc((size_t) s->epochs, sizeof *r->samples);
    r->iters = (ulong *) calloc((size_t) s->epochs, sizeof *r->iters);
    r->cpu_samples = (double *) calloc((size_t) s->epochs, sizeof *r->cpu_samples);
    if (r->adaptive)
        r->sorted = (double *) calloc((size_t) s->epochs, sizeof *r->sorted);
    prof_impl_bench_counters_init(&r->ctr, s->counters);
    if (r->ctr.n > 0)
        r->ev_samples = (double *) calloc((size_t) s->epochs * (size_t) r->ctr.n,
                                          sizeof *r->ev_samples);
    prof_impl_user_init(&r->user, s);
    r->user_samples = (double *) calloc((size_t) s->epochs
                                        * PROF_IMPL_USER_RAW,
                                        sizeof *r->user_samples);
    if (r->samples == NULL || r->iters == NULL || r->cpu_samples == NULL
        || (r->adaptive && r->sorted == NULL)
        || (r->ctr.n > 0 && r->ev_samples == NULL) || r->user_samples == NULL)
    {
        prof_impl_warn("%s: out of memory", name);
        r->phase = PH_DONE;
        return;
    }
    /* Function targets: the cost of the reads is known; the loop macro
       measures its own fixed cost with empty epochs first. */
    r->overhead_ticks = is_loop ? 0.0 : r->pair_ticks;
    if (is_loop)
    {
        r->phase = PH_OVERHEAD;
        r->count = 0;
    }
    else
        run_after_overhead(r);
}

/* Warm-up spends at most this share of the budget; calibrating and
   measuring have the rest. */
#define WARMUP_BUDGET_SHARE 0.5

static void run_after_overhead(prof_impl_run * r)
{
    if (r->s.warmup > 0)
    {
        r->phase = PH_WARMUP;
        r->warm_left = r->s.warmup;
        r->count = r->s.min_iters > 1 ? r->s.min_iters : 1;
        if (r->count > r->warm_left)
            r->count = r->warm_left;
    }
    else
        run_after_warmup(r);
}

/* A warm-up epoch done: the next runs 10x as many iterations, within the
   ones left and, at the last call's cost, the warm-up's share of the
   budget; warm-up ends when none is left, or (flagged) when not one more
   fits in its share. */
static void warm_up(prof_impl_run * r)
{
    double next = (double) r->count * 10.0;
    double left = r->budget_ticks * WARMUP_BUDGET_SHARE - r->spent_ticks;
    r->warm_left -= r->count;
    if (next > (double) r->warm_left)
        next = (double) r->warm_left;
    if (r->call_iter_ticks > 0.0 && next * r->call_iter_ticks > left)
        next = floor(left / r->call_iter_ticks);
    if (next >= 1.0)
    {
        r->count = (ulong) next;
        return;
    }
    if (r->warm_left > 0)
        r->budget_hit |= PROF_IMPL_BUDGET_WARMUP;
    run_after_warmup(r);
}

static void run_after_warmup(prof_impl_run * r)
{
    if (r->s.exact_iters > 0)
    {
        r->base = r->s.exact_iters;
        r->s.jitter = 0.0;
        r->phase = PH_MEASURE;
        r->count = r->base;
    }
    else
    {
        r->phase = PH_CALIBRATE;
        r->count = r->s.min_iters;
    }
}

/* Iterations per epoch from the best cost per iteration: the least count
   whose epoch reaches the target time at that cost, within [min_iters,
   MAX_ITERS]. */
static void rebase(prof_impl_run * r)
{
    double base = ceil(r->target_ticks / r->best_iter_ticks);
    /* nor a whole call (set-up outside prof_start..prof_stop included)
       over the longest epoch */
    if (r->call_iter_ticks > 0.0 && base > r->max_ticks / r->call_iter_ticks)
        base = floor(r->max_ticks / r->call_iter_ticks);
    r->base = base >= (double) MAX_ITERS ? MAX_ITERS
            : base < 1.0 ? 1 : (ulong) base;
    if (r->base < r->s.min_iters)
        r->base = r->s.min_iters;
}

/* The next epoch's count: the base plus up to jitter times it (at most
   +100%: never under the base, so never under the target time at the best
   cost), never under min_iters nor over MAX_ITERS. */
static void set_measure_count(prof_impl_run * r)
{
    double c = (double) r->base;
    if (r->s.jitter > 0.0)
        c += floor(c * r->s.jitter * prof_impl_uniform(&r->rng));
    r->count = !(c < (double) MAX_ITERS) ? MAX_ITERS
             : c < (double) r->s.min_iters ? r->s.min_iters : (ulong) c;
    if (r->count < 1)
        r->count = 1;
}

/* The time the epoch ran [ticks]: net_ticks, but for a preempted epoch
   of one thread timed over its whole call that never waited, its
   processor time (what the other processes took is not in it). */
static double ran_ticks(const prof_impl_run * r, double net_ticks,
        const prof_impl_epoch * ep)
{
    double ran;
    if (ep->switches <= 0 || !ep->ran_alone)
        return net_ticks;
    ran = ep->cpu_ns / prof_impl_ns_per_tick() - r->overhead_ticks;
    return ran < net_ticks ? ran : net_ticks;
}

static void record(prof_impl_run * r, double net_ticks,
        const prof_impl_epoch * ep)
{
    double npt = prof_impl_ns_per_tick(), cpu_ns = ep->cpu_ns, ticks;
    /* the epoch's operations: every thread ran count iterations (the
       event counters count the runner's thread only) */
    double ops = (double) r->count * r->s.batch
               * (r->s.threads > 1 ? r->s.threads : 1);
    int i = r->got++, k;
    r->iters[i] = r->count;
    r->net_ticks_sum += net_ticks;
    if (net_ticks < LOW_EPOCH_RESOLUTIONS * resolution(r))
        r->low_epochs++;
    /* kept preempted (the retries spent): the time it ran where that is
       known, else its time, inflated by the other processes' */
    if (ep->switches > 0 && ep->ran_alone)
        r->cpu_timed++;
    else if (ep->switches > 0)
        r->preempted++;
    ticks = ran_ticks(r, net_ticks, ep);
    if (ticks < 0.0)
        ticks = 0.0;
    /* one thread runs no longer than its time: the processor time covers
       as much as the time (past it: the clocks' reads, or set-up outside
       prof_start..prof_stop) */
    if (r->s.threads <= 1 && cpu_ns > ticks * npt)
        cpu_ns = ticks * npt;
    r->samples[i] = ticks * npt / ops;
    r->cpu_samples[i] = cpu_ns / ops;
    for (k = 0; k < r->ctr.n; k++)
        r->ev_samples[i * r->ctr.n + k] = r->ctr.epoch[k]
                                        / ((double) r->count * r->s.batch);
    for (k = 0; k < PROF_IMPL_USER_RAW; k++)
        r->user_samples[i * PROF_IMPL_USER_RAW + k] = r->user.epoch[k] / ops;
}

/* The calibration's next count: 10x while the timed part is short of a
   tenth of the target, as long as a whole call (set-up outside
   prof_start..prof_stop included) stays within the longest epoch and the
   budget left; then the measured phase. */
static void calibrate(prof_impl_run * r, double net)
{
    if (net >= r->target_ticks / 10.0 && net > 0.0)
    {
        r->best_iter_ticks = net / (double) r->count;
        rebase(r);
    }
    else if (r->count >= MAX_ITERS)
        r->base = MAX_ITERS;
    else
    {
        double next = (double) r->count * 10.0;
        double left = r->budget_ticks - r->spent_ticks;
        double limit = left < r->max_ticks ? left : r->max_ticks;
        if (r->call_iter_ticks > 0.0 && next * r->call_iter_ticks > limit)
            next = floor(limit / r->call_iter_ticks);
        if (next > (double) r->count)
        {
            r->count = next >= (double) MAX_ITERS ? MAX_ITERS : (ulong) next;
            return;
        }
        r->base = r->count;     /* it cannot grow: measure with this */
    }
    if (r->base < r->s.min_iters)
        r->base = r->s.min_iters;
    r->phase = PH_MEASURE;
    set_measure_count(r);
}

/* Noise only ever adds time: the fastest epoch so far (by the time it
   ran) bounds an iteration's cost best, so a calibration that a
   preemption inflated is corrected by the next faster epoch, preempted or
   not. An epoch under the resolution bounds the cost by the resolution
   over its count, so a count that a preempted calibration left too small
   for the work grows from there. */
static void reaim(prof_impl_run * r, double ran)
{
    double bound = (ran > resolution(r) ? ran : resolution(r))
                 / (double) r->count;
    if (r->s.exact_iters == 0 && bound < r->best_iter_ticks)
    {
        r->best_iter_ticks = bound;
        rebase(r);
    }
}

/* A measured epoch: run again a preempted one (while retries last) and
   one that ran under the target time if a longer count can mend it (never
   a sample: calibration gone short), else keep it. 1 while epochs
   remain. */
static int measure(prof_impl_run * r, double net, const prof_impl_epoch * ep)
{
    double ran = ran_ticks(r, net, ep);
    reaim(r, ran);
    if (ep->switches > 0 && r->retried < r->s.retries)
        r->retried++;
    else if (ran < r->target_ticks && r->base > r->count)
        r->reaimed++;
    else
    {
        record(r, net, ep);
        if (r->got == r->s.epochs || precise_enough(r))
        {
            r->phase = PH_DONE;
            return 0;
        }
        set_measure_count(r);
        return 1;
    }
    /* the same count again, unless the aim grew */
    if (r->base > r->count)
        set_measure_count(r);
    return 1;
}

int prof_impl_run_step(prof_impl_run * r, const prof_impl_epoch * ep)
{
    double net = ep->timed_ticks - r->overhead_ticks;
    double call = ep->whole_ticks > ep->timed_ticks ? ep->whole_ticks
                                                    : ep->timed_ticks;
    ulong ran = r->count;       /* the epoch's count: the step sets the next */
    int warming = r->phase == PH_WARMUP;
    r->spent_ticks += call;
    if (r->count > 0)
        r->call_iter_ticks = call / (double) r->count;
    switch (r->phase)
    {
    case PH_OVERHEAD:
        r->oh[r->noh++] = ep->timed_ticks;
        if (r->noh == OVERHEAD_EPOCHS)
        {
            prof_impl_sort(r->oh, r->noh);
            r->overhead_ticks = r->oh[r->noh / 2];
            run_after_overhead(r);
        }
        return 1;
    case PH_WARMUP:
        warm_up(r);
        break;
    case PH_CALIBRATE:
        calibrate(r, net);
        break;
    case PH_MEASURE:
        if (!measure(r, net, ep))
            return 0;
        break;
    default:
        return 0;
    }
    /* a warm-up epoch is never a sample: past the budget, one
       calibration epoch still runs, to be the sample */
    if (r->spent_ticks > r->budget_ticks && !warming)
    {
        r->count = ran;
        if (r->got == 0)
            record(r, net, ep);     /* the epoch just run: better than none */
        r->budget_hit |= PROF_IMPL_BUDGET_MEASURE;
        r->phase = PH_DONE;
        return 0;
    }
    return 1;
}

/* Feed the epoch of n threads' shares: its time from the first start to
   the last end (one thread: its call's two reads), clock 0's the slowest
   thread's, the processor times, switches and user counts added up. */
static void step_shares(prof_impl_run * r, const prof_impl_share * sh, int n)
{
    double start = sh[0].start, end = sh[0].end, timed = sh[0].timed;
    prof_impl_epoch ep;
    long waits = 0;
    int k;
    memset(&ep, 0, sizeof ep);
    memcpy(r->user.epoch, sh[0].user, sizeof sh[0].user);
    for (k = 0; k < n; k++)
    {
        if (sh[k].start < start) start = sh[k].start;
        if (sh[k].end > end) end = sh[k].end;
        if (isnan(sh[k].timed) || isnan(timed))
            timed = NAN;                /* one did not time: the wall */
        else if (sh[k].timed > timed)
            timed = sh[k].timed;
        ep.cpu_ns += sh[k].cpu_ns;
        ep.switches += sh[k].switches;
        waits += sh[k].waits;
        if (k > 0)
            prof_impl_user_sum(r->user.epoch, sh[k].user);
    }
    ep.whole_ticks = end - start;
    ep.ran_alone = n == 1 && isnan(timed) && waits == 0;
    ep.timed_ticks = isnan(timed) ? ep.whole_ticks : timed;
    (void) prof_impl_run_step(r, &ep);
}

void prof_impl_run_epoch(prof_impl_run * r, profile_target_t f, void * arg)
{
    prof_impl_share one;
    const prof_impl_share * sh = &one;
    int n = r->s.threads > 1 ? r->s.threads : 1;
    if (n > 1 && r->pool == NULL && (r->pool = prof_impl_pool_get(n)) == NULL)
    {
        r->phase = PH_DONE;     /* said why; no more epochs */
        return;
    }
    /* the measures around the threads' calls, outside their clock reads */
    prof_impl_measures_start(&r->user);
    if (n > 1)
        sh = prof_impl_pool_run(r->pool, f, arg, r->count, &r->ctr);
    else
        prof_impl_share_run(&one, f, arg, r->count, &r->ctr);
    prof_impl_measures_stop(&r->user);
    step_shares(r, sh, n);
}

void prof_impl_run_calibrate(prof_impl_run * r, profile_target_t f,
        void * arg)
{
    while (r->phase != PH_DONE && r->phase != PH_MEASURE)
        prof_impl_run_epoch(r, f, arg);
}

void prof_impl_run_free(prof_impl_run * r)
{
    prof_impl_pool_put(r->pool);
    r->pool = NULL;
    free(r->samples);
    free(r->iters);
    free(r->cpu_samples);
    free(r->ev_samples);
    free(r->user_samples);
    free(r->sorted);
    r->samples = r->cpu_samples = r->ev_samples = r->user_samples = NULL;
    r->sorted = NULL;
    r->iters = NULL;
}

void prof_impl_run_take(prof_impl_run * r, prof_impl_epochs * e)
{
    double npt = prof_impl_ns_per_tick();
    prof_impl_pool_put(r->pool);
    r->pool = NULL;
    memset(e, 0, sizeof *e);
    e->name = r->name;
    e->s = r->s;
    e->is_baseline = r->is_baseline;
    e->got = r->got;
    e->samples = r->samples;
    e->cpu = r->cpu_samples;
    e->iters = r->iters;
    e->processes = 1;
    e->nev = r->ctr.n;
    memcpy(e->ev_names, r->ctr.names, sizeof e->ev_names);
    e->ev = r->ev_samples;
    e->spent_ns = r->spent_ticks * npt;
    e->overhead_ns = r->overhead_ticks * npt;
    e->net_ns_sum = r->net_ticks_sum * npt;
    e->low_epochs = r->low_epochs;
    e->preempted = r->preempted;
    e->cpu_timed = r->cpu_timed;
    e->at_max_iters = r->base >= MAX_ITERS;
    e->budget_hit = r->budget_hit;
    if (prof_impl_user_take(&r->user, r->user_samples, r->got, e) != 0)
        prof_impl_warn("%s: out of memory; the user counters are lost",
                       r->name);
    free(r->user_samples);
    free(r->sorted);
    r->sorted = NULL;
    r->samples = r->cpu_samples = r->ev_samples = r->user_samples = NULL;
    r->iters = NULL;
}
