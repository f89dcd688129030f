/*
    Where the next run lands (bench_history.c): the prediction half-width
    from known changes between runs, the next-run interval from it and from
    the processes' spread (fake processes: epochs with known medians), and
    the history file (written whole, read back, a damaged file or another
    machine's ignored with a message, never fatal).
    SPDX-License-Identifier: MIT
*/
#include "check.h"
#include "history.h"

#include <math.h>

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fabs(b);
}

/* The half-width: none without changes; with 19 or more the order
   statistic k = ceil(0.95 (n + 1)) of the benchmark's own |change|; with
   fewer, Student's t over the own changes shrunk towards the pool (weight
   min(npool, 4)). */
static void test_halfwidth(void)
{
    double own[40], pool[64], work[64], h;
    int i;
    CHECK(isnan(prof_impl_next_halfwidth(NULL, 0, NULL, 0, work)),
          "no changes: unknown");
    for (i = 0; i < 40; i++)        /* |d| = 0.001 .. 0.040, signs mixed */
        own[i] = (i % 2 ? -1 : 1) * 0.001 * (i + 1);
    /* k = ceil(0.95 x 41) = 39: the 39th smallest |d| */
    h = prof_impl_next_halfwidth(own, 40, own, 40, work);
    CHECK(near(h, 0.039, 1e-12), "40 own changes: %g, want 0.039", h);
    /* 19 is the fewest with an order statistic: k = 19, the largest */
    h = prof_impl_next_halfwidth(own, 19, own, 19, work);
    CHECK(near(h, 0.019, 1e-12), "19 own changes: %g, want 0.019", h);
    /* 18 own: Student's t, shrunk towards the pool of the same 18 (k = 4,
       df 22): t(22) = 2.074 x the root mean square */
    {
        double ss = 0.0;
        for (i = 0; i < 18; i++)
            ss += own[i] * own[i];
        h = prof_impl_next_halfwidth(own, 18, own, 18, work);
        CHECK(near(h, 2.074 * sqrt(ss / 18), 1e-9), "18 own: %g, want %g", h,
              2.074 * sqrt(ss / 18));
    }
    /* 3 own changes in a wide pool of 64 (|d| = 0.01 .. 0.64): never the
       pool's order statistic (a memory-bound benchmark's spread is not a
       chain's), its mean square at weight 4: t(7) = 2.365 */
    for (i = 0; i < 64; i++)
        pool[i] = 0.01 * (i + 1);
    {
        double ms = 0.0, ss = 0.0, want;
        for (i = 0; i < 64; i++)
            ms += pool[i] * pool[i] / 64;
        for (i = 0; i < 3; i++)
            ss += own[i] * own[i];
        want = 2.365 * sqrt((ss + 4 * ms) / 7);
        h = prof_impl_next_halfwidth(own, 3, pool, 64, work);
        CHECK(near(h, want, 1e-9), "3 own in a pool of 64: %g, want %g", h,
              want);
        /* 19 own: their own order statistic, the pool aside */
        h = prof_impl_next_halfwidth(own, 19, pool, 64, work);
        CHECK(near(h, 0.019, 1e-12), "19 own in a pool of 64: %g", h);
    }
    /* own 2 changes of 0.02, pool 4 of 0.02: k = 4, df 6, t = 2.447 */
    {
        double a[2] = { 0.02, -0.02 }, b[4] = { 0.02, -0.02, 0.02, -0.02 };
        h = prof_impl_next_halfwidth(a, 2, b, 4, work);
        CHECK(near(h, 2.447 * 0.02, 1e-9), "2 and 4: %g, want %g", h,
              2.447 * 0.02);
        /* no own change yet: the pool alone (k = 4, df 4: 2.776) */
        h = prof_impl_next_halfwidth(NULL, 0, b, 4, work);
        CHECK(near(h, 2.776 * 0.02, 1e-9), "pool alone: %g, want %g", h,
              2.776 * 0.02);
    }
}

/* A result of one process with median m and interval [lo, hi]. */
static prof_result one(double m, double lo, double hi)
{
    prof_result p;
    memset(&p, 0, sizeof p);
    p.median_ns = m;
    p.ci_low_ns = lo;
    p.ci_high_ns = hi;
    p.ci_level = 0.988;
    p.processes = 1;
    return p;
}

