/*
    prof_repeat: FLINT's adaptive repetition of a target, made to end, to
    define its results for every target, and to hold on a busy machine.

    Two time scales meet here. The results, and the count's aim at
    DURATION_TARGET, are in the program's microseconds (its
    FLINT_CLOCKSPEED, as in FLINT). The budgets are real wall time, set-up
    outside prof_start/prof_stop included, converted at the counter's real
    rate, so that neither an untimed part nor a FLINT_CLOCKSPEED far from
    the truth can stretch them: 500 x DURATION_TARGET in all, and on a busy
    machine FLINT's own pace (below).

    On a busy machine a call of DURATION_TARGET is often preempted, and a
    preemption between prof_start and prof_stop adds another process's time
    to the timing. Such a call is not one of the five: its runs are timed
    again in pieces short enough to run between two preemptions, and the
    clean pieces, summed to the call's count, stand in for it (doc/core.md,
    "prof_repeat on a busy machine"). A clean timing takes the same work
    whatever the load, so its wall time grows with the load, where FLINT's
    timings, whose sections include the waits, do not: the wall time of
    a call, timings thrown away included, ends at 1.5 times the wall time
    FLINT's prof_repeat would take at the per-run times seen (1 + the
    re-run share), with the best clean timing seen.
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
    prof_impl_longest_pair = 0.0;
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
/* The wall-time budget, in units of the target duration (5 s by default). */
#define BUDGET_TARGETS 500.0
/* FLINT's loop: its first call's runs, the count's least and largest
   change per call, and its most calls modelled. */
#define FLINT_FIRST_RUNS 4.0
#define FLINT_SHRINK 0.75
#define FLINT_GROWTH 1.25
#define FLINT_MAX_CALLS 10000
/* FLINT's ticks per second (its fixed FLINT_CLOCKSPEED): its microseconds
   are the counter's ticks / 3100, so its DURATION_TARGET lasts 3.1e9 /
   (the real rate) times as long (1.48x on a 2.096 GHz TSC); modelled
   within FLINT_SCALE_MIN..MAX (FLINT's calls on a 24 MHz ARM counter
   would last 129x). */
#define FLINT_TICKS_PER_S 3.1e9
#define FLINT_SCALE_MIN 0.5
#define FLINT_SCALE_MAX 2.0
/* A timed section that the thread's waits for a core can have lengthened by
   at most this share of it counts as unpreempted. */
#define CLEAN_SHARE 0.01
/* A piece aims at this share of the processor time the thread runs
   between two preemptions of timed sections (so about 3 in 4 pieces run
   clean), and a timing is cut into at most MAX_PIECES of them. */
#define PIECE_SHARE 0.25
#define MAX_PIECES 32
/* A timing gathered in pieces aims at this many DURATION_THRESHOLDs of
   timed section, not at DURATION_TARGET: it counts (FLINT's rule is more
   than the threshold) at half the work, where FLINT's own timings, whose
   sections include other processes' time, also hold less of the target's
   work. */
#define PIECES_AIM 1.2

/* The wall time that one prof_repeat may take beyond the wall time
   FLINT's would take at the per-run times seen, as a share of FLINT's: it
   holds the timings thrown away and their re-runs (so that the processor
   time left for them shrinks as the load grows). 0 turns re-runs off, and
   the bound with them (FLINT's behaviour: profile/p-repeat-load
   compares). */
double prof_impl_repeat_retry_share = 0.5;
int prof_impl_repeat_said_busy, prof_impl_repeat_said_stopped;

/* The thread's processor time per preemption of a timed section in its
   last prof_repeat, in real us (0: none), so that the next one gathers its
   timings in pieces from the start on a machine known to be busy. */
PROF_IMPL_TLS double prof_impl_repeat_run_us;

