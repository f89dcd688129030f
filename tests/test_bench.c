/* The benchmark runner driven by a fake clock: calibration, epochs, jitter,
   warm-up, budget, overhead, the loop macro, interleaving, relative mode,
   the paired comparison and complexity, with exact expected figures. */
#include "check.h"
#include "internal.h"
#include "bench_check.h"

#include <math.h>

/* A target whose iterations cost cost_ns each; if costs is set, call k of
   the measured phase costs costs[k] per iteration. */
typedef struct
{
    double cost_ns;
    const double * costs;
    int ncosts, calls, id;
    ulong first_count;
} fake_t;

static int call_log[4096], ncall_log;
static double fake_iters;       /* every fake_target's iterations */

static void fake_target(void * arg, ulong count)
{
    fake_t * f = (fake_t *) arg;
    double c = f->cost_ns;
    fake_iters += (double) count;
    if (f->calls == 0)
        f->first_count = count;
    if (f->costs != NULL && f->calls < f->ncosts)
        c = f->costs[f->calls];
    f->calls++;
    if (ncall_log < 4096)
        call_log[ncall_log++] = f->id;
    fake_now += c * (double) count;
}

/* FLINT style: setup outside prof_start/prof_stop costs 1000 ns, the timed
   part cost_ns per iteration (written to clock 0 as prof_stop would). */
static void flint_target(void * arg, ulong count)
{
    fake_t * f = (fake_t *) arg;
    fake_now += 1000.0;
    clock_last[0] = 0.0;
    clock_accum[0] = f->cost_ns * (double) count;
    fake_now += f->cost_ns * (double) count;
}

static prof_bench * quiet_suite(void)
{
    prof_bench * b = check_new();
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_epoch_jitter(b, 0.0);
    return b;
}

static void test_calibration(void)
{
    prof_bench * b = quiet_suite();
    fake_t f = { 5.0, NULL, 0, 0, 0, 0 };
    const prof_result * r;
    int i;

    r = prof_bench_run(b, "five", fake_target, &f);
    CHECK(r != NULL, "no result");
    if (r == NULL) return;
    /* counts 1, 10, ..., 10^5 (5e5 ns >= 1 ms / 10), then 1 ms / 5 ns */
    CHECK(r->epochs == 11, "epochs %d", r->epochs);
    for (i = 0; i < r->epochs; i++)
        CHECK(r->epoch_iters[i] == 200000, "epoch %d: %lu iterations", i,
              (unsigned long) r->epoch_iters[i]);
    CHECK(r->iterations == 2200000, "iterations %lu",
          (unsigned long) r->iterations);
    CHECK(f.calls == 6 + 11, "calls %d", f.calls);
    CHECK(near(r->median_ns, 5.0) && near(r->mean_ns, 5.0)
          && near(r->min_ns, 5.0) && near(r->max_ns, 5.0), "median %g",
          r->median_ns);
    CHECK(r->err_pct == 0.0, "err %g", r->err_pct);
    CHECK(near(r->ci_low_ns, 5.0) && near(r->ci_high_ns, 5.0), "ci");
    CHECK(near(r->ci_level, 1.0 - 2.0 * 12.0 / 2048.0), "level %g",
          r->ci_level);
    CHECK(near(r->total_s, (555555.0 + 11e6) * 1e-9), "total %.12g",
          r->total_s);
    CHECK(r->overhead_ns == 0.0, "overhead %g", r->overhead_ns);
    CHECK(r->flags == 0 && r->warning[0] == '\0', "flags %d: %s", r->flags,
          r->warning);
    CHECK(strcmp(r->name, "five") == 0 && strcmp(r->unit, "op") == 0,
          "name/unit");
    CHECK(isnan(r->relative_pct), "relative");
    CHECK(prof_bench_count(b) == 1 && prof_bench_result(b, 0) == r, "kept");
    CHECK(prof_bench_result(b, 1) == NULL && prof_bench_result(b, -1) == NULL,
          "out of range");
    prof_bench_free(b);
}

