/* Size sweeps under the fake clock: the rows of a list and of a range,
   their names and N, the complexity printed for the family, the filter,
   --sizes where the program opts in, and every bad input; relative mode
   against the baseline family's row of the same N; complexity fits that
   say when another fit is within the noise and when sizes are flagged. */
#include "check.h"
#include "bench.h"
#include "bench_check.h"

#include <math.h>

/* 3 ns per unit of size per iteration: linear in N. */
static void linear(void * arg, ulong count)
{
    ulong n = *(const ulong *) arg;
    fake_now += 3.0 * (double) n * (double) count;
}

/* Per unit of size per iteration: cost ns, times the next of a cycle of
   factors per call when spread is not 0 (epochs that scatter by up to
   +-spread), for the sizes from noisy_from up. */
static double cost = 3.0, spread;
static ulong noisy_from, noisy_to = (ulong) -1;
static int calls;

static void scattered(void * arg, ulong count)
{
    static const double f[11] = { 0.0, 0.8, -0.6, 1.0, -0.8, 0.4, -0.4,
                                  0.6, -1.0, 0.2, -0.2 };
    ulong n = *(const ulong *) arg;
    double c = cost;
    if (n >= noisy_from && n <= noisy_to)
        c *= 1.0 + spread * f[calls++ % 11];
    fake_now += c * (double) n * (double) count;
}

static prof_bench * suite(FILE * out)
{
    return check_suite(out, PROF_FORMAT_MD);
}

static void test_list(void)
{
    static const ulong sizes[3] = { 10, 100, 1000 };
    FILE * f = tmpfile();
    prof_bench * b = suite(f);
    const prof_result * r;
    const char * s;
    capture_t cap;
    int i, n;
    capture_begin(&cap, 2);     /* "3 sizes; 4 or more tell ..." */
    n = prof_bench_run_sizes(b, "lin", linear, sizes, 3);
    capture_end(&cap);
    CHECK(n == 3 && prof_bench_count(b) == 3, "%d run", n);
    for (i = 0; i < 3 && i < prof_bench_count(b); i++)
    {
        char name[32];
        r = prof_bench_result(b, i);
        sprintf(name, "lin/%lu", (unsigned long) sizes[i]);
        CHECK(strcmp(r->name, name) == 0 && r->complexity_n == (double) sizes[i]
              && r->median_ns == 3.0 * (double) sizes[i], "%s: N %g, %g ns",
              r->name, r->complexity_n, r->median_ns);
    }
    s = check_slurp(f);
    CHECK(strstr(s, "`lin/1000`\n\ncomplexity of `lin` (3 sizes; ")
          && strstr(s, "|           3.000 |      0% | O(n)\n"), "output: %s", s);
    /* N is restored after the sweep */
    r = prof_bench_run(b, "after", linear, (void *) &sizes[0]);
    CHECK(r && r->complexity_n == 0.0, "N after the sweep: %g",
          r ? r->complexity_n : -1);
    prof_bench_free(b);
    fclose(f);
}

static void test_range(void)
{
    prof_bench * b = suite(NULL);
    capture_t cap;
    int n;
    n = prof_bench_run_range(b, "lin", linear, 16, 1024, 4);
    CHECK(n == 4 && strcmp(prof_bench_result(b, 3)->name, "lin/1024") == 0
          && strcmp(prof_bench_result(b, 1)->name, "lin/64") == 0,
          "16..1024 x4: %d", n);
    /* hi is kept only when reached: 3, 6, ..., 96 */
    n = prof_bench_run_range(b, "odd", linear, 3, 100, 2);
    CHECK(n == 6 && strcmp(prof_bench_result(b, 9)->name, "odd/96") == 0,
          "3..100 x2: %d", n);
    n = prof_bench_run_range(b, "one", linear, 5, 5, 10);
    CHECK(n == 1 && strcmp(prof_bench_result(b, 10)->name, "one/5") == 0,
          "5..5: %d", n);
    /* the filter: one size left, no fit (and no message about it) */
    prof_bench_set_filter(b, "^lin/64$");
    capture_begin(&cap, 2);
    n = prof_bench_run_range(b, "lin", linear, 16, 1024, 4);
    CHECK(capture_end(&cap)[0] == '\0', "a message with one size");
    CHECK(n == 1, "filtered: %d", n);
    prof_bench_free(b);
}

