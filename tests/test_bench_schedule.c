/* The adaptive schedule driven by the fake clock: epochs of the clock's
   resolution multiple (a given minimum epoch time stays a floor), at
   least those the interval and the outputs' percentiles need (LEAST for
   the default p10 and p90, fewer or more as the percentiles say), a run
   stopped as soon as the median's interval is within the precision, a
   noisy one run to its most epochs, the fixed schedule's least time or
   its time budget, and an interval that keeps its level over many
   simulated runs of a known distribution; the fixed schedule keeps its
   count. */
#include "check.h"
#include "bench.h"
#include "bench_check.h"
#include "bench_settings.h"

#include <math.h>

/* The default percentiles' least: p10 and p90 need 1 + 100 / 10 epochs
   (more than the interval's PROF_MIN_INTERVAL_EPOCHS). */
enum { LEAST = 11 };

/* A target whose calls cost 5 ns x (1 + spread x u) an iteration, u
   uniform in [-1, 1) from its own generator (the population median is
   5 ns: u is symmetric). */
typedef struct
{
    double spread, scale;       /* scale: x 5 ns (1) */
    unsigned long long rng;
    int calls;
} noisy_t;

static void noisy(void * arg, ulong count)
{
    noisy_t * t = (noisy_t *) arg;
    double u = 2.0 * prof_impl_uniform(&t->rng) - 1.0;
    t->calls++;
    fake_now += 5.0 * t->scale * (1.0 + t->spread * u) * (double) count;
}

static noisy_t noise(double spread, unsigned long long seed)
{
    noisy_t t;
    t.spread = spread;
    t.scale = 1.0;
    t.rng = seed;
    t.calls = 0;
    return t;
}

static prof_bench * schedule_suite(void)
{
    prof_bench * b = prof_bench_new();
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_set_schedule(b, PROF_SCHEDULE_ADAPTIVE); /* not the default */
    return b;
}

/* A small spread stops at the least epochs; a noisy target runs to its
   most epochs, or to its time budget (said). */
static void test_stops(void)
{
    prof_bench * b = schedule_suite();
    noisy_t t = noise(0.001, 1);
    const prof_result * r = prof_bench_run(b, "steady", noisy, &t);
    capture_t cap;
    capture_begin(&cap, 2);     /* the noisy rows' "unstable" */
    CHECK(r && r->epochs == LEAST
          && !(r->flags & PROF_RESULT_BUDGET), "steady: %d epochs",
          r ? r->epochs : -1);
    /* the epochs: the resolution (1 ns here) x 1000, no floor (the count
       from a calibration 0.1% off) */
    CHECK(r && r->epoch_iters[0] >= 199 && r->epoch_iters[0] <= 201,
          "steady: %lu iterations",
          r ? (unsigned long) r->epoch_iters[0] : 0UL);
    t = noise(0.5, 2);
    r = prof_bench_run(b, "noisy", noisy, &t);
    CHECK(r && r->epochs == (int) prof_impl_adaptive_epochs_range.def,
          "noisy: %d epochs", r ? r->epochs : -1);
    /* a noisy long operation: no more time in epochs than the fixed
       schedule's least, 11 x 1 ms (22 epochs of 0.5 ms) */
    t = noise(0.5, 8);
    t.scale = 1e5;
    r = prof_bench_run(b, "noisy, long", noisy, &t);
    CHECK(r && r->epochs >= 20 && r->epochs <= 24, "noisy, long: %d epochs",
          r ? r->epochs : -1);
    prof_bench_set_epochs(b, 300);
    prof_bench_set_budget_s(b, 1e-4);   /* about 50 epochs of 2 us */
    t = noise(0.5, 3);
    r = prof_bench_run(b, "noisy, budget", noisy, &t);
    CHECK(r && r->epochs > LEAST && r->epochs < 300
          && (r->flags & PROF_RESULT_BUDGET), "noisy, budget: %d epochs, "
          "flags %d", r ? r->epochs : -1, r ? r->flags : -1);
    /* a given minimum epoch time is a floor */
    CHECK(strstr(capture_end(&cap), "after 50 of at most 300 epochs") != NULL,
          "the budget unsaid");
    prof_bench_set_budget_s(b, 5.0);
    prof_bench_set_min_epoch_time_ns(b, 1e6);
    t = noise(0.001, 4);
    r = prof_bench_run(b, "floor", noisy, &t);
    CHECK(r && r->epochs == LEAST
          && r->epoch_iters[0] >= 199800 && r->epoch_iters[0] <= 200200,
          "floor: %lu iterations",
          r ? (unsigned long) r->epoch_iters[0] : 0UL);
    prof_bench_free(b);
}

/* The least epochs hold at any precision; fewer only when the most is
   set lower; the fixed schedule runs its count whatever the spread. */