static void test_statistics(void)
{
    /* 6 calibration calls at 1 ns/iteration (counts 1..10^5, the last 1e5
       ns: base 10^6), then 11 epochs costing 1..11 ns per iteration */
    static const double costs[17] = { 1, 1, 1, 1, 1, 1,
                                      7, 1, 11, 2, 10, 3, 9, 4, 8, 5, 6 };
    prof_bench * b = quiet_suite();
    fake_t f = { 1.0, costs, 17, 0, 0, 0 };
    const prof_result * r;
    prof_bench_set_epochs(b, 11);   /* the adaptive schedule's most: these */
    r = prof_bench_run(b, "spread", fake_target, &f);
    CHECK(r != NULL && r->epochs == 11, "epochs");
    if (r == NULL) return;
    CHECK(r->epoch_iters[0] == 1000000, "base %lu",
          (unsigned long) r->epoch_iters[0]);
    CHECK(near(r->samples_ns[0], 7.0) && near(r->samples_ns[10], 6.0),
          "samples in run order");
    CHECK(near(r->median_ns, 6.0) && near(r->mean_ns, 6.0), "median %g mean %g",
          r->median_ns, r->mean_ns);
    CHECK(near(r->min_ns, 1.0) && near(r->max_ns, 11.0), "min/max");
    /* |x - 6| / 6 over 1..11: median 3/6 */
    CHECK(near(r->err_pct, 50.0), "MdAPE %g", r->err_pct);
    CHECK(near(r->ci_low_ns, 2.0) && near(r->ci_high_ns, 10.0),
          "interval [%g, %g]", r->ci_low_ns, r->ci_high_ns);
    CHECK(near(prof_result_percentile(r, 10), 2.0), "decile 1");
    CHECK(near(prof_result_percentile(r, 25), 3.5), "quartile %g",
          prof_result_percentile(r, 25));
    CHECK(near(prof_result_percentile(r, 100), 11.0), "max");
    CHECK(isnan(prof_result_percentile(r, 101))
          && isnan(prof_result_percentile(r, -1))
          && isnan(prof_result_percentile(NULL, 50)), "bad percentile");
    CHECK(r->flags & PROF_RESULT_UNSTABLE, "unstable not flagged");
    CHECK(strstr(r->warning, "unstable") != NULL, "warning: %s", r->warning);
    prof_bench_free(b);
}

static void test_bimodal(void)
{
    static const double costs[17] = { 1, 1, 1, 1, 1, 1,
                                      10, 20, 10, 20, 10, 20, 10.1, 20.1, 10,
                                      20, 10 };
    prof_bench * b = quiet_suite();
    fake_t f = { 1.0, costs, 17, 0, 0, 0 };
    capture_t cap;
    const char * err;
    const prof_result * r;
    prof_bench_set_epochs(b, 11);   /* the adaptive schedule's most: these */
    capture_begin(&cap, 2);
    r = prof_bench_run(b, "two speeds", fake_target, &f);
    err = capture_end(&cap);
    CHECK(r != NULL && (r->flags & PROF_RESULT_BIMODAL), "bimodal not flagged");
    CHECK(strstr(err, "profiler: two speeds: ") && strstr(err, "bimodal: 6 "
          "epochs near 10"), "message: %s", err);
    prof_bench_free(b);
}