/* One prof_repeat in progress. */
typedef struct
{
    profile_target_t target;
    void * arg;
    double us_per_tick;         /* the program's (FLINT_CLOCKSPEED) */
    double wall_us_per_tick;    /* the counter's real rate */
    double target_us, threshold_us, budget_us;
    double start_ticks;         /* the counter before the first call */
    double spent_us;            /* wall time since then */
    double wasted_us;           /* wall time of the timings thrown away */
    /* What the calls after the warm-up show of the target and the load,
       for FLINT's pace: their runs, the processor and wall time and
       involuntary switches since the second call began, the timed
       sections as FLINT times them (waits in them included), the waits
       inside the calls, and the runs, timed sections and wall time of the
       calls not switched out (real us). */
    prof_impl_sched seen_from;
    double seen_from_ticks;
    double seen_runs, seen_cpu_us, seen_wall_us, seen_switches, seen_timed_us;
    double seen_call_waits_us, quiet_runs, quiet_timed_us, quiet_wall_us;
    double clean_lo;            /* per run: the best clean timing kept */
    double piece_lo, piece_hi;  /* per run: the clean pieces */
    double cpu_us;              /* processor time of every call so far */
    double hits;                /* involuntary switches of the calls whose
                                   timed section they may have lengthened
                                   (with one hit's worth of processor time
                                   carried from the last prof_repeat) */
    double lo, hi, last_per_run;
    double clean_per_run;       /* time per run of the last clean call */
    double pre_lo, pre_hi;      /* time per run of the timings thrown away */
    ulong count;                /* runs of the next call */
    ulong aim;                  /* runs of a timing: a whole call, or the
                                   pieces that stand in for one */
    ulong gathered;             /* runs of the pieces of this timing */
    ulong gathered_clean;       /* those of them not preempted */
    double gathered_us;         /* their timed sections */
    int counting;               /* a call has reached the threshold */
    int split;                  /* this timing is gathered in pieces */
    int good, calls, whole_call, thrown, kept_preempted, paced;
} repeat_run;

/* What one call gave: the timed section in the program's microseconds, the
   whole call's wall and processor time in real ones, its involuntary
   switches, and whether the thread's waits for a core can have lengthened
   the timed section. */
typedef struct
{
    double timed_us, wall_us, cpu_us;
    long switches;
    int preempted;
} call_result;

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
    r->lo = r->pre_lo = r->clean_lo = r->piece_lo = INFINITY;
    r->hi = r->pre_hi = r->piece_hi = -INFINITY;
    r->last_per_run = NAN;
    r->count = r->aim = 1;
    if (prof_impl_repeat_run_us > 0.0)
    {
        r->cpu_us = prof_impl_repeat_run_us;
        r->hits = 1.0;
    }
    return 1;
}

/* Can the thread's waits for a core during the call have lengthened its
   timed section by more than CLEAN_SHARE? With k involuntary switches the
   thread waited k times, D = wall - processor time in all. A wait inside
   the timed section lies within one start/stop pair, so it is no longer
   than the longest pair L (the whole section when the pairs are unknown:
   a target that never calls prof_stop, or times the whole call); k waits
   that cannot all be that short (D > k L) put at most k - 1 there. So the
   section gained at most min(D, m L) with m = k or k - 1: a single wait
   longer than every pair (a preempted set-up) costs nothing. */
static int preempted(const repeat_run * r, const call_result * c,
                     double timed_ticks)
{
    double timed_real, longest, waited, inside, bound;
    if (c->switches <= 0)
        return 0;
    timed_real = r->whole_call ? c->wall_us : timed_ticks * r->wall_us_per_tick;
    longest = r->whole_call || !(prof_impl_longest_pair > 0.0) ? timed_real
            : prof_impl_longest_pair * r->wall_us_per_tick;
    waited = c->wall_us - c->cpu_us;
    inside = (double) c->switches;
    if (waited > inside * longest)
        inside -= 1.0;
    bound = inside * longest;
    if (bound > waited)
        bound = waited;
    return bound > CLEAN_SHARE * timed_real;
}