static void test_bad(void)
{
    static const ulong unsorted[2] = { 10, 5 }, twice[2] = { 5, 5 },
                       zero[2] = { 0, 5 }, good[2] = { 5, 10 };
    prof_bench * b = suite(NULL);
    capture_t cap;
    const char * err;
    capture_begin(&cap, 2);
    CHECK(prof_bench_run_sizes(NULL, "f", linear, good, 2) == -1, "NULL suite");
    CHECK(prof_bench_run_sizes(b, "f", NULL, good, 2) == -1, "NULL target");
    CHECK(prof_bench_run_sizes(b, "f", linear, NULL, 2) == -1, "NULL sizes");
    CHECK(prof_bench_run_sizes(b, "f", linear, good, 0) == -1, "no sizes");
    CHECK(prof_bench_run_sizes(b, "f", linear, good, -1) == -1, "-1 sizes");
    CHECK(prof_bench_run_sizes(b, "f", linear, good, PROF_SIZES_MAX + 1) == -1,
          "too many");
    CHECK(prof_bench_run_sizes(b, "f", linear, unsorted, 2) == -1, "unsorted");
    CHECK(prof_bench_run_sizes(b, "f", linear, twice, 2) == -1, "repeated");
    CHECK(prof_bench_run_sizes(b, "f", linear, zero, 2) == -1, "size 0");
    CHECK(prof_bench_run_sizes(b, NULL, linear, good, 2) == -1
          && prof_bench_run_sizes(b, "", linear, good, 2) == -1
          && prof_bench_run_sizes(b, "a/b", linear, good, 2) == -1, "family");
    CHECK(prof_bench_run_range(b, "f", linear, 0, 8, 2) == -1, "lo 0");
    CHECK(prof_bench_run_range(b, "f", linear, 8, 4, 2) == -1, "hi < lo");
    CHECK(prof_bench_run_range(b, "f", linear, 1, 8, 1) == -1
          && prof_bench_run_range(b, "f", linear, 1, 8, 0) == -1, "multiplier");
    CHECK(prof_bench_run_range(NULL, "f", linear, 1, 8, 2) == -1
          && prof_bench_run_range(b, "f", NULL, 1, 8, 2) == -1, "NULLs");
    CHECK(prof_bench_set_sizes_flag(NULL, 1) == -1, "NULL suite");
    err = capture_end(&cap);
    CHECK(prof_bench_count(b) == 0, "%d results", prof_bench_count(b));
    CHECK(strstr(err, "profiler: prof_bench_run_sizes: size 2 is 5: sizes are "
                 "above 0 and in increasing order")
          && strstr(err, "profiler: prof_bench_run_sizes: size 1 is 0:")
          && strstr(err, "profiler: prof_bench_run_sizes(\"a/b\"): a family "
                    "name holds no '/'; nothing run")
          && strstr(err, "profiler: prof_bench_run_range: the range 8..4 x2: ")
          && strstr(err, "no sizes; 1 to 4096 sizes are expected"),
          "messages: %s", err);
    prof_bench_free(b);
}

/* prof_bench_args with one argument; 0 or -1. */
static int args(prof_bench * b, const char * arg)
{
    char a0[] = "prog", a1[64];
    char * argv[] = { a0, a1, NULL };
    snprintf(a1, sizeof a1, "%s", arg);
    return prof_bench_args(b, 2, argv);
}