static void test_settings(void)
{
    prof_bench * b = quiet_suite();
    fake_t f = { 5.0, NULL, 0, 0, 0, 0 };
    capture_t cap;
    const char * err;
    const prof_result * r;
    int i, differ = 0;

    capture_begin(&cap, 2);
    CHECK(prof_bench_set_epochs(b, 0) == -1, "zero epochs accepted");
    CHECK(prof_bench_set_epochs(b, -3) == -1, "negative epochs accepted");
    CHECK(prof_bench_set_complexity_n(b, 0) == -1, "N of 0 accepted");
    CHECK(prof_bench_set_complexity_n(b, NAN) == -1, "N NaN accepted");
    CHECK(prof_bench_set_min_epoch_time_ns(b, -1) == -1, "negative time");
    CHECK(prof_bench_set_budget_s(b, 0) == -1, "zero budget");
    CHECK(prof_bench_set_batch(b, 0, "byte") == -1, "zero batch");
    CHECK(prof_bench_set_time_unit(b, "fortnight") == -1, "bad time unit");
    CHECK(prof_bench_set_epochs(NULL, 5) == -1, "NULL suite");
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: prof_bench_set_epochs: epochs must be") != NULL,
          "message: %s", err);
    CHECK(strstr(err, "profiler: prof_bench_set_complexity_n: N must be > 0")
          != NULL, "message: %s", err);
    CHECK(strstr(err, "the suite is NULL") != NULL, "NULL suite message");

    /* the settings kept their values: 11 epochs, as the default */
    prof_bench_set_epoch_iterations(b, 1000);
    r = prof_bench_run(b, "exact", fake_target, &f);
    CHECK(r && r->epochs == 11 && f.calls == 11, "exact: %d calls", f.calls);
    for (i = 0; r && i < r->epochs; i++)
        CHECK(r->epoch_iters[i] == 1000, "exact iterations");
    prof_bench_set_epoch_iterations(b, 0);

    /* warm-up: the first calls run the warm-up iterations, 1 then 10x
       as many (6, the rest), before the calibration's 6 calls */
    prof_bench_set_warmup(b, 7);
    f.calls = 0;
    fake_iters = 0.0;
    r = prof_bench_run(b, "warm", fake_target, &f);
    CHECK(f.first_count == 1 && f.calls == 2 + 6 + 11 && r
          && fake_iters == 7.0 + 111111.0 + 11 * 200000.0, "warm-up %lu, "
          "%d calls, %.0f iterations", (unsigned long) f.first_count,
          f.calls, fake_iters);
    prof_bench_set_warmup(b, 0);

    /* jitter: iterations in [base, 1.2 base), never under the minimum
       epoch time, not all equal; same figure */
    prof_bench_set_epoch_jitter(b, 0.2);
    prof_bench_set_schedule(b, PROF_SCHEDULE_FIXED);    /* 21 counts */
    prof_bench_set_epochs(b, 21);
    r = prof_bench_run(b, "jitter", fake_target, &f);
    for (i = 0; r && i < r->epochs; i++)
    {
        CHECK(r->epoch_iters[i] >= 200000 && r->epoch_iters[i] < 240000,
              "jittered %lu", (unsigned long) r->epoch_iters[i]);
        differ += r->epoch_iters[i] != r->epoch_iters[0];
    }
    CHECK(r && r->epochs == 21 && differ > 10, "jitter: %d differ", differ);
    CHECK(r && near(r->median_ns, 5.0), "jitter median");

    /* batch and minimum epoch time */
    prof_bench_set_epochs(b, 11);
    prof_bench_set_schedule(b, PROF_SCHEDULE_ADAPTIVE);
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_set_batch(b, 64, "byte");
    prof_bench_set_min_epoch_time_ns(b, 2e6);
    r = prof_bench_run(b, "batch", fake_target, &f);
    CHECK(r && near(r->median_ns, 5.0 / 64) && r->epoch_iters[0] == 400000
          && strcmp(r->unit, "byte") == 0, "batch: %g ns/byte, %lu",
          r ? r->median_ns : 0, r ? (unsigned long) r->epoch_iters[0] : 0);
    prof_bench_free(b);
}

static void test_overhead_and_flint(void)
{
    prof_bench * b = quiet_suite();
    fake_t f = { 5.0, NULL, 0, 0, 0, 0 };
    const prof_result * r = prof_bench_run(b, "flint", flint_target, &f);
    CHECK(r && near(r->median_ns, 5.0), "only prof_start..prof_stop counts: %g",
          r ? r->median_ns : 0);
    /* the whole call (1000 ns of setup) counts toward the time spent */
    CHECK(r && r->total_s > 11 * 1e-3, "total %g", r ? r->total_s : 0);
    /* processor time covers what real time covers (the fake clock counts
       processor time as wall time, set-up included): not more than it */
    CHECK(r && near(r->cpu_ns, 5.0), "cpu %g ns vs real %g ns",
          r ? r->cpu_ns : 0, r ? r->median_ns : 0);
    prof_bench_free(b);
}

/* prof_start without prof_stop: clock 0 times nothing, while each run
   spends 4.4 us outside it. */
static void untimed_target(void * arg, ulong count)
{
    (void) arg;
    clock_last[0] = fake_now;       /* prof_start(), never stopped */
    clock_accum[0] = 0.0;
    fake_now += 4400.0 * (double) count;
}

/* The calibration grows the count by the whole call's time, not the timed
   part's alone: a 1 s budget ends the run near 1 s,
   not one 10x step later (4.9 s); and no epoch lasts longer than the
   maximum epoch time. */
