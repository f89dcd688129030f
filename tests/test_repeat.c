/* prof_repeat: FLINT's targets (prof_start/prof_stop per run and around the
   loop) and the targets FLINT mishandles: never calls prof_start, takes
   seconds, takes no time, NULL. DURATION_* are smaller here (2 ms target,
   so a budget of 1 s) to keep the test short. */
#define DURATION_TARGET 2000.0
#define DURATION_THRESHOLD 1000.0
#include "check.h"
#include "internal.h"
#include "bench_check.h"

#include <math.h>

static volatile unsigned long sink;

static void work(unsigned long n)
{
    unsigned long i, x = sink;
    for (i = 0; i < n; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

static void per_run(void * arg, ulong count)
{
    ulong i;
    for (i = 0; i < count; i++)
    {
        prof_start();
        work(*(unsigned long *) arg);
        prof_stop();
    }
}

static void around_loop(void * arg, ulong count)
{
    ulong i;
    prof_start();
    for (i = 0; i < count; i++)
        work(*(unsigned long *) arg);
    prof_stop();
}

static void never_calls(void * arg, ulong count)
{
    ulong i;
    for (i = 0; i < count; i++)
        work(*(unsigned long *) arg);
}

static void stop_only(void * arg, ulong count)
{
    never_calls(arg, count);
    prof_stop();
}

static void nothing_timed(void * arg, ulong count)
{
    (void) arg; (void) count;
    prof_start();
    prof_stop();
}

static void fake_zero(void * arg, ulong count)
{
    (void) arg; (void) count;
    clock_last[0] = 0.0;
    clock_accum[0] = 0.0;
}

static int slow_calls;
static void slow(void * arg, ulong count)
{
    ulong i;
    (void) arg;
    slow_calls++;
    prof_start();
    for (i = 0; i < count; i++)
        sleep_ms(400);
    prof_stop();
}

/* The fake clock (1 tick = 1 ns): a run costs 250 ns, timed per run
   through clock 0 (as prof_start/prof_stop pairs add to it), around the
   loop, or as the whole call (prof_start never called). Whatever the
   machine does, the three must give exactly 0.25 us. */
static void fake_per_run(void * arg, ulong count)
{
    ulong i;
    (void) arg;
    fake_now += 1000.0;                 /* untimed set-up */
    clock_last[0] = 0.0;
    clock_accum[0] = 0.0;
    for (i = 0; i < count; i++)
    {
        clock_accum[0] += 250.0;
        fake_now += 250.0;
    }
}

static void fake_around_loop(void * arg, ulong count)
{
    (void) arg;
    fake_now += 1000.0;
    clock_last[0] = 0.0;
    clock_accum[0] = 250.0 * (double) count;
    fake_now += 250.0 * (double) count;
}

static void fake_never_calls(void * arg, ulong count)
{
    (void) arg;
    fake_now += 250.0 * (double) count;
}

static void test_fake_agreement(void)
{
    profile_target_t t[3] = { fake_per_run, fake_around_loop, fake_never_calls };
    capture_t cap;
    int k;
    prof_impl_set_fake_clock(fake_read, 1e9);
    for (k = 0; k < 3; k++)
    {
        double mn = -1, mx = -1;
        capture_begin(&cap, 2);
        prof_impl_repeat(&mn, &mx, t[k], NULL, 1e9, 2000.0, 1000.0);
        capture_end(&cap);
        CHECK(fabs(mn - 0.25) < 1e-12 && fabs(mx - 0.25) < 1e-12,
              "fake target %d: %.17g..%.17g us", k, mn, mx);
    }
    prof_impl_set_fake_clock(NULL, 0);
}

/* The budget (500 x DURATION_TARGET of wall time) covers whole calls: a
   target whose timed section is 1 ns per run but whose run takes 4.4 us
   made counts grow 10x per call on the timed section alone, and one call
   took 44 s (48.5 s in all against 5 s). Fake clock, 1 tick = 1 ns. */
static void fake_mostly_untimed(void * arg, ulong count)
{
    (void) arg;
    clock_last[0] = 0.0;
    clock_accum[0] = 1.0 * (double) count;
    fake_now += 4401.0 * (double) count;
}

static void fake_timed_us(void * arg, ulong count)
{
    (void) arg;
    clock_last[0] = 0.0;
    clock_accum[0] = 1000.0 * (double) count;
    fake_now += 1000.0 * (double) count;
}

/* Lines of s. */
static int lines(const char * s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void fake_slow(void * arg, ulong count)
{
    (void) arg;
    clock_last[0] = 0.0;
    clock_accum[0] = 4e8 * (double) count;
    fake_now += 4e8 * (double) count;
}


static void test_budget_whole_call(void)
{
    capture_t cap;
    const char * out;
    double mn = -1, mx = -1, t0;

    prof_impl_set_fake_clock(fake_read, 1e9);
    t0 = fake_now;
    capture_begin(&cap, 2);
    prof_impl_repeat(&mn, &mx, fake_mostly_untimed, NULL, 1e9, 10000.0, 5000.0);
    out = capture_end(&cap);
    CHECK(fake_now - t0 <= 5.0e9 * 1.001, "took %g s of a 5 s budget", (fake_now - t0) * 1e-9);
    CHECK(strstr(out, "prof_repeat: stopped after") != NULL, "stderr [%s]", out);
    CHECK(mn >= 0 && mn <= mx, "%g %g", mn, mx);

    /* FLINT_CLOCKSPEED 1e300 gives microseconds of ~0: the count grows
       until the budget, counted in real (here fake) seconds, ends it
       (with no timing: said every time). */
    t0 = fake_now;
    capture_begin(&cap, 2);
    prof_impl_repeat(&mn, &mx, fake_timed_us, NULL, 1e300, 10000.0, 5000.0);
    out = capture_end(&cap);
    CHECK(fake_now - t0 <= 5.0e9 * 1.001, "FLINT_CLOCKSPEED 1e300: took %g s",
          (fake_now - t0) * 1e-9);
    CHECK(strstr(out, "prof_repeat: stopped after") != NULL, "stderr [%s]", out);

    /* With timings (400 ms a run, a 1 s budget), the message is said once
       per process, not once a call. */
    prof_impl_repeat_said_stopped = 0;
    capture_begin(&cap, 2);
    prof_impl_repeat(&mn, &mx, fake_slow, NULL, 1e9, 2000.0, 1000.0);
    prof_impl_repeat(&mn, &mx, fake_slow, NULL, 1e9, 2000.0, 1000.0);
    out = capture_end(&cap);
    CHECK(strstr(out, "prof_repeat: stopped after") == strstr(out, "profiler: ") + 10
          && lines(out) == 1 && mn == 4e5 && mx == 4e5, "%g %g [%s]", mn, mx, out);
    prof_impl_set_fake_clock(NULL, 0);
}

/* Preemption, with the fake clock, a fake processor-time clock and a fake
   switch counter: a fake scheduler takes the core away for wait_ns of
   wall time each time the thread has run every_ns of processor time, in
   the untimed set-up or between prof_start and prof_stop, wherever the
   thread then is. A run costs 250 ns between prof_start and prof_stop and
   setup_ns before them; pairs is 1 for one pair per run (prof_stop keeps
   the longest), 0 for one pair around the loop. */
static double fake_cpu, next_preempt, every_ns, wait_ns, setup_ns, quiet_ns;
static int fake_calls, pairs, preempt_in_setup_only;

static double fake_cpu_read(void) { return fake_cpu; }

/* Run ns of processor time; the scheduler may preempt the thread. */
static void fake_run(double ns, int timed)
{
    fake_cpu += ns;
    fake_now += ns;
    if (every_ns > 0 && fake_cpu >= next_preempt
        && !(timed && preempt_in_setup_only))
    {
        next_preempt += every_ns;
        fake_now += wait_ns;
        fake_switches++;
    }
}

static void fake_scheduled(void * arg, ulong count)
{
    ulong i;
    double begin = fake_now;
    (void) arg;
    fake_calls++;
    clock_last[0] = 0.0;
    clock_accum[0] = 0.0;
    for (i = 0; i < count; i++)
    {
        double t = fake_now;
        if (setup_ns > 0)
            fake_run(setup_ns, 0);
        t = pairs ? fake_now : t;
        fake_run(250.0, 1);
        if (pairs)
        {
            clock_accum[0] += fake_now - t;
            if (fake_now - t > prof_impl_longest_pair)
                prof_impl_longest_pair = fake_now - t;
        }
    }
    if (!pairs)
        clock_accum[0] = fake_now - begin;
}

typedef struct { int calls; double mn, mx, cpu_ms, wall_ms; const char * out; } sched_result;

/* FLINT's prof_repeat, as its documentation and source describe it (4 runs
   first, then the count times DURATION_TARGET over the last call's time,
   held to 0.75..1.25, until five calls time more than DURATION_THRESHOLD;
   its microseconds are 3100 ticks, 3.1 ns of the fake clock), on the fake
   scheduler: the fake wall time it takes [ms]. */
static double flint_wall_ms(double target_us, double threshold_us)
{
    double t0 = fake_now, runs = 4.0;
    int good = 0, calls;
    for (calls = 0; calls < 100000; calls++)
    {
        double timed, ratio;
        fake_scheduled(NULL, (ulong) runs);
        timed = clock_accum[0] / 3100.0;
        if (timed > threshold_us && ++good == 5)
            break;
        ratio = target_us / (timed > 1e-4 ? timed : 1e-4);
        ratio = ratio > 1.25 ? 1.25 : ratio < 0.75 ? 0.75 : ratio;
        runs = ceil(ratio * runs);
    }
    return (fake_now - t0) * 1e-6;
}


/* prof_repeat (2 ms target) on the fake scheduler: every_ns 0 is a quiet
   machine. */
static sched_result scheduled_run(double every, double wait, double setup,
                                  int per_run_pairs)
{
    static capture_t cap;
    sched_result res;
    double cpu0 = fake_cpu, wall0 = fake_now;
    every_ns = every;
    wait_ns = wait;
    setup_ns = setup;
    pairs = per_run_pairs;
    next_preempt = fake_cpu + quiet_ns + every;
    fake_calls = 0;
    prof_impl_repeat_run_us = 0.0;
    prof_impl_repeat_said_busy = 0;
    prof_impl_repeat_said_stopped = 0;
    capture_begin(&cap, 2);
    prof_impl_repeat(&res.mn, &res.mx, fake_scheduled, NULL, 1e9, 2000.0,
                     1000.0);
    res.out = capture_end(&cap);
    res.calls = fake_calls;
    res.cpu_ms = (fake_cpu - cpu0) * 1e-6;
    res.wall_ms = (fake_now - wall0) * 1e-6;
    return res;
}

/* FLINT's wall time on the same fake scheduler [ms]. */
static double flint_scheduled_ms(double every, double wait, double setup,
                                 int per_run_pairs)
{
    every_ns = every;
    wait_ns = wait;
    setup_ns = setup;
    pairs = per_run_pairs;
    next_preempt = fake_cpu + quiet_ns + every;
    return flint_wall_ms(2000.0, 1000.0);
}

static void test_preemption(void)
{
    sched_result q, s;
    double retries = prof_impl_repeat_retry_share, f;
    capture_t cap;
    const char * out;
    int k;

    prof_impl_set_fake_clock(fake_read, 1e9);
    prof_impl_fake_switches = fake_switch_read;
    prof_impl_fake_cpu_ns = fake_cpu_read;

    /* Quiet: counts 1, 10, 100, 1000, then 10000 and 8000 x 4: 9 calls. */
    q = scheduled_run(0, 0, 0, 0);
    CHECK(q.calls == 9 && q.mn == 0.25 && q.mx == 0.25 && q.out[0] == '\0',
          "quiet: %d calls, %g..%g [%s]", q.calls, q.mn, q.mx, q.out);

    /* Quiet, FLINT's loop takes longer (its counts grow 1.25x a call). */
    f = flint_scheduled_ms(0, 0, 0, 0);
    CHECK(q.wall_ms < f, "quiet: %.3g ms, FLINT %.3g ms", q.wall_ms, f);

    /* Preempted for 5 ms after every 3 ms of processor time, one pair
       around the loop: a 2 ms call is hit 2 times in 3. The timings hit
       are thrown away and gathered again in pieces that run clean: the
       min is exact, the call takes at most 1.5x FLINT's wall time on the
       same scheduler (and one wait of the last call, which may fall in
       it), and one line says so. */
    s = scheduled_run(3e6, 5e6, 0, 0);
    f = flint_scheduled_ms(3e6, 5e6, 0, 0);
    CHECK(s.mn == 0.25 && s.mx >= 0.25, "busy, around the loop: %g..%g [%s]",
          s.mn, s.mx, s.out);
    CHECK(s.wall_ms <= 1.5 * f + 5.0, "busy: %.3g ms of wall time, FLINT %.3g",
          s.wall_ms, f);
    CHECK(lines(s.out) <= 1, "busy: [%s]", s.out);

    /* The same with a pair per run and 1 us of untimed set-up per run: the
       preemptions that fall in the set-up cost nothing, those between
       prof_start and prof_stop are seen from the longest pair. */
    s = scheduled_run(3e6 + 317.0, 5e6, 1000.0, 1);
    f = flint_scheduled_ms(3e6 + 317.0, 5e6, 1000.0, 1);
    CHECK(s.mn == 0.25 && s.mx >= 0.25, "busy, pair per run: %g..%g [%s]",
          s.mn, s.mx, s.out);
    CHECK(s.wall_ms <= 1.5 * f + 5.0, "busy, pair per run: %.3g ms of wall "
          "time, FLINT %.3g", s.wall_ms, f);

    /* A load that preempts every call (10 ms away after each 0.5 ms of
       processor time: 21 runnable tasks a core), pair per run and around
       the loop: within 1.5x FLINT's wall time (and the last call's wait),
       the min is the best clean timing (exact), and the note is one line
       for the process, not one a call. */
    for (k = 0; k < 2; k++)
    {
        s = scheduled_run(5e5, 1e7, 1000.0 * k, k);
        f = flint_scheduled_ms(5e5, 1e7, 1000.0 * k, k);
        printf("preempted every call (%s): %.3g ms, FLINT %.3g ms; %g..%g us\n",
               k ? "pair per run" : "around the loop", s.wall_ms, f, s.mn, s.mx);
        CHECK(s.wall_ms <= 1.5 * f + 10.0, "every call: %.3g ms of wall time, "
              "FLINT %.3g", s.wall_ms, f);
        CHECK(s.mn == 0.25 && s.mx >= 0.25, "every call: %g..%g", s.mn, s.mx);
        CHECK(strstr(s.out, "the machine is busy") != NULL && lines(s.out) == 1,
              "every call: [%s]", s.out);
        capture_begin(&cap, 2);
        prof_impl_repeat(&s.mn, &s.mx, fake_scheduled, NULL, 1e9, 2000.0, 1000.0);
        out = capture_end(&cap);
        CHECK(out[0] == '\0' && s.mn == 0.25, "every call, again: %g [%s]",
              s.mn, out);
    }

    /* Preempted in the untimed set-up only: no timing is thrown, no call
       cut: the calls are the quiet machine's. */
    preempt_in_setup_only = 1;
    q = scheduled_run(0, 0, 1000.0, 1);
    s = scheduled_run(1e6, 5e6, 1000.0, 1);
    preempt_in_setup_only = 0;
    CHECK(s.calls == q.calls && s.mn == 0.25 && s.mx == 0.25,
          "preempted set-up: %d calls (quiet %d), %g..%g", s.calls, q.calls,
          s.mn, s.mx);

    /* Preempted all the time (every 100 ns for 100 ns): no piece can run
       clean; what is thrown away stays within 1.5x FLINT's wall time (and
       the call that found it spent), and the result says that it includes
       other processes' time, once per process. */
    q = scheduled_run(0, 0, 0, 0);
    s = scheduled_run(100.0, 100.0, 0, 0);
    f = flint_scheduled_ms(100.0, 100.0, 0, 0);
    CHECK(s.wall_ms <= 1.5 * f + 5.0, "always preempted: %.3g ms of wall "
          "time, FLINT %.3g", s.wall_ms, f);
    CHECK(s.mn > 0.25 && s.mn <= s.mx, "always preempted: %g..%g", s.mn, s.mx);
    CHECK(strstr(s.out, "the machine is busy") != NULL, "[%s]", s.out);
    prof_impl_repeat_said_busy = 1;
    prof_impl_repeat(&s.mn, &s.mx, fake_scheduled, NULL, 1e9, 2000.0, 1000.0);
    CHECK(prof_impl_repeat_said_busy == 1, "said twice");

    /* Retries off (profile/p-repeat-load's "before"): FLINT's behaviour,
       no timing thrown, so a preempted one is kept, and the result says
       so. */
    prof_impl_repeat_retry_share = 0.0;
    s = scheduled_run(3e6, 5e6, 0, 0);
    CHECK(s.mn >= 0.25 && s.mx > 0.25 && s.cpu_ms <= q.cpu_ms * 1.5,
          "retries off: %g..%g, %.3g ms of processor time", s.mn, s.mx, s.cpu_ms);
    CHECK(strstr(s.out, "the machine is busy") != NULL, "[%s]", s.out);
    prof_impl_repeat_retry_share = retries;

    /* A wall-time budget (1 s) that ends while timings are thrown (the
       ramp-up runs clean, then every call is hit, and a hit costs 0.4 s):
       a result that includes other processes' time, with a message. */
    quiet_ns = 1.2e6;
    s = scheduled_run(100.0, 4e8, 0, 0);
    quiet_ns = 0.0;
    CHECK(s.mn > 0.25 && s.mn <= s.mx, "budget over retries: %g..%g", s.mn, s.mx);
    CHECK(strstr(s.out, "other processes' time") != NULL, "[%s]", s.out);

    prof_impl_fake_cpu_ns = NULL;
    prof_impl_fake_switches = NULL;
    prof_impl_set_fake_clock(NULL, 0);
}

int main(void)
{
    capture_t cap;
    const char * out;
    unsigned long n = 1000;
    double mn, mx, mn2, mx2, t0, took;

    /* Per-run, around-the-loop and whole-call timings agree exactly under
       the fake clock; with real clocks, only bounds that no load breaks. */
    test_fake_agreement();
    test_budget_whole_call();
    test_preemption();
    mn = mx = -1;
    capture_begin(&cap, 2);
    prof_repeat(&mn, &mx, per_run, &n);
    prof_repeat(&mn2, &mx2, around_loop, &n);
    out = capture_end(&cap);
    printf("chain 1000: per run %.4g..%.4g us, around loop %.4g..%.4g us\n", mn, mx, mn2, mx2);
    /* no message but the busy machine's */
    CHECK(out[0] == '\0' || strstr(out, "the machine is busy") != NULL,
          "unexpected message [%s]", out);
    CHECK(mn > 0.01 && mn <= mx && mx < 1e4, "per run %g %g", mn, mx);
    CHECK(mn2 > 0.01 && mn2 <= mx2 && mx2 < 1e4, "around loop %g %g", mn2, mx2);

    /* Either pointer may be NULL. */
    mx = -1;
    prof_repeat(NULL, &mx, around_loop, &n);
    CHECK(mx > 0, "max %g", mx);
    prof_repeat(NULL, NULL, around_loop, &n);

    /* A target that never calls prof_start/prof_stop: FLINT loops forever;
       here the whole call is timed, with a message. */
    mn = mx = -1;
    capture_begin(&cap, 2);
    prof_repeat(&mn, &mx, never_calls, &n);
    out = capture_end(&cap);
    CHECK(strstr(out, "profiler: prof_repeat: the target did not call prof_start()") != NULL,
          "stderr [%s]", out);
    CHECK(mn > 0.01 && mn <= mx && mx < 1e4, "never_calls %g %g", mn, mx);

    capture_begin(&cap, 2);
    prof_repeat(&mn, &mx, stop_only, &n);
    out = capture_end(&cap);
    CHECK(strstr(out, "did not call prof_start()") != NULL, "stderr [%s]", out);
    CHECK(mn > 0 && mn <= mx, "stop_only %g %g", mn, mx);

    /* Nothing between prof_start and prof_stop: the time never reaches the
       threshold; count grows to its cap and the call ends. */
    mn = mx = -1;
    t0 = mono_ns();
    capture_begin(&cap, 2);
    prof_repeat(&mn, &mx, nothing_timed, NULL);
    out = capture_end(&cap);
    took = (mono_ns() - t0) * 1e-9;
    CHECK(strstr(out, "the result is meaningless") != NULL, "stderr [%s]", out);
    CHECK(mn >= 0 && mn == mx && mn < 1e-3, "nothing_timed %g %g", mn, mx);
    CHECK(took < 10, "took %g s", took);

    mn = mx = -1;
    capture_begin(&cap, 2);
    prof_repeat(&mn, &mx, fake_zero, NULL);
    out = capture_end(&cap);
    CHECK(mn == 0.0 && mx == 0.0, "fake_zero %g %g", mn, mx);
    CHECK(strstr(out, "optimized away") != NULL, "stderr [%s]", out);

    /* 400 ms per run: stopped by the budget (500 x 2 ms) with the timings it
       has, instead of five calls. */
    mn = mx = -1;
    t0 = mono_ns();
    slow_calls = 0;
    prof_impl_repeat_said_stopped = 0;
    capture_begin(&cap, 2);
    prof_repeat(&mn, &mx, slow, NULL);
    out = capture_end(&cap);
    took = (mono_ns() - t0) * 1e-9;
    CHECK(strstr(out, "profiler: prof_repeat: stopped after") != NULL, "stderr [%s]", out);
    CHECK(mn >= 399000 && mn <= mx && mx < 5e6, "slow %g %g", mn, mx);
    /* without the budget: a warm-up and five timed calls (2.4 s) */
    CHECK(slow_calls <= 4, "%d calls of 400 ms", slow_calls);
    CHECK(took < 30, "took %g s", took);

    /* NULL target: NaN results and a message. */
    capture_begin(&cap, 2);
    prof_repeat(&mn, &mx, NULL, NULL);
    out = capture_end(&cap);
    CHECK(isnan(mn) && isnan(mx), "NULL target %g %g", mn, mx);
    CHECK(strstr(out, "profiler: prof_repeat: target is NULL") != NULL, "stderr [%s]", out);

    /* Nonsense parameters fall back to sane values, with a message. */
    capture_begin(&cap, 2);
    prof_impl_repeat(&mn, &mx, around_loop, &n, 0.0, -1.0, 1e300);
    out = capture_end(&cap);
    CHECK(strstr(out, "FLINT_CLOCKSPEED is 0") != NULL, "stderr [%s]", out);
    CHECK(strstr(out, "DURATION_TARGET is -1") != NULL, "stderr [%s]", out);
    CHECK(strstr(out, "DURATION_THRESHOLD is 1e+300") != NULL, "stderr [%s]", out);
    CHECK(mn > 0 && mn <= mx, "fallback %g %g", mn, mx);

    return check_report("test_repeat");
}