static void test_interval(void)
{
    prof_result p = one(100.0, 99.0, 102.0);
    double h = log(1.05);
    /* one process, nothing learned: unknown, the table says "this process" */
    prof_impl_next_interval(&p, NAN, 0);
    CHECK(isnan(p.next_low_ns) && isnan(p.next_high_ns) && p.next_runs == 0,
          "one process alone: [%g, %g] %d", p.next_low_ns, p.next_high_ns,
          p.next_runs);
    /* learned +-5%: the median times exp(+-h), at 95% */
    prof_impl_next_interval(&p, h, 37);
    CHECK(near(p.next_low_ns, 100.0 / 1.05, 1e-12)
          && near(p.next_high_ns, 105.0, 1e-12) && p.next_runs == 37
          && p.next_level == PROF_CI_LEVEL, "learned 5%%: [%g, %g] %d %g",
          p.next_low_ns, p.next_high_ns, p.next_runs, p.next_level);
    /* never narrower than the process's own interval widened by sqrt(2):
       [100 - 1.414 x 3, 100 + 1.414 x 6] against +-1% */
    p = one(100.0, 97.0, 106.0);
    prof_impl_next_interval(&p, log(1.01), 5);
    CHECK(near(p.next_low_ns, 100.0 - sqrt(2.0) * 3.0, 1e-12)
          && near(p.next_high_ns, 100.0 + sqrt(2.0) * 6.0, 1e-12),
          "own interval wider: [%g, %g]", p.next_low_ns, p.next_high_ns);
    /* a low bound never under 0 */
    p = one(1.0, 0.9, 1.1);
    prof_impl_next_interval(&p, NAN, 0);
    p.processes = 1;
    prof_impl_next_interval(&p, 40.0, 3);
    CHECK(p.next_low_ns >= 0.0, "low bound %g", p.next_low_ns);
}

/* Fake processes: 10 processes of 11 epochs each, their medians 100, 101,
   ..., 109 ns. The processes' interval is the order statistics of their
   medians (2nd and 9th of 10) widened by sqrt(2) about the median of the
   medians (104.5): [104.5 - 1.414 x 3.5, 104.5 + 1.414 x 3.5]; with
   nothing learned that is the next-run interval, at its own level. */
static void test_processes(void)
{
    prof_impl_epochs e;
    prof_impl_result * res;
    int k, i, n = 110;
    memset(&e, 0, sizeof e);
    prof_impl_settings_default(&e.s);
    e.name = "fake processes";
    e.got = n;
    e.processes = 10;
    e.samples = (double *) malloc(n * sizeof *e.samples);
    e.cpu = (double *) malloc(n * sizeof *e.cpu);
    e.iters = (ulong *) malloc(n * sizeof *e.iters);
    e.process = (int *) malloc(n * sizeof *e.process);
    e.load = NAN;
    for (k = 0; k < 10; k++)
        for (i = 0; i < 11; i++)
        {
            int j = 11 * k + i;
            e.samples[j] = e.cpu[j] = 100.0 + k + 0.01 * (i - 5);
            e.iters[j] = 1000;
            e.process[j] = k;
        }
    res = prof_impl_result_make(&e);
    CHECK(res != NULL, "result");
    if (res == NULL)
        return;
    prof_impl_history_apply(NULL, &res->pub);
    CHECK(near(res->pub.median_ns, 104.5, 1e-12), "median %g",
          res->pub.median_ns);
    CHECK(near(res->pub.next_low_ns, 104.5 - sqrt(2.0) * 3.5, 1e-9)
          && near(res->pub.next_high_ns, 104.5 + sqrt(2.0) * 3.5, 1e-9)
          && res->pub.next_runs == 0
          && near(res->pub.next_level, res->pub.ci_level, 1e-12),
          "10 processes: [%g, %g] at %g, %d runs", res->pub.next_low_ns,
          res->pub.next_high_ns, res->pub.next_level, res->pub.next_runs);
    /* learned changes of +-10% are wider: they win */
    prof_impl_next_interval(&res->pub, log(1.1), 40);
    CHECK(near(res->pub.next_high_ns, 104.5 * 1.1, 1e-12)
          && res->pub.next_level == PROF_CI_LEVEL, "10 processes, +-10%%: "
          "[%g, %g]", res->pub.next_low_ns, res->pub.next_high_ns);
    prof_impl_result_free(res);
}

static void work(void * arg, ulong count)
{
    volatile ulong x = (ulong) (size_t) arg;
    ulong i;
    for (i = 0; i < count; i++)
        x = x * 3 + 1;
}

/* One run of a suite of two benchmarks with the history at path; the
   first result's next-run interval changes into *runs (-1: unknown). */