/* Call the target once with r->count runs. */
static call_result run_call(repeat_run * r)
{
    call_result c;
    prof_impl_sched s0, s1;
    double t0, t1, now, call_ticks, timed_ticks;

    if (r->calls == 0)
        r->start_ticks = prof_impl_read();
    prof_impl_sched_read(&s0);
    if (r->calls == 1)      /* what FLINT's pace sees starts after the warm-up */
    {
        r->seen_from = s0;
        r->seen_from_ticks = prof_impl_read();
    }
    timed_ticks = prof_impl_call_target(r->target, r->arg, r->count, &t0,
                                        &t1);
    prof_impl_sched_read(&s1);
    /* The scheduler may switch the thread out in the read of its processor
       time (the first point after the call that brings its run time to
       account), so the wall time counts to the end of the read: every
       wait of the thread is in one. */
    now = prof_impl_read();
    call_ticks = t1 - t0;
    c.wall_us = call_ticks * r->wall_us_per_tick;
    c.cpu_us = (s1.cpu_ns - s0.cpu_ns) * 1e-3;
    if (!(c.cpu_us <= c.wall_us))       /* the reads around the call, NaN */
        c.cpu_us = c.wall_us;
    c.switches = s1.switches - s0.switches;
    r->spent_us = (now - r->start_ticks) * r->wall_us_per_tick;
    r->cpu_us += c.cpu_us;
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
    if (r->calls > 1)
    {
        double timed_real = r->whole_call ? c.wall_us
                                          : timed_ticks * r->wall_us_per_tick;
        r->seen_runs += (double) r->count;
        r->seen_cpu_us = (s1.cpu_ns - r->seen_from.cpu_ns) * 1e-3;
        r->seen_wall_us = (now - r->seen_from_ticks) * r->wall_us_per_tick;
        r->seen_timed_us += timed_real;
        r->seen_switches = (double) (s1.switches - r->seen_from.switches);
        r->seen_call_waits_us += c.wall_us - c.cpu_us;
        if (c.switches <= 0)
        {
            r->quiet_runs += (double) r->count;
            r->quiet_timed_us += timed_real;
            r->quiet_wall_us += c.wall_us;
        }
    }
    c.preempted = preempted(r, &c, timed_ticks);
    if (c.preempted)
        r->hits += (double) c.switches;
    r->last_per_run = c.timed_us / (double) r->count;
    if (!c.preempted && r->last_per_run > 0.0)
        r->clean_per_run = r->last_per_run;
    return c;
}

/* Keep a timing of per_run us (clean: no preemption lengthened it): 1
   when five have been kept. */
static int record(repeat_run * r, double per_run, int clean)
{
    if (per_run < r->lo) r->lo = per_run;
    if (per_run > r->hi) r->hi = per_run;
    if (clean && per_run < r->clean_lo) r->clean_lo = per_run;
    return ++r->good == GOOD_CALLS;
}

static void keep_in(double * lo, double * hi, double v)
{
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
}

/* The wall time FLINT's prof_repeat would take on this target now, in
   real us: its own loop (4 runs first; then the count times
   DURATION_TARGET over the last call's timed section, held to 0.75..1.25,
   until five calls have timed more than DURATION_THRESHOLD, in FLINT's
   microseconds: FLINT_TICKS_PER_S) run on the
   target and the load seen: a run takes the processor time per run seen,
   the thread is switched out after each stretch of the processor time
   seen per involuntary switch, for the wait seen per switch, and the
   timed section takes the time per run of the calls not switched out plus
   the share of the waits that fall in timed sections, as FLINT times it.
   That share is what the timed sections seen hold beyond that time per
   run, and of the waits outside the calls (the scheduler often switches
   this thread out in its read of its processor time after a call, where
   FLINT's, which reads none, runs on), the timed share of a call. Waits
   come whole, as they do: under a load whose waits are longer than
   DURATION_THRESHOLD, most of FLINT's five calls are the ones a wait fell
   in. Infinite before a call after the warm-up; at most the 5 s budget. */