static void test_budget_whole_call(void)
{
    prof_bench * b = quiet_suite();
    const prof_result * r;
    capture_t cap;
    int i, ok = 1;
    prof_bench_set_budget_s(b, 1.0);
    capture_begin(&cap, 2);
    r = prof_bench_run(b, "untimed", untimed_target, NULL);
    capture_end(&cap);
    CHECK(r && r->total_s <= 1.2, "ran %g s against a 1 s budget",
          r ? r->total_s : -1);
    for (i = 0; r && i < r->epochs; i++)
        ok &= 4400.0 * (double) r->epoch_iters[i] <= 1e8 * 1.1;
    CHECK(ok, "an epoch past the 100 ms maximum (%lu iterations)",
          r ? (unsigned long) r->epoch_iters[0] : 0);
    prof_bench_free(b);
}

/* The budget bounds warm-up too: 2^40 warm-up
   iterations of 5 ns (an hour and a half) against a 0.1 s budget spend at
   most half of it, said, and the epochs still run; a slow target's one
   epoch past the budget is its sample with the count it ran (not the
   next one's: a warm-up epoch over the budget once came out as 13 s per
   iteration, a calibration epoch at 1/4 of its cost). */
static void test_budget_warmup(void)
{
    prof_bench * b = quiet_suite();
    fake_t f = { 5.0, NULL, 0, 0, 0, 0 };
    const prof_result * r;
    capture_t cap;
    double t0 = fake_now;
    const char * err;
    prof_bench_set_budget_s(b, 0.1);
    prof_bench_set_warmup(b, (ulong) 1 << 40);
    fake_iters = 0.0;
    capture_begin(&cap, 2);
    r = prof_bench_run(b, "warm", fake_target, &f);
    err = capture_end(&cap);
    CHECK(r && r->total_s <= 0.1 * 1.2 && (fake_now - t0) * 1e-9 <= 0.12,
          "warm-up: %g s against a 0.1 s budget", r ? r->total_s : -1);
    CHECK(r && r->epochs == 11 && near(r->median_ns, 5.0), "warm-up: %d "
          "epochs of %g ns", r ? r->epochs : -1, r ? r->median_ns : -1);
    CHECK(r && strstr(r->warning, "warm-up cut short by the time budget "
          "(0.1 s; it may spend half): fewer than the 1099511627776 "
          "iterations asked ran") && strstr(err, "warm-up cut short"),
          "warm-up: warning [%s]", r ? r->warning : "");
    /* 300 us an iteration, a budget of 200 us: the calibration's first
       epoch (1 iteration) is the sample, whatever count comes next */
    prof_bench_set_warmup(b, 0);
    prof_bench_set_budget_s(b, 2e-4);
    f.cost_ns = 3e5;
    capture_begin(&cap, 2);
    r = prof_bench_run(b, "slow", fake_target, &f);
    capture_end(&cap);
    CHECK(r && r->epochs == 1 && r->epoch_iters[0] == 1
          && near(r->median_ns, 3e5), "slow: %d epochs, %g ns",
          r ? r->epochs : -1, r ? r->median_ns : -1);
    /* a warm-up epoch past the budget: a calibration epoch still runs,
       the sample */
    prof_bench_set_warmup(b, 5);
    f.calls = 0;
    capture_begin(&cap, 2);
    r = prof_bench_run(b, "slow warm", fake_target, &f);
    capture_end(&cap);
    CHECK(r && f.calls == 2 && r->epochs == 1 && r->epoch_iters[0] == 1
          && near(r->median_ns, 3e5) && strstr(r->warning, "warm-up cut"),
          "slow warm: %d calls, %d epochs, %g ns", f.calls,
          r ? r->epochs : -1, r ? r->median_ns : -1);
    prof_bench_free(b);
}

/* A big jitter never makes a count negative or below the floor: at most
   1 (+0-100%) is taken; the floor holds. */