static int run_once(const char * path, int * runs, const char ** err)
{
    static capture_t cap;
    prof_bench * b = prof_bench_new();
    const prof_result * r;
    int rc;
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_budget_s(b, 0.05);
    CHECK(prof_bench_set_history(b, path) == 0, "set_history");
    capture_begin(&cap, 2);
    r = prof_bench_run(b, "a", work, (void *) 1);
    (void) prof_bench_run(b, "b", work, (void *) 2);
    *runs = r == NULL || isnan(r->next_low_ns) ? -1 : r->next_runs;
    rc = prof_bench_finish(b);
    prof_bench_free(b);
    *err = capture_end(&cap);
    return rc;
}

/* The lines of path that start with prefix. */
static int lines_with(const char * path, const char * prefix)
{
    char line[4096];
    int n = 0;
    FILE * f = fopen(path, "r");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        n += strncmp(line, prefix, strlen(prefix)) == 0;
    fclose(f);
    return n;
}

static void test_file(void)
{
    char dir[] = "/tmp/test_bench_history.XXXXXX", path[128], cmd[200];
    const char * err;
    int runs, rc;
    FILE * f;
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    /* made where the directory is missing */
    snprintf(path, sizeof path, "%s/sub/history", dir);
    rc = run_once(path, &runs, &err);
    CHECK(rc == 0 && runs == -1, "first run: rc %d, %d changes", rc, runs);
    CHECK(lines_with(path, "profiler-history 1") == 1
          && lines_with(path, "machine ") == 1 && lines_with(path, "b ") == 2,
          "the file after one run");
    /* the second learns its own change, known as its median is */
    rc = run_once(path, &runs, &err);
    CHECK(rc == 0 && runs == 1, "second run: %d changes, want a's own",
          runs);
    /* the third: the second's two (a's and b's), and its own a's */
    rc = run_once(path, &runs, &err);
    CHECK(rc == 0 && runs == 3, "third run: %d changes", runs);
    CHECK(strstr(err, "history") == NULL, "nothing said of it: %s", err);

    /* damaged: said once, ignored, written anew whole */
    f = fopen(path, "w");
    fputs("profiler-history 1\nmachine x\nb zz\n", f);
    fclose(f);
    rc = run_once(path, &runs, &err);
    CHECK(rc == 0 && runs == -1 && strstr(err, "profiler: history ")
          && strstr(err, "another machine") && strstr(err, "ignored"),
          "another machine's: rc %d, %d, %s", rc, runs, err);
    CHECK(lines_with(path, "b ") == 2 && lines_with(path, "machine x") == 0,
          "written anew");
    f = fopen(path, "a");
    fputs("b 1 2 3 1 5 nan 0\n", f);
    fclose(f);
    rc = run_once(path, &runs, &err);
    CHECK(rc == 0 && strstr(err, "a damaged line (line 5)"),
          "damaged line: %s", err);
    f = fopen(path, "w");
    fputs("\x7f" "ELF\n", f);
    fclose(f);
    rc = run_once(path, &runs, &err);
    CHECK(rc == 0 && strstr(err, "not a profiler history"), "not ours: %s",
          err);
    /* unwritable: said, the run's results are still whole */
    rc = run_once("/dev/null/history", &runs, &err);
    CHECK(rc == 0 && strstr(err, "/dev/null/history"), "unwritable: rc %d, "
          "%s", rc, err);
    /* off: nothing read or written, nothing learned */
    rc = run_once("off", &runs, &err);
    CHECK(rc == 0 && runs == -1 && access("off", F_OK) != 0, "off");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "rm");
}

static void test_bad_setting(void)
{
    prof_bench * b = prof_bench_new();
    capture_t cap;
    const char * err;
    char * argv[] = { (char *) "prog", (char *) "--history=", NULL };
    capture_begin(&cap, 2);
    CHECK(prof_bench_set_history(b, "") == -1, "empty path refused");
    CHECK(prof_bench_set_history(NULL, "x") == -1, "NULL suite");
    CHECK(prof_bench_args(b, 2, argv) == -1, "--history= refused");
    err = capture_end(&cap);
    CHECK(strstr(err, "prof_bench_set_history: an empty path")
          && strstr(err, "--history: a file, or off"), "messages: %s", err);
    prof_bench_free(b);
}

int main(void)
{
    test_halfwidth();
    test_interval();
    test_processes();
    test_file();
    test_bad_setting();
    return check_report("test_bench_history");
}