static double flint_pace_us(const repeat_run * r)
{
    double cpu_per_run, timed_per_run, waited, outside, in_timed;
    double timed_share, share = 0.0;
    double stretch = INFINITY, wait = 0.0;
    double runs = FLINT_FIRST_RUNS, spent = 0.0, ran = 0.0;
    double scale = FLINT_TICKS_PER_S * r->wall_us_per_tick * 1e-6;
    double target = r->target_us, threshold = r->threshold_us;
    int good = 0, calls;
    if (!(r->seen_runs > 0.0))
        return INFINITY;
    scale = scale < FLINT_SCALE_MIN ? FLINT_SCALE_MIN
          : scale > FLINT_SCALE_MAX ? FLINT_SCALE_MAX : scale;
    target *= scale;
    threshold *= scale;
    cpu_per_run = r->seen_cpu_us / r->seen_runs;
    waited = r->seen_wall_us - r->seen_cpu_us;
    /* no call ran without a switch: the timed share of the processor time */
    timed_per_run = r->quiet_runs > 0.0 ? r->quiet_timed_us / r->quiet_runs
                  : cpu_per_run * r->seen_timed_us / r->seen_wall_us;
    if (r->seen_switches > 0.0 && r->seen_cpu_us > 0.0 && waited > 0.0)
    {
        stretch = r->seen_cpu_us / r->seen_switches;
        wait = waited / r->seen_switches;
        outside = waited - r->seen_call_waits_us;
        timed_share = r->quiet_wall_us > 0.0
                    ? r->quiet_timed_us / r->quiet_wall_us : 1.0;
        in_timed = r->seen_timed_us - r->seen_runs * timed_per_run;
        in_timed = (in_timed > 0.0 ? in_timed : 0.0)
                 + (outside > 0.0 ? timed_share * outside : 0.0);
        share = in_timed >= waited ? 1.0 : in_timed / waited;
    }
    for (calls = 0; calls < FLINT_MAX_CALLS && spent < r->budget_us; calls++)
    {
        double cpu = runs * cpu_per_run, waits, timed, ratio;
        waits = floor((ran + cpu) / stretch) - floor(ran / stretch);
        ran += cpu;
        timed = runs * timed_per_run + share * waits * wait;
        /* a call lasts at least its timed section (a target that fakes
           clock 0 times more than it runs) */
        spent += cpu + waits * wait > timed ? cpu + waits * wait : timed;
        if (timed > threshold && ++good == GOOD_CALLS)
            break;
        ratio = target / (timed > 1e-4 ? timed : 1e-4);
        ratio = ratio > FLINT_GROWTH ? FLINT_GROWTH
              : ratio < FLINT_SHRINK ? FLINT_SHRINK : ratio;
        runs = ceil(ratio * runs);
    }
    return spent < r->budget_us ? spent : r->budget_us;
}

/* Whether preempted timings are thrown away and timed again: re-runs on,
   and the wall time spent within (1 + the re-run share) x FLINT's. */
static int retrying(const repeat_run * r)
{
    return prof_impl_repeat_retry_share > 0.0
           && r->spent_us <= (1.0 + prof_impl_repeat_retry_share)
                             * flint_pace_us(r);
}

/* Throw the call's timing away if it was preempted and re-runs go on (the
   last one thrown may take the wall time past the bound: at a high load
   one call can take more than FLINT's whole prof_repeat): 1 if thrown.
   Its time per run is kept apart, for a budget that ends before any call
   ran clean. */
static int thrown_away(repeat_run * r, const call_result * c)
{
    if (!c->preempted)
        return 0;
    if (!retrying(r))
    {
        r->kept_preempted++;
        return 0;
    }
    r->wasted_us += c->wall_us;
    r->thrown++;
    if (r->last_per_run < r->pre_lo) r->pre_lo = r->last_per_run;
    if (r->last_per_run > r->pre_hi) r->pre_hi = r->last_per_run;
    return 1;
}

/* What a call gives: one of the five timings, a piece of one, or (below
   the threshold, or the warm-up) only an aim for the count. A preempted
   timing is gathered again, in pieces where the machine calls for them.
   1 when five timings have been kept. */