static void test_jitter_bounds(void)
{
    prof_bench * b = quiet_suite();
    fake_t f = { 5.0, NULL, 0, 0, 0, 0 };
    const prof_result * r;
    capture_t cap;
    const char * err;
    int i, ok = 1;
    capture_begin(&cap, 2);
    CHECK(prof_bench_set_epoch_jitter(b, 1.5) == -1
          && prof_bench_set_epoch_jitter(b, 10.0) == -1, "jitter > 1 accepted");
    err = capture_end(&cap);
    CHECK(strstr(err, "prof_bench_set_epoch_jitter: must be 0..1"), "%s", err);
    CHECK(prof_bench_set_epoch_jitter(b, 1.0) == 0, "jitter 1 refused");
    prof_bench_set_min_epoch_iterations(b, 5000);
    prof_bench_set_schedule(b, PROF_SCHEDULE_FIXED);    /* 41 counts */
    prof_bench_set_epochs(b, 41);
    r = prof_bench_run(b, "wide jitter", fake_target, &f);
    for (i = 0; r && i < r->epochs; i++)
        ok &= r->epoch_iters[i] >= 200000 && r->epoch_iters[i] < 400000;
    CHECK(r && r->epochs == 41 && ok, "epochs of 200000..400000 iterations");
    /* an epoch that the floor makes longer than the jitter wanted */
    prof_bench_set_min_epoch_iterations(b, 250000);
    r = prof_bench_run(b, "floor", fake_target, &f);
    for (i = 0, ok = 1; r && i < r->epochs; i++)
        ok &= r->epoch_iters[i] >= 250000;
    CHECK(r && ok, "min_epoch_iterations 250000 under jitter 1");
    prof_bench_free(b);
}

static double ticking_now;
static double ticking_read(void) { return ticking_now += 3.0; }
static void ticking_target(void * arg, ulong count)
{
    (void) arg;
    ticking_now += 4.0 * (double) count;
}

static void test_overhead_subtracted(void)
{
    /* every read advances the clock 3 ns: the measured pair cost, 3 ns, is
       subtracted from each epoch, leaving exactly 4 ns per iteration */
    prof_bench * b;
    const prof_result * r;
    prof_impl_set_fake_clock(ticking_read, 1e9);
    b = quiet_suite();
    prof_bench_set_epoch_iterations(b, 1000);
    r = prof_bench_run(b, "ticking", ticking_target, NULL);
    CHECK(r && near(r->median_ns, 4.0) && near(r->overhead_ns, 3.0),
          "median %g overhead %g", r ? r->median_ns : 0,
          r ? r->overhead_ns : 0);
    prof_bench_free(b);
    prof_impl_set_fake_clock(fake_read, 1e9);
}

static void test_loop_macro(void)
{
    prof_bench * b = quiet_suite();
    const prof_result * r;
    ulong runs = 0;
    PROF_BENCH_LOOP(b, "inline")
    {
        fake_now += 7.0;
        runs++;
    }
    CHECK(prof_bench_count(b) == 1, "no result");
    r = prof_bench_result(b, 0);
    CHECK(r && near(r->median_ns, 7.0) && r->epochs == 11 && r->err_pct == 0.0,
          "loop median %g", r ? r->median_ns : 0);
    /* calibration 1..10^5 (1e5 * 7 >= 1e5), then 1e6 / 7 rounded up: an
       epoch never under the minimum epoch time */
    CHECK(r && r->epoch_iters[0] == 142858, "loop base %lu",
          r ? (unsigned long) r->epoch_iters[0] : 0);
    CHECK(r && runs == 111111 + 11 * (ulong) 142858, "runs %lu",
          (unsigned long) runs);
    /* filtered out: the code never runs */
    prof_bench_set_filter(b, "^chain");
    runs = 0;
    PROF_BENCH_LOOP(b, "inline 2") { runs++; }
    CHECK(runs == 0 && prof_bench_count(b) == 1, "filtered loop ran");
    prof_bench_free(b);
}

