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
       until the budget, counted in real (here fake) seconds, ends it. */
    t0 = fake_now;
    capture_begin(&cap, 2);
    prof_impl_repeat(&mn, &mx, fake_timed_us, NULL, 1e300, 10000.0, 5000.0);
    out = capture_end(&cap);
    CHECK(fake_now - t0 <= 5.0e9 * 1.001, "FLINT_CLOCKSPEED 1e300: took %g s",
          (fake_now - t0) * 1e-9);
    CHECK(strstr(out, "prof_repeat: stopped after") != NULL, "stderr [%s]", out);
    prof_impl_set_fake_clock(NULL, 0);
}

/* Preemption, with the fake clock and a fake switch counter: calls
   preempt_from..preempt_to are preempted (the counter grows during them)
   and take twice as long. A call that would count and was preempted is
   run again with the same count. */
static int fake_calls, preempt_from, preempt_to;
static double preempted_per_run = 500.0;

static void fake_preempted(void * arg, ulong count)
{
    double per_run = 250.0;
    (void) arg;
    fake_calls++;
    if (fake_calls >= preempt_from && fake_calls <= preempt_to)
    {
        fake_switches++;
        per_run = preempted_per_run;
    }
    clock_last[0] = 0.0;
    clock_accum[0] = per_run * (double) count;
    fake_now += per_run * (double) count;
}

static void preempted_run(int from, int to, double * mn, double * mx)
{
    capture_t cap;
    fake_calls = 0;
    preempt_from = from;
    preempt_to = to;
    capture_begin(&cap, 2);
    prof_impl_repeat(mn, mx, fake_preempted, NULL, 1e9, 2000.0, 1000.0);
    capture_end(&cap);
}

static void test_preemption(void)
{
    double mn, mx;
    double retries = prof_impl_repeat_retry_targets;

    prof_impl_set_fake_clock(fake_read, 1e9);
    prof_impl_fake_switches = fake_switch_read;
    /* Counts 1, 10, 100, 1000, then 10000 and 8000 x 4 count: 9 calls. */
    preempted_run(0, -1, &mn, &mx);
    CHECK(fake_calls == 9 && mn == 0.25 && mx == 0.25, "quiet: %d calls, %g..%g",
          fake_calls, mn, mx);
    /* Calls 6 and 7 (the 2nd and 3rd timings) preempted: run again. */
    preempted_run(6, 7, &mn, &mx);
    CHECK(fake_calls == 11 && mn == 0.25 && mx == 0.25, "two preempted: %d calls, %g..%g",
          fake_calls, mn, mx);
    /* A preempted ramp-up call only steers the count: no retry. */
    preempted_run(2, 2, &mn, &mx);
    CHECK(fake_calls == 9 && mn == 0.25 && mx == 0.25, "preempted ramp-up: %d calls, %g..%g",
          fake_calls, mn, mx);
    /* Always preempted: calls of 4 ms run again until they have taken
       100 x 2 ms (50 calls), then the calls count as they are. */
    preempted_run(5, 1000000, &mn, &mx);
    CHECK(fake_calls == 4 + 50 + 5 && mn == 0.5 && mx == 0.5,
          "always preempted: %d calls, %g..%g", fake_calls, mn, mx);
    prof_impl_repeat_retry_targets = 20.0;     /* 40 ms: 10 calls */
    preempted_run(5, 1000000, &mn, &mx);
    CHECK(fake_calls == 4 + 10 + 5, "retries for 20 targets: %d calls", fake_calls);
    prof_impl_repeat_retry_targets = retries;
    /* A budget that ends during retries (a preempted call of 8000 runs at
       200 us takes 1.6 s, more than the 1 s budget): the preempted calls
       give the result, with a message. */
    {
        capture_t cap;
        const char * out;
        fake_calls = 0;
        preempt_from = 5;
        preempt_to = 1000000;
        preempted_per_run = 200000.0;
        capture_begin(&cap, 2);
        prof_impl_repeat(&mn, &mx, fake_preempted, NULL, 1e9, 2000.0, 1000.0);
        out = capture_end(&cap);
        preempted_per_run = 500.0;
        CHECK(mn == 200 && mx == 200 && fake_calls == 5, "budget over retries: %d calls, %g..%g",
              fake_calls, mn, mx);
        CHECK(strstr(out, "were all preempted") != NULL, "stderr [%s]", out);
    }
    /* Retries off (profile/p-repeat-load's "before"): FLINT's behaviour. */
    prof_impl_repeat_retry_targets = 0.0;
    preempted_run(6, 7, &mn, &mx);
    CHECK(fake_calls == 9 + 1 && mn == 0.25 && mx == 0.5, "retries off: %d calls, %g..%g",
          fake_calls, mn, mx);
    prof_impl_repeat_retry_targets = retries;
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
    CHECK(out[0] == '\0', "unexpected message [%s]", out);
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