static int take(repeat_run * r, const call_result * c)
{
    double timed;
    int clean;
    if (!r->split)
    {
        if (!(c->timed_us > r->threshold_us && r->calls > 1))
            return 0;
        r->counting = 1;
        if (thrown_away(r, c))
        {
            r->split = 1;
            return 0;
        }
        return record(r, c->timed_us / (double) r->count, !c->preempted);
    }
    if (thrown_away(r, c))
        return 0;
    if (!c->preempted)
    {
        keep_in(&r->piece_lo, &r->piece_hi, c->timed_us / (double) r->count);
        r->gathered_clean += r->count;
    }
    r->gathered += r->count;
    r->gathered_us += c->timed_us;
    if (r->gathered < r->aim)
        return 0;
    timed = r->gathered_us;
    r->last_per_run = timed / (double) r->gathered;
    clean = r->gathered_clean == r->gathered;
    r->split = 0;
    r->gathered = r->gathered_clean = 0;
    r->gathered_us = 0.0;
    if (!(timed > r->threshold_us))     /* aimed short: aim again */
        return 0;
    r->counting = 1;
    return record(r, r->last_per_run, clean);
}

/* 1 the first time in the process that *flag is asked (several threads
   may run prof_repeat at once), 0 after. */
static int first_time(int * flag)
{
#if defined(__GNUC__)
    return !__atomic_exchange_n(flag, 1, __ATOMIC_RELAXED);
#else
    int was = *flag;
    *flag = 1;
    return !was;
#endif
}

/* The 5 s budget is spent: with timings, said once per process; without,
   every time (the result is not a clean timing). */
static void budget_spent(const repeat_run * r, const call_result * c)
{
    if (r->good > 0)
    {
        if (first_time(&prof_impl_repeat_said_stopped))
            prof_impl_warn("prof_repeat: stopped after %.3g s with %d of %d "
                           "timings (one run takes %.6g us); said once per "
                           "process", r->spent_us * 1e-6, r->good, GOOD_CALLS,
                           r->last_per_run);
    }
    else if (r->thrown > 0)
        prof_impl_warn("prof_repeat: stopped after %.3g s: the %d calls long "
                       "enough to count were all preempted; the result "
                       "includes other processes' time", r->spent_us * 1e-6,
                       r->thrown);
    else
        prof_impl_warn("prof_repeat: stopped after %.3g s: a call of %lu "
                       "runs timed %.6g us, below DURATION_THRESHOLD (%g us); "
                       "the result is meaningless", r->spent_us * 1e-6,
                       (unsigned long) r->count, c->timed_us, r->threshold_us);
}

/* The runs of the next timing: aimed at target_us of timed section from
   the time per run seen (the same aim while a timing is being gathered).
   0 (after a message) when count cannot grow. */
static ulong next_aim(const repeat_run * r, const call_result * c)
{
    double growth, next;
    if (r->split)
        return r->aim;
    if (r->aim >= MAX_COUNT)
    {
        prof_impl_warn("prof_repeat: %lu runs timed %.6g us, below "
                       "DURATION_THRESHOLD (%g us): is the work optimized "
                       "away? the result is meaningless",
                       (unsigned long) r->aim, c->timed_us, r->threshold_us);
        return 0;
    }
    growth = r->last_per_run > 0.0
           ? r->target_us / (r->last_per_run * (double) r->aim) : MAX_GROWTH;
    if (!(growth <= MAX_GROWTH)) growth = MAX_GROWTH;
    if (growth < MIN_SHRINK) growth = MIN_SHRINK;
    next = ceil((double) r->aim * growth);
    return next >= (double) MAX_COUNT ? MAX_COUNT : (ulong) next;
}

/* The runs of a piece of a timing of aim runs: about PIECE_SHARE of the
   processor time the thread has run per preemption of a timed section, at
   this call's processor time per run, and at least 1 / MAX_PIECES of the
   aim. The aim itself while no timed section has been preempted, or while
   thrown timings no longer fit their budget (then calls count as they
   come). */