static void test_bad_targets(void)
{
    prof_bench * b = quiet_suite();
    fake_t zero = { 0.0, NULL, 0, 0, 0, 0 }, slow = { 2e9, NULL, 0, 0, 0, 0 };
    capture_t cap;
    const char * err;
    const prof_result * r;

    capture_begin(&cap, 2);
    r = prof_bench_run(b, "nothing", fake_target, &zero);
    err = capture_end(&cap);
    CHECK(r && (r->flags & PROF_RESULT_RESOLUTION) && r->median_ns == 0.0,
          "nothing: flags %d", r ? r->flags : -1);
    CHECK(strstr(err, "profiler: nothing: ") && strstr(err, "optimised away"),
          "message: %s", err);

    /* The same, with its warm-up and first calibration call preempted
       (1 ms an iteration), on a clock whose two reads cost no tick (as
       the ARM64 counter under qemu can; the fake clock's do): the
       calibration stops at a small count, and the epochs that then time
       nothing must still be seen as under the resolution, and grow the
       count as an epoch that shows a smaller cost would (a CI run under
       qemu once found neither). */
    {
        static const double preempted[2] = { 1e6, 1e6 };
        fake_t late = { 0.0, preempted, 2, 0, 0, 0 };
        capture_begin(&cap, 2);
        r = prof_bench_run(b, "nothing late", fake_target, &late);
        err = capture_end(&cap);
        CHECK(r && (r->flags & PROF_RESULT_RESOLUTION) && r->median_ns == 0.0,
              "nothing late: %g ns, flags %d", r ? r->median_ns : -1.0,
              r ? r->flags : -1);
        CHECK(strstr(err, "profiler: nothing late: ")
              && strstr(err, "optimised away"), "message: %s", err);
        CHECK(r && r->epochs >= 2
              && r->epoch_iters[r->epochs - 1] > 1000 * r->epoch_iters[0],
              "the count did not grow: %lu then %lu",
              r ? (unsigned long) r->epoch_iters[0] : 0UL,
              r && r->epochs > 0
              ? (unsigned long) r->epoch_iters[r->epochs - 1] : 0UL);
    }

    /* 2 s per iteration, budget 5 s: calibration (2 s), then 2 epochs */
    capture_begin(&cap, 2);
    r = prof_bench_run(b, "slow", fake_target, &slow);
    err = capture_end(&cap);
    CHECK(r && r->epochs == 2 && near(r->median_ns, 2e9), "slow: %d epochs",
          r ? r->epochs : -1);
    CHECK(r && (r->flags & PROF_RESULT_BUDGET) && (r->flags & PROF_RESULT_FEW_EPOCHS)
          && isnan(r->ci_low_ns), "slow flags");
    CHECK(r && near(r->total_s, 6.0), "slow total %g", r ? r->total_s : 0);
    CHECK(strstr(err, "time budget (5 s) after 2 of at most 100 epochs"), "message: %s",
          err);

    capture_begin(&cap, 2);
    r = prof_bench_run(b, NULL, fake_target, &zero);
    CHECK(r && strcmp(r->name, "benchmark 4") == 0, "NULL name: %s",
          r ? r->name : "");
    CHECK(prof_bench_run(b, "x", NULL, NULL) == NULL, "NULL target");
    CHECK(prof_bench_run(NULL, "x", fake_target, &zero) == NULL, "NULL suite");
    CHECK(prof_bench_add(b, "x", NULL, NULL) == -1, "NULL target added");
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: benchmark name is NULL; named \"benchmark 4\""),
          "message: %s", err);
    CHECK(strstr(err, "profiler: prof_bench_run(\"x\"): the target is NULL"),
          "message: %s", err);
    prof_bench_free(b);
    prof_bench_free(NULL);
}

static void test_suite(void)
{
    prof_bench * b = quiet_suite();
    fake_t a = { 10.0, NULL, 0, 0, 1, 0 }, c = { 5.0, NULL, 0, 0, 2, 0 };
    const prof_result * r;
    int i, alternations = 0;

    prof_bench_set_interleave(b, 1);
    prof_bench_set_relative(b, 1);
    prof_bench_add(b, "base", fake_target, &a);
    prof_bench_add(b, "fast", fake_target, &c);
    ncall_log = 0;
    CHECK(prof_bench_run_all(b) == 2, "run_all");
    /* calibration: 5 calls of a (10 ns), 6 of c (5 ns); then 11 rounds,
       each one epoch of a and one of c, in a shuffled order */
    for (i = 11; i + 1 < ncall_log; i += 2)
        alternations += call_log[i] != call_log[i + 1];
    CHECK(ncall_log == 5 + 6 + 22 && alternations == 11,
          "interleaving: %d calls, %d rounds with both", ncall_log,
          alternations);
    {
        int a_first = 0;
        for (i = 11; i + 1 < ncall_log; i += 2)
            a_first += call_log[i] == 1;
        CHECK(a_first > 0 && a_first < 11, "order never shuffled: %d", a_first);
    }
    r = prof_bench_result(b, 0);
    CHECK(r && near(r->relative_pct, 100.0), "baseline");
    r = prof_bench_result(b, 1);
    CHECK(r && near(r->relative_pct, 200.0) && near(r->median_ns, 5.0),
          "relative %g", r ? r->relative_pct : 0);

    /* not interleaved: all of a, then all of c */
    prof_bench_set_interleave(b, 0);
    prof_bench_add(b, "a2", fake_target, &a);
    prof_bench_add(b, "c2", fake_target, &c);
    ncall_log = 0;
    prof_bench_run_all(b);
    alternations = 0;
    for (i = 1; i < ncall_log; i++)
        alternations += call_log[i] != call_log[i - 1];
    CHECK(alternations == 1, "sequential: %d alternations", alternations);
    prof_bench_free(b);
}