static void test_least(void)
{
    prof_bench * b = schedule_suite();
    noisy_t t = noise(0.0, 5);
    const prof_result * r;
    capture_t cap;
    const char * err;
    int i;
    capture_begin(&cap, 2);     /* the noisy rows' "unstable" */
    CHECK(prof_bench_set_precision_pct(b, 100.0) == 0, "100%% refused");
    r = prof_bench_run(b, "loose", noisy, &t);
    CHECK(r && r->epochs == LEAST, "loose: %d",
          r ? r->epochs : -1);
    /* the least follows the percentiles printed: the median alone leaves
       the interval's, p5 and p95 need 21 */
    CHECK(prof_bench_set_percentiles(b, (const double[]) { 50 }, 1) == 0,
          "p50 refused");
    r = prof_bench_run(b, "loose, p50", noisy, &t);
    CHECK(r && r->epochs == PROF_MIN_INTERVAL_EPOCHS, "loose, p50: %d",
          r ? r->epochs : -1);
    CHECK(prof_bench_set_percentiles(b, (const double[]) { 5, 95 }, 2) == 0,
          "p5 p95 refused");
    r = prof_bench_run(b, "loose, p5", noisy, &t);
    CHECK(r && r->epochs == 21, "loose, p5: %d", r ? r->epochs : -1);
    prof_bench_set_percentiles(b, (const double[]) { 10, 50, 90 }, 3);
    prof_bench_set_epochs(b, 7);
    t = noise(0.5, 6);
    r = prof_bench_run(b, "most 7", noisy, &t);
    CHECK(r && r->epochs == 7, "most 7: %d", r ? r->epochs : -1);
    prof_bench_set_epochs(b, 11);
    prof_bench_set_schedule(b, PROF_SCHEDULE_FIXED);
    t = noise(0.5, 7);
    r = prof_bench_run(b, "fixed", noisy, &t);
    CHECK(r && r->epochs == 11, "fixed: %d epochs", r ? r->epochs : -1);
    for (i = 0; r && i < r->epochs; i++)
        CHECK(r->samples_ns[i] * (double) r->epoch_iters[i] >= 1e6,
              "fixed: epoch %d under 1 ms", i);
    {
        char * bad[] = { (char *) "p", (char *) "--schedule=sometimes" };
        char * fixed[] = { (char *) "p", (char *) "--schedule=fixed",
                           (char *) "--precision=0.5" };
        CHECK(prof_bench_args(b, 2, bad) == -1, "--schedule=sometimes");
        CHECK(prof_bench_args(b, 3, fixed) == 0, "--schedule=fixed");
    }
    CHECK(prof_bench_set_schedule(b, (prof_schedule) 7) == -1, "7");
    CHECK(prof_bench_set_precision_pct(b, 0.0) == -1, "0%%");
    CHECK(prof_bench_set_schedule(NULL, PROF_SCHEDULE_FIXED) == -1, "NULL");
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: prof_bench_set_schedule: unknown schedule")
          && strstr(err, "prof_bench_set_precision_pct: the precision must "
                    "be > 0 and <= 100")
          && strstr(err, "--schedule=sometimes: fixed or adaptive is "
                    "expected"), "%s", err);
    prof_bench_free(b);
}

/* Over many runs of a known distribution (median 5 ns), the stopped
   run's interval holds the median about as often as its level says:
   stopping when it is narrow costs some (generous bound: 85%, 95% said). */
static void test_coverage(void)
{
    prof_bench * b = schedule_suite();
    const int runs = 400;
    int i, covered = 0, early = 0;
    capture_t cap;
    capture_begin(&cap, 2);     /* rows "unstable" at the 5% line */
    prof_bench_set_precision_pct(b, 2.0);
    for (i = 0; i < runs; i++)
    {
        noisy_t t = noise(0.1, 1000 + (unsigned long long) i * 7919);
        const prof_result * r = prof_bench_run(b, "coverage", noisy, &t);
        if (r == NULL)
            continue;
        covered += r->ci_low_ns <= 5.0 && 5.0 <= r->ci_high_ns;
        early += r->epochs < (int) prof_impl_adaptive_epochs_range.def;
    }
    (void) capture_end(&cap);
    CHECK(covered >= runs * 85 / 100, "covered %d of %d", covered, runs);
    CHECK(early > runs / 2, "stopped early in %d of %d", early, runs);
    printf("coverage: %d of %d intervals hold the median (%d stopped "
           "early)\n", covered, runs, early);
    prof_bench_free(b);
}

int main(void)
{
    prof_impl_set_fake_clock(fake_read, 1e9);
    test_stops();
    test_least();
    test_coverage();
    prof_impl_set_fake_clock(NULL, 0);
    return check_report("test_bench_schedule");
}