static void test_flag(void)
{
    static const char * bad[] = { "--sizes=", "--sizes=0,1", "--sizes=3,2",
        "--sizes=a", "--sizes=1..", "--sizes=4..2", "--sizes=1..8x1",
        "--sizes=1,,2", "--sizes=1..8x", "--sizes=99999999999999999999999" };
    static const ulong sizes[2] = { 10, 100 };
    prof_bench * b = suite(NULL);
    capture_t cap;
    const char * err;
    int i;
    capture_begin(&cap, 2);
    CHECK(args(b, "--sizes=8,16") == -1, "--sizes taken without opting in");
    err = capture_end(&cap);
    CHECK(strstr(err, "unknown option --sizes=8,16"), "message: %s", err);
    prof_bench_set_sizes_flag(b, 1);
    CHECK(args(b, "--sizes=8,16") == 0, "--sizes=8,16");
    CHECK(prof_bench_run_sizes(b, "lin", linear, sizes, 2) == 2
          && strcmp(prof_bench_result(b, 0)->name, "lin/8") == 0
          && strcmp(prof_bench_result(b, 1)->name, "lin/16") == 0,
          "--sizes replaces the list");
    CHECK(args(b, "--sizes=2..32x4") == 0
          && prof_bench_run_range(b, "r", linear, 1, 2, 2) == 3
          && strcmp(prof_bench_result(b, 4)->name, "r/32") == 0,
          "--sizes=2..32x4 replaces the range");
    CHECK(args(b, "--sizes=5..20") == 0 && b->ncli_sizes == 3
          && b->cli_sizes[2] == 20, "LO..HI: x2");
    setenv("PROFILER_SIZES", "7", 1);
    CHECK(prof_bench_args(b, 0, NULL) == 0 && b->ncli_sizes == 1
          && b->cli_sizes[0] == 7, "PROFILER_SIZES");
    unsetenv("PROFILER_SIZES");
    for (i = 0; i < (int) (sizeof bad / sizeof bad[0]); i++)
    {
        capture_begin(&cap, 2);
        CHECK(args(b, bad[i]) == -1, "%s taken", bad[i]);
        err = capture_end(&cap);
        CHECK(strstr(err, "profiler: benchmark options: --sizes: "), "%s: %s",
              bad[i], err);
    }
    prof_bench_free(b);
}

/* family/N is compared with the baseline family's row of the same N;
   n/a where it has none; far from 100%, the table says "2.0x faster". */
static void test_relative(void)
{
    static const ulong base_sizes[3] = { 100, 200, 400 },
                       other[3] = { 100, 200, 800 };
    FILE * f = tmpfile();
    prof_bench * b = suite(f);
    const char * s;
    capture_t cap;
    capture_begin(&cap, 2);     /* "3 sizes; 4 or more ..." */
    prof_bench_set_relative(b, 1);
    cost = 3.0;
    prof_bench_run_sizes(b, "base", scattered, base_sizes, 3);
    cost = 1.5;                 /* twice as fast */
    prof_bench_run_sizes(b, "fast", scattered, other, 3);
    cost = 2.7;                 /* a little faster */
    prof_bench_run_sizes(b, "near", scattered, base_sizes, 1);
    cost = 30.0;                /* ten times slower */
    prof_bench_run_sizes(b, "slow", scattered, base_sizes, 1);
    capture_end(&cap);
    cost = 3.0;
    CHECK(prof_bench_count(b) == 8, "%d results", prof_bench_count(b));
    CHECK(near(prof_bench_result(b, 0)->relative_pct, 100.0)
          && near(prof_bench_result(b, 1)->relative_pct, 100.0)
          && near(prof_bench_result(b, 2)->relative_pct, 100.0),
          "the baseline family: %g %g %g",
          prof_bench_result(b, 0)->relative_pct,
          prof_bench_result(b, 1)->relative_pct,
          prof_bench_result(b, 2)->relative_pct);
    CHECK(near(prof_bench_result(b, 3)->relative_pct, 200.0)
          && near(prof_bench_result(b, 4)->relative_pct, 200.0)
          && isnan(prof_bench_result(b, 5)->relative_pct),
          "fast/100, /200, /800: %g %g %g",
          prof_bench_result(b, 3)->relative_pct,
          prof_bench_result(b, 4)->relative_pct,
          prof_bench_result(b, 5)->relative_pct);
    CHECK(near(prof_bench_result(b, 6)->relative_pct, 100.0 * 3.0 / 2.7)
          && near(prof_bench_result(b, 7)->relative_pct, 10.0),
          "near, slow: %g %g", prof_bench_result(b, 6)->relative_pct,
          prof_bench_result(b, 7)->relative_pct);
    s = check_slurp(f);
    CHECK(strstr(s, "|   100.0% \xC2\xB1" "0.0 | 300.0 ns |")
          && strstr(s, "| 2.000x faster | 150.0 ns |")
          && strstr(s, "|           n/a | 1.200 us |")
          && strstr(s, "|   111.1% \xC2\xB1" "0.0 | 270.0 ns |")
          && strstr(s, "| 10.00x slower | 3.000 us |"), "table: %s", s);
    prof_bench_free(b);
    fclose(f);
}