static void test_compare(void)
{
    prof_bench * b = quiet_suite();
    fake_t a = { 10.0, NULL, 0, 0, 0, 0 }, c = { 11.0, NULL, 0, 0, 0, 0 },
           d = { 10.0, NULL, 0, 0, 0, 0 };
    prof_comparison cmp = prof_bench_compare(b, "a", fake_target, &a,
                                             "c", fake_target, &c);
    CHECK(near(cmp.ratio, 1.1) && cmp.significant && cmp.rounds == 11,
          "ratio %g significant %d", cmp.ratio, cmp.significant);
    CHECK(near(cmp.p_value, 2.0 / 2048.0), "p %g", cmp.p_value);
    CHECK(near(cmp.median_a_ns, 10.0) && near(cmp.median_b_ns, 11.0), "medians");
    cmp = prof_bench_compare(b, "a", fake_target, &a, "d", fake_target, &d);
    CHECK(near(cmp.ratio, 1.0) && !cmp.significant && cmp.p_value == 1.0,
          "equal: ratio %g significant %d p %g", cmp.ratio, cmp.significant,
          cmp.p_value);
    cmp = prof_bench_compare(b, "a", NULL, NULL, "d", fake_target, &d);
    CHECK(isnan(cmp.ratio) && !cmp.significant, "NULL target compared");
    prof_bench_free(b);

    /* a target timed at 0 (NaN ratios before) */
    b = quiet_suite();
    {
        fake_t e = { 0.0, NULL, 0, 0, 0, 0 }, e2 = { 0.0, NULL, 0, 0, 0, 0 };
        cmp = prof_bench_compare(b, "e", fake_target, &e, "c", fake_target, &c);
        CHECK(isinf(cmp.ratio) && cmp.ratio > 0 && cmp.significant,
              "0 vs 11 ns: ratio %g significant %d", cmp.ratio, cmp.significant);
        cmp = prof_bench_compare(b, "e", fake_target, &e, "e2", fake_target, &e2);
        CHECK(cmp.ratio == 1.0 && !cmp.significant && cmp.p_value == 1.0,
              "0 vs 0 ns: ratio %g significant %d p %g", cmp.ratio,
              cmp.significant, cmp.p_value);
    }
    prof_bench_free(b);
}

/* The comparison's line goes into a markdown output only: in a JSON (or
   CSV) file it came before the results and the file did not parse. */
static void test_compare_output(void)
{
    prof_format fmt[3] = { PROF_FORMAT_JSON, PROF_FORMAT_CSV, PROF_FORMAT_MD };
    int k;
    for (k = 0; k < 3; k++)
    {
        prof_bench * b = quiet_suite();
        fake_t a = { 10.0, NULL, 0, 0, 0, 0 }, c = { 11.0, NULL, 0, 0, 0, 0 };
        FILE * f = tmpfile();
        char text[64] = "";
        CHECK(f != NULL, "tmpfile");
        if (f == NULL) { prof_bench_free(b); return; }
        prof_bench_set_format(b, fmt[k]);
        prof_bench_set_output(b, f);
        (void) prof_bench_compare(b, "a", fake_target, &a, "c", fake_target, &c);
        prof_bench_run(b, "a", fake_target, &a);
        prof_bench_free(b);
        rewind(f);
        if (fgets(text, sizeof text, f) == NULL)
            text[0] = '\0';
        fclose(f);
        if (fmt[k] == PROF_FORMAT_JSON)
            CHECK(text[0] == '{', "JSON output starts with \"%s\"", text);
        else if (fmt[k] == PROF_FORMAT_CSV)
            CHECK(strncmp(text, "a: ", 3) != 0, "CSV output starts with \"%s\"", text);
        else
            CHECK(strncmp(text, "a: ", 3) == 0, "markdown: \"%s\"", text);
    }
}