static double piece_runs(const repeat_run * r, const call_result * c,
                         ulong aim)
{
    double per_run = c->cpu_us / (double) r->count, runs;
    if (!(r->hits > 0.0 && per_run > 0.0) || !retrying(r))
        return (double) aim;
    runs = floor(PIECE_SHARE * (r->cpu_us / r->hits) / per_run);
    if (runs < ceil((double) aim / MAX_PIECES))
        runs = ceil((double) aim / MAX_PIECES);
    return runs < (double) aim ? runs : (double) aim;
}

/* The runs of the next call: a whole timing or, once calls count (or the
   next one should) and a timing takes longer than the thread runs between
   two preemptions of timed sections, a piece of a timing of PIECES_AIM
   thresholds. Never more runs than the wall time left holds at this
   call's wall time per run; 0 (after a message) to stop, and 0 once calls
   count when the next would take the wall time past (1 + the re-run
   share) x FLINT's. */
static ulong next_count(repeat_run * r, const call_result * c)
{
    double next, fits, piece;
    ulong aim = next_aim(r, c);

    if (aim == 0)
        return 0;
    piece = r->counting || (double) aim * r->last_per_run > r->threshold_us
          ? piece_runs(r, c, aim) : (double) aim;
    if (!r->split && piece < (double) aim)
        r->split = 1;
    if (r->split && r->gathered == 0 && r->clean_per_run > 0.0)
    {
        next = ceil(PIECES_AIM * r->threshold_us / r->clean_per_run);
        if (next < (double) aim)
            aim = (ulong) next;
    }
    r->aim = aim;
    next = r->split ? (double) (aim - r->gathered) : (double) aim;
    if (next > piece)
        next = piece;
    fits = c->wall_us > 0.0 ? floor((r->budget_us - r->spent_us)
                                    / (c->wall_us / (double) r->count))
                            : INFINITY;
    if (next > fits)
        next = fits;
    if (next < 1.0)
    {
        budget_spent(r, c);
        return 0;
    }
    if (r->counting && prof_impl_repeat_retry_share > 0.0
        && r->spent_us + next * (c->wall_us / (double) r->count)
           > (1.0 + prof_impl_repeat_retry_share) * flint_pace_us(r))
    {
        r->paced = 1;
        return 0;
    }
    return (ulong) next;
}

/* Once per process: a call ended at FLINT's pace, or results that
   include other processes' time. */
static void say_busy(const repeat_run * r)
{
    if (!(r->paced || r->kept_preempted > 0)
        || !first_time(&prof_impl_repeat_said_busy))
        return;
    if (r->paced)
        prof_impl_warn("prof_repeat: the machine is busy: a call stopped at "
                       "%g x the wall time FLINT's prof_repeat would take "
                       "(%.3g s) with %d of %d timings; %s (said once per "
                       "process; doc/core.md)",
                       1.0 + prof_impl_repeat_retry_share, r->spent_us * 1e-6,
                       r->good, GOOD_CALLS,
                       r->clean_lo < INFINITY || r->piece_lo < INFINITY
                       ? "min is the best clean timing"
                       : "none ran clean: min and max include other "
                         "processes' time");
    else
        prof_impl_warn("prof_repeat: the machine is busy: %d preempted calls "
                       "were kept once re-runs had taken %.3g ms; min and max "
                       "may include other processes' time (said once per "
                       "process; doc/core.md)", r->kept_preempted,
                       r->wasted_us * 1e-3);
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
        if (take(&r, &c) || (r.count = next_count(&r, &c)) == 0)
            break;
    }
    prof_impl_repeat_run_us = r.hits > 0.0 ? r.cpu_us / r.hits : 0.0;
    say_busy(&r);
    if (r.clean_lo < INFINITY
        || (r.good < GOOD_CALLS && r.piece_lo < INFINITY))
    {
        /* the best clean timing; stopped before five: or clean piece */
        r.lo = r.good < GOOD_CALLS && r.piece_lo < r.clean_lo ? r.piece_lo
                                                              : r.clean_lo;
        if (r.good == 0)
            r.hi = r.piece_hi;
        if (r.hi < r.lo)
            r.hi = r.lo;
    }
    else if (r.good == 0 && r.thrown > 0)
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