/* The suite's JSON, written to a string (static: until the next call). */
static const char * json_of(prof_bench * b)
{
    static FILE * f;
    if (f != NULL)
        fclose(f);
    f = tmpfile();
    prof_bench_write(f, b, PROF_FORMAT_JSON);
    return check_slurp(f);
}

/* The fits of "lin" over sizes, printed to a string. */
static const char * fits_of(prof_bench * b, const ulong * sizes, int n,
        prof_fit * fits, int * nf)
{
    static FILE * f;
    capture_t cap;
    if (f != NULL)
        fclose(f);
    f = tmpfile();
    capture_begin(&cap, 2);
    prof_bench_run_sizes(b, "lin", scattered, sizes, n);
    capture_end(&cap);
    *nf = prof_bench_complexity(b, "lin", fits, 8);
    prof_bench_print_complexity(f, b, "lin");
    return check_slurp(f);
}

static void test_fit_noise(void)
{
    static const ulong close_sizes[4] = { 1000, 1100, 1200, 1300 },
                       wide[4] = { 16, 64, 256, 1024 };
    prof_bench * b = suite(NULL);
    prof_fit fits[8];
    const char * s, * j;
    int nf, i, others = 0;
    /* O(n) and O(n log n) differ by 4% over 1000..1300; the epochs
       scatter by +-5%: the first fit is not clearly better */
    spread = 0.05;
    s = fits_of(b, close_sizes, 4, fits, &nf);
    for (i = 1; i < nf; i++)
        others += fits[i].within_noise;
    CHECK(nf == 6 && fits[0].within_noise && others > 0
          && strstr(s, "is not clearly better than")
          && strstr(s, " (within the noise)\n"), "close sizes: %s", s);
    j = json_of(b);
    CHECK(strstr(j, "\"within_noise\": [\"") && strstr(j, "\"confident\": false"),
          "JSON: %s", j);
    prof_bench_free(b);
    /* the same epochs over 16..1024: O(n), clear */
    b = suite(NULL);
    s = fits_of(b, wide, 4, fits, &nf);
    for (i = 1, others = 0; i < nf; i++)
        others += fits[i].within_noise;
    CHECK(nf == 6 && strcmp(fits[0].name, "O(n)") == 0 && others == 0
          && !strstr(s, "warning"), "wide sizes: %s", s);
    j = json_of(b);
    CHECK(strstr(j, "\"within_noise\": [],\n      \"unstable_sizes\": [],\n"
                 "      \"confident\": true"), "JSON: %s", j);
    prof_bench_free(b);
    /* one size scatters by +-30% (err% over 5%): flagged, and said */
    b = suite(NULL);
    spread = 0.3;
    noisy_from = noisy_to = 256;
    s = fits_of(b, wide, 4, fits, &nf);
    CHECK(strstr(s, "**warning**: 1 of 4 sizes have flagged rows (256): their "
                 "times may bend the fit"), "flagged size: %s", s);
    j = json_of(b);
    CHECK(strstr(j, "\"unstable_sizes\": [256],\n      \"confident\": false"),
          "JSON: %s", j);
    spread = 0.0;
    noisy_from = 0;
    noisy_to = (ulong) -1;
    prof_bench_free(b);
}

int main(void)
{
    prof_impl_set_fake_clock(fake_read, 1e9);
    test_list();
    test_range();
    test_bad();
    test_flag();
    test_relative();
    test_fit_noise();
    prof_impl_set_fake_clock(NULL, 0);
    return check_report("test_bench_sizes");
}