/* Calls 8 and 10 (measured epochs 2 and 4) are "preempted": they cost 100
   ns per iteration and the fake switch counter grows during them. */
static int preempt_calls;
static void preempted_target(void * arg, ulong count)
{
    (void) arg;
    preempt_calls++;
    if (preempt_calls == 8 || preempt_calls == 10)
    {
        fake_switches++;
        fake_now += 100.0 * (double) count;
    }
    else
        fake_now += 5.0 * (double) count;
}

static void test_preempted(void)
{
    prof_bench * b = quiet_suite();
    const prof_result * r;
    prof_impl_fake_switches = fake_switch_read;
    preempt_calls = 0;
    r = prof_bench_run(b, "retried", preempted_target, NULL);
    CHECK(r && preempt_calls == 6 + 11 + 2 && near(r->max_ns, 5.0)
          && r->epochs == 11, "retried: %d calls, max %g", preempt_calls,
          r ? r->max_ns : 0);
    prof_bench_set_preempt_retries(b, 0);
    preempt_calls = 0;
    r = prof_bench_run(b, "kept", preempted_target, NULL);
    /* the two kept (20x) widen the interval of 11 to [5, 100], but the
       epochs' time passed the fixed schedule's 11 x 1 ms: the adaptive
       schedule stops there too */
    CHECK(r && preempt_calls == 6 + 11 && near(r->max_ns, 100.0)
          && near(r->median_ns, 5.0), "kept: %d calls, max %g",
          preempt_calls, r ? r->max_ns : 0);
    prof_bench_set_preempt_retries(b, 1);
    preempt_calls = 0;
    r = prof_bench_run(b, "one retry", preempted_target, NULL);
    CHECK(r && preempt_calls == 6 + 11 + 1 && near(r->max_ns, 100.0),
          "one retry: %d calls", preempt_calls);
    CHECK(prof_bench_set_preempt_retries(b, -1) == -1, "negative retries");
    prof_impl_fake_switches = NULL;
    prof_bench_free(b);
}

static double f_sqrt(double n) { return sqrt(n); }

static void test_complexity(void)
{
    prof_bench * b = quiet_suite();
    fake_t f[4];
    static const double ns[4] = { 10, 100, 1000, 10000 };
    prof_fit fits[8];
    char name[32];
    int i, n;

    prof_bench_add_complexity(b, "O(sqrt n)", f_sqrt);
    for (i = 0; i < 4; i++)
    {
        memset(&f[i], 0, sizeof f[i]);
        f[i].cost_ns = 3.0 * ns[i];
        prof_bench_set_complexity_n(b, ns[i]);
        sprintf(name, "linear/%d", (int) ns[i]);
        prof_bench_run(b, name, fake_target, &f[i]);
    }
    n = prof_bench_complexity(b, "linear", fits, 8);
    CHECK(n == 7, "%d fits", n);
    CHECK(n > 0 && strcmp(fits[0].name, "O(n)") == 0 && near(fits[0].coefficient, 3.0)
          && fits[0].rms_pct < 1e-9, "best %s %g %g", fits[0].name,
          fits[0].coefficient, fits[0].rms_pct);
    for (i = 1; i < n; i++)
        CHECK(fits[i].rms_pct >= fits[i - 1].rms_pct, "ranked");
    prof_bench_free(b);

    b = quiet_suite();
    {
        capture_t cap;
        const char * err;
        capture_begin(&cap, 2);
        n = prof_bench_complexity(b, NULL, fits, 8);
        err = capture_end(&cap);
        CHECK(n == 0 && strstr(err, "2 or more needed"), "no N: %s", err);
    }
    prof_bench_free(b);
}

int main(void)
{
    prof_impl_set_fake_clock(fake_read, 1e9);
    test_calibration();
    test_statistics();
    test_bimodal();
    test_settings();
    test_overhead_and_flint();
    test_jitter_bounds();
    test_budget_whole_call();
    test_budget_warmup();
    test_overhead_subtracted();
    test_loop_macro();
    test_bad_targets();
    test_suite();
    test_compare();
    test_compare_output();
    test_complexity();
    test_preempted();
    prof_impl_set_fake_clock(NULL, 0);
    return check_report("test_bench");
}
